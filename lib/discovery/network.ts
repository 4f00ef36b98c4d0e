// CNI and kube-proxy from what kube-system shows: DaemonSet names, kube-proxy flags and config,
// flannel's net-conf. Pure functions over the listed objects; discover.ts does the listing.

import type { V1ConfigMap, V1DaemonSet } from '@kubernetes/client-node';
import type { NetworkInfo } from './types.ts';

/**
 * NetworkPolicy engines by the DaemonSet their manifests name: Calico (calico-node, also in
 * canal), Antrea (antrea-agent), Azure NPM (azure-npm, azure-npm-win), Cilium, kube-router.
 */
const POLICY_ENGINES: [string, RegExp][] = [
  ['calico', /^(calico-node|canal)/],
  ['antrea', /^antrea-agent/],
  ['azure-npm', /^azure-npm/],
  ['cilium', /^cilium$|^cilium-agent/],
  ['kube-router', /^kube-router/],
];

const CNIS = ['flannel', 'calico', 'antrea', 'cilium', 'weave', 'azure-cni', 'azure', 'aws-node', 'ovn', 'kube-router', 'canal'];

export function networkInfoOf(daemonSets: V1DaemonSet[], configMaps: V1ConfigMap[]): NetworkInfo {
  const names = daemonSets.map(d => d.metadata?.name ?? '');
  const notes: string[] = [];
  const cni = CNIS.find(c => names.some(n => n.includes(c)));
  const policyEngine = POLICY_ENGINES.find(([, re]) => names.some(n => re.test(n)))?.[0];
  const engineDs = policyEngine ? names.filter(n => POLICY_ENGINES.find(([e]) => e === policyEngine)![1].test(n)) : [];
  notes.push(
    policyEngine
      ? `NetworkPolicy engine ${policyEngine}: DaemonSet ${engineDs.join(', ')}`
      : 'NetworkPolicy engine: none seen in kube-system (no calico-node, antrea-agent, azure-npm, cilium or kube-router DaemonSet)',
  );
  const kubeProxyDaemonSets = names.filter(n => n.includes('kube-proxy'));
  let dsr: boolean | undefined;
  let networkMode: string | undefined;

  // kube-proxy flags on the Windows DaemonSet: --enable-dsr, --feature-gates=WinDSR=true.
  for (const ds of daemonSets.filter(d => (d.metadata?.name ?? '').includes('kube-proxy'))) {
    for (const c of ds.spec?.template.spec?.containers ?? []) {
      const text = [...(c.command ?? []), ...(c.args ?? []), ...(c.env ?? []).map(e => `${e.name}=${e.value ?? ''}`)].join(' ');
      const found = readDsr(text);
      if (found !== undefined) {
        dsr = found;
        notes.push(`DSR ${found ? 'on' : 'off'}: flags of DaemonSet ${ds.metadata?.name}`);
      }
    }
  }
  for (const cm of configMaps) {
    const name = cm.metadata?.name ?? '';
    const data = Object.values(cm.data ?? {}).join('\n');
    if (dsr === undefined && name.includes('kube-proxy')) {
      const found = readDsr(data);
      if (found !== undefined) {
        dsr = found;
        notes.push(`DSR ${found ? 'on' : 'off'}: ConfigMap ${name}`);
      }
    }
    if (!networkMode && name.includes('flannel')) {
      const backend = /"Type"\s*:\s*"([\w-]+)"/i.exec(cm.data?.['net-conf.json'] ?? '')?.[1]?.toLowerCase();
      if (backend) {
        networkMode = backend === 'vxlan' ? 'overlay' : backend === 'host-gw' ? 'l2bridge' : backend;
        notes.push(`network mode ${networkMode}: flannel backend ${backend} (ConfigMap ${name})`);
      }
    }
    if (!networkMode) {
      const mode = /"type"\s*:\s*"(win-overlay|win-bridge|sdnbridge|sdnoverlay|l2bridge|overlay)"/i.exec(data)?.[1]?.toLowerCase();
      if (mode) {
        networkMode = /overlay/.test(mode) ? 'overlay' : 'l2bridge';
        notes.push(`network mode ${networkMode}: CNI config "${mode}" in ConfigMap ${name}`);
      }
    }
  }
  if (dsr === undefined) notes.push('DSR: not discoverable from kube-system (no --enable-dsr flag or kube-proxy config seen)');
  if (!networkMode) notes.push('network mode: not discoverable from kube-system');
  return { cni, kubeProxyDaemonSets, dsr, networkMode, policyEngine, notes };
}

function readDsr(text: string): boolean | undefined {
  const flag = /--enable-dsr(?:=(true|false))?/.exec(text);
  if (flag) return flag[1] !== 'false';
  const yaml = /enableDSR:\s*(true|false)/i.exec(text);
  if (yaml) return yaml[1] === 'true';
  const gate = /WinDSR=(true|false)/.exec(text);
  if (gate) return gate[1] === 'true';
  return undefined;
}
