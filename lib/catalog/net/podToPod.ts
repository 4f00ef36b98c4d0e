// Pod addresses and pod → pod paths by pod IP (W → W on one node and across nodes, W → L, L → W),
// probed as upstream test/e2e/windows/hybrid_network.go does: curl.exe from Windows, nc from Linux,
// never ICMP for reachability, a warm-up then a steady period per path (./steady.ts).

import type { ProbeOS } from '../../probes/types.ts';
import { supported } from '../expect.ts';
import { readyPods } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { podIP } from './addresses.ts';
import { ensureFarPod } from './farPod.ts';
import { ipconfigOf } from '../kit/ipconfig.ts';
import { FAR_POD, FX } from './netexec.ts';
import { checkPodPath, pathObservation } from './pathChecks.ts';
import { steadyPeriod } from './steady.ts';
import { cite, sources } from '../../facts/sources.ts';

const SUITE = 'networking';
const POD_PATH_SOURCE = sources(cite.intro(), cite.e2eTest('hybrid_network.go'));

/**
 * A pod → pod path by pod IP between net-win and another fixture pod (both Ready first), from
 * net-win to the peer or from the peer (probing with its OS's tools) to net-win; the observation
 * is on net-win's node.
 */
async function pathWithWinPod(ctx: CheckContext, direction: 'from' | 'to', peer: { id: string; os: ProbeOS }, what: string): Promise<Observation> {
  const ready = await readyPods(ctx, [FX.win.id, peer.id]);
  if (!ready.ok) return ready.observation;
  const win = ready.pods[FX.win.id];
  const check =
    direction === 'from'
      ? await checkPodPath(ctx, { name: FX.win.id, os: 'windows', ip: podIP(win) }, { name: peer.id, host: podIP(ready.pods[peer.id]) }, what)
      : await checkPodPath(ctx, { name: peer.id, os: peer.os, ip: podIP(ready.pods[peer.id]) }, { name: FX.win.id, host: podIP(win) }, what);
  return pathObservation(check, win.spec?.nodeName);
}

export const features: Feature[] = [
  {
    id: 'net.pod-ip',
    area: 'networking',
    suite: SUITE,
    title: 'Each Windows pod gets its own IP (one endpoint per pod)',
    needs: ['windows-node'],
    fixtures: [FX.win, FX.winPeer, FX.winPeer2],
    expect: () => supported('every Windows pod gets its own IP address (one HNS endpoint per pod)', sources(cite.intro(), cite.v122Intro())),
    probe: async ctx => {
      const names = [FX.win.id, FX.winPeer.id, FX.winPeer2.id];
      const ready = await readyPods(ctx, names);
      if (!ready.ok) return ready.observation;
      const evidence: EvidenceItem[] = [];
      const problems: string[] = [];
      const ips = names.map(n => ready.pods[n].status?.podIP ?? '');
      evidence.push(`pod IPs: ${names.map((n, i) => `${n}=${ips[i] || 'none'}@${ready.pods[n].spec?.nodeName}`).join(', ')}`);
      if (ips.some(ip => !ip)) problems.push('a Ready pod has no IP');
      if (new Set(ips).size !== ips.length) problems.push('pods share an IP');
      const nodeIPs = new Set(ctx.cluster.nodes.map(n => n.internalIP).filter(Boolean));
      if (ips.some(ip => nodeIPs.has(ip))) problems.push("a pod has its node's IP (host network)");
      for (const [i, n] of names.entries()) {
        const { r, cfg } = await ipconfigOf(ctx, ctx.podTransport(n, 'windows'));
        evidence.push(r.evidence);
        const own = cfg.adapters.flatMap(a => a.ipv4);
        if (!r.ok) problems.push(`ipconfig failed in ${n}`);
        else if (ips[i] && !own.includes(ips[i])) problems.push(`ipconfig in ${n} shows ${own.join(', ') || 'no IPv4 address'}, not its pod IP ${ips[i]}`);
      }
      return problems.length
        ? { works: false, summary: problems.join('; '), evidence, node: ready.pods[names[0]].spec?.nodeName }
        : {
            works: true,
            summary: `${names.length} Windows pods on one node have distinct IPs ${ips.join(', ')}, each shown by its own ipconfig`,
            evidence,
            node: ready.pods[names[0]].spec?.nodeName,
          };
    },
  },
  {
    id: 'net.w2w-same-node',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod → Windows pod on the same node (pod IP, HTTP)',
    netPath: { from: 'windows-pod', to: 'windows-pod-same-node' },
    needs: ['windows-node'],
    fixtures: [FX.win, FX.winPeer],
    designedWaitMs: steadyPeriod,
    expect: () => supported('Windows pods reach each other by pod IP', POD_PATH_SOURCE),
    probe: ctx => pathWithWinPod(ctx, 'from', { id: FX.winPeer.id, os: 'windows' }, 'W → W (same node)'),
  },
  {
    id: 'net.w2w-cross-node',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod → Windows pod on another node (pod IP, HTTP)',
    netPath: { from: 'windows-pod', to: 'windows-pod-other-node' },
    needs: ['two-windows-nodes'],
    fixtures: [FX.win, FX.winPeer],
    designedWaitMs: steadyPeriod,
    expect: () => supported('Windows pods on different nodes reach each other by pod IP', POD_PATH_SOURCE),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id]);
      if (!ready.ok) return ready.observation;
      const client = ready.pods[FX.win.id];
      const far = await ensureFarPod(ctx, client.spec?.nodeName ?? '');
      if ('missing' in far) return { works: false, summary: far.missing, evidence: [], notApplicable: far.missing };
      const farReady = await readyPods(ctx, [FAR_POD]);
      if (!farReady.ok) return farReady.observation;
      const check = await checkPodPath(
        ctx,
        { name: FX.win.id, os: 'windows', ip: podIP(client) },
        { name: FAR_POD, host: podIP(farReady.pods[FAR_POD]) },
        `W → W (${client.spec?.nodeName} → ${far.node.name})`,
      );
      return pathObservation(check, client.spec?.nodeName);
    },
  },
  {
    id: 'net.w2l',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod → Linux pod (pod IP, HTTP)',
    netPath: { from: 'windows-pod', to: 'linux-pod' },
    needs: ['windows-node', 'linux-node'],
    fixtures: [FX.win, FX.linux],
    designedWaitMs: steadyPeriod,
    expect: () => supported('Windows pods reach Linux pods by pod IP', POD_PATH_SOURCE),
    probe: ctx => pathWithWinPod(ctx, 'from', { id: FX.linux.id, os: 'linux' }, 'W → L'),
  },
  {
    id: 'net.l2w',
    area: 'networking',
    suite: SUITE,
    title: 'Linux pod → Windows pod (pod IP, TCP then HTTP)',
    netPath: { from: 'linux-pod', to: 'windows-pod-other-node' },
    needs: ['windows-node', 'linux-node'],
    fixtures: [FX.win, FX.linux],
    designedWaitMs: steadyPeriod,
    expect: () => supported('Linux pods reach Windows pods by pod IP', POD_PATH_SOURCE),
    probe: ctx => pathWithWinPod(ctx, 'to', { id: FX.linux.id, os: 'linux' }, 'L → W'),
  },
];
