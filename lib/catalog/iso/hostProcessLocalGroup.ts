// HostProcess containers as local-group accounts (upstream test/e2e/windows/host_process.go "should
// run as localgroup accounts", skipped below containerd 1.7): the pod's init container makes a local
// group on the node and its container names the group as runAsUserName (fixtures/
// hostprocess-localgroup.yaml). Upstream checks `whoami` names no NT AUTHORITY account; we also check
// the account is the node's own (<computer name>\<account>). The group is removed over node access.

import { hostProcessPossible } from '../../discovery/discover.ts';
import { targetWindowsNode } from '../../discovery/nodes.ts';
import { HOST_PROCESS, HOST_PROCESS_BIND_MIN, hostProcessBindMounts } from '../../facts/kubernetes.ts';
import { cite, sources } from '../../facts/sources.ts';
import { notApplicable, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import { fixturePodReady } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

const FIXTURE = 'hostprocess-localgroup';
const SPEC = 'HostProcess containers should run as localgroup accounts';

/** whoami of a local-group account: "<computer name>\<account>", not an NT AUTHORITY one. */
export function localAccount(whoami: string, hostname: string): boolean {
  const m = /^([^\\\s]+)\\(\S+)$/.exec(whoami.trim().toLowerCase());
  if (!m || m[1] === 'nt authority') return false;
  // A computer name is the host name cut to 15 characters (NetBIOS).
  return m[1] === hostname.trim().toLowerCase().slice(0, 15);
}

async function removeGroup(ctx: CheckContext, nodeName: string | undefined, group: string): Promise<EvidenceItem> {
  const node = ctx.cluster.nodes.find(n => n.name === nodeName);
  const t = node ? await ctx.nodeTransport(node).catch(() => undefined) : undefined;
  if (!t) return `local group ${group} is left on ${nodeName ?? 'the node'}: no node access to remove it (net localgroup ${group} /delete)`;
  ctx.step(`removing local group ${group} from ${nodeName}`);
  return (await ctx.probe(t, { kind: 'node-command', script: `net localgroup ${group} /delete` })).evidence;
}

async function localGroupProbe(ctx: CheckContext): Promise<Observation> {
  const group = `wincheck-${ctx.runId}`;
  const r = await fixturePodReady(ctx, FIXTURE, `HostProcess pod hostprocess-localgroup (init container adds local group ${group}, container runs as it)`);
  const nodeName = r.ok ? r.pod.spec?.nodeName : undefined;
  if (!r.ok) {
    const pod = await ctx.kube.core.readNamespacedPod({ name: FIXTURE, namespace: ctx.namespace }).catch(() => undefined);
    const cleanup = await removeGroup(ctx, pod?.spec?.nodeName, group);
    return { ...r.observation, evidence: [...r.observation.evidence, cleanup] };
  }
  const t = ctx.podTransport(FIXTURE, 'windows', 'localgroup');
  ctx.step(`whoami and hostname in container localgroup (runAsUserName ${group})`);
  const who = await ctx.probe(t, { kind: 'whoami' });
  const host = await ctx.probe(t, { kind: 'raw', argv: ['hostname'] });
  const user = who.evidence.stdout.trim();
  const hostname = host.evidence.stdout.trim();
  const evidence: EvidenceItem[] = [who.evidence, host.evidence, await removeGroup(ctx, nodeName, group)];
  const ctl = control(
    who.ok && user !== '' && hostname !== '',
    user ? `whoami answered "${user}", hostname "${hostname}"` : `whoami gave no user (${who.detail})`,
  );
  return localAccount(user, hostname)
    ? { works: true, summary: `the container runs as ${user}, an account of ${hostname} (local group ${group})`, evidence, node: nodeName, control: ctl }
    : {
        works: false,
        summary: `the container runs as "${user}", not a local account of ${hostname || 'the node'} in group ${group}`,
        evidence,
        node: nodeName,
        control: ctl,
      };
}

export const features: Feature[] = [
  {
    id: 'iso.hostprocess-localgroup',
    area: 'isolation',
    title: 'HostProcess container runs as an account of a local group (runAsUserName: <group>)',
    needs: ['windows-node'],
    fixtures: [{ id: FIXTURE, template: 'hostprocess-localgroup', os: 'windows', pin: 'node' }],
    expect: c => {
      const node = targetWindowsNode(c.nodes);
      const hp = hostProcessPossible(c.version, node ? [node] : []);
      if (!node || !hp.ok) return notApplicable(`HostProcess containers cannot run on the target node: ${hp.reason}`, sources(HOST_PROCESS.source));
      const source = sources(cite.e2eTest('host_process.go', `${SPEC} (skipped below containerd ${HOST_PROCESS_BIND_MIN})`), cite.kep(1981));
      return hostProcessBindMounts(node)
        ? supported(
            `${node.runtimeName} ${node.runtimeVersion} on ${node.name} (>= ${HOST_PROCESS_BIND_MIN}) runs HostProcess containers as local-group accounts`,
            source,
          )
        : notApplicable(
            `${node.runtimeName} ${node.runtimeVersion} on ${node.name} is below ${HOST_PROCESS_BIND_MIN}: upstream skips the spec there and documents no outcome`,
            source,
          );
    },
    probe: localGroupProbe,
  },
];
