// Container stats of a HostProcess pod (upstream test/e2e/windows/host_process.go "container stats
// validation"): a running HostProcess pod (fixtures/hostprocess-stats.yaml) and the node's
// /stats/summary, polled until the pod shows, as upstream's ensurePodsStatsOnNode judges it: the
// pod's cpu.usageCoreNanoSeconds and memory.workingSetBytes above zero, and for each container those
// two and logs.usedBytes above zero. The node's own CPU and memory in the same summary are the
// control (the summary API answers with stats).

import { hostProcessPossible } from '../../discovery/discover.ts';
import { targetWindowsNode } from '../../discovery/nodes.ts';
import { HOST_PROCESS } from '../../facts/kubernetes.ts';
import { cite, sources } from '../../facts/sources.ts';
import { NODE_SUMMARY_ACCESS } from '../access.ts';
import { notApplicable, supported } from '../expect.ts';
import { kubeletSummary, podStatsOf, summaryUntil, type PodStats } from '../kit/kubeletStats.ts';
import { control } from '../kit/observe.ts';
import { fixturePodReady } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

const FIXTURE = 'hostprocess-stats';
const SPEC = 'HostProcess containers container stats validation';
/** How long the kubelet may take to list a new pod (it refreshes its stats every 10-15 s). */
const STATS_DEADLINE_MS = 30_000;

/** What the pod's stats lack, as upstream's ensurePodsStatsOnNode checks them (empty when nothing). */
export function hostProcessStatsProblems(p: PodStats | undefined): string[] {
  if (!p) return ['the pod is not listed'];
  const problems: string[] = [];
  const positive = (v: number | undefined) => typeof v === 'number' && v > 0;
  if (!positive(p.cpu?.usageCoreNanoSeconds)) problems.push(`pod cpu.usageCoreNanoSeconds ${p.cpu?.usageCoreNanoSeconds ?? 'absent'}`);
  if (!positive(p.memory?.workingSetBytes)) problems.push(`pod memory.workingSetBytes ${p.memory?.workingSetBytes ?? 'absent'}`);
  if (!p.containers?.length) problems.push('no container stats');
  for (const c of p.containers ?? []) {
    if (!positive(c.cpu?.usageCoreNanoSeconds)) problems.push(`container ${c.name}: cpu.usageCoreNanoSeconds ${c.cpu?.usageCoreNanoSeconds ?? 'absent'}`);
    if (!positive(c.memory?.workingSetBytes)) problems.push(`container ${c.name}: memory.workingSetBytes ${c.memory?.workingSetBytes ?? 'absent'}`);
    if (!positive(c.logs?.usedBytes)) problems.push(`container ${c.name}: logs.usedBytes ${c.logs?.usedBytes ?? 'absent'}`);
  }
  return problems;
}

async function hostProcessStatsProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, FIXTURE, `HostProcess pod ${FIXTURE} (NT AUTHORITY\\Local Service)`);
  if (!r.ok) return r.observation;
  const node = r.pod.spec!.nodeName!;
  const path = `/api/v1/nodes/${node}/proxy/stats/summary`;
  ctx.step(`GET ${path} until ${FIXTURE} shows with CPU, memory and log stats`);
  const deadline = Math.min(STATS_DEADLINE_MS, ctx.options.timeouts.podStart);
  const { value, last } = await summaryUntil(ctx, node, deadline, s => {
    const p = podStatsOf(s, ctx.namespace, FIXTURE);
    return p && hostProcessStatsProblems(p).length === 0 ? p : undefined;
  });
  const summary = last ?? (await kubeletSummary(ctx, node));
  const pod = value ?? podStatsOf(summary, ctx.namespace, FIXTURE);
  const n = summary.node;
  const ctl = control(
    typeof n?.cpu?.usageNanoCores === 'number' && typeof n?.memory?.workingSetBytes === 'number',
    `${path} answered with the node's cpu ${n?.cpu?.usageNanoCores ?? 'absent'} nanocores and working set ${n?.memory?.workingSetBytes ?? 'absent'} bytes`,
  );
  const problems = hostProcessStatsProblems(pod);
  const evidence: EvidenceItem[] = [
    `${path}: ${summary.pods?.length ?? 0} pod(s) listed`,
    pod
      ? `pod ${FIXTURE}: cpu.usageCoreNanoSeconds ${pod.cpu?.usageCoreNanoSeconds ?? 'absent'}, memory.workingSetBytes ${pod.memory?.workingSetBytes ?? 'absent'}; containers ${JSON.stringify(
          (pod.containers ?? []).map(c => ({ name: c.name, cpu: c.cpu?.usageCoreNanoSeconds, workingSet: c.memory?.workingSetBytes, logs: c.logs?.usedBytes })),
        )}`
      : `pod ${FIXTURE}: absent`,
  ];
  return problems.length
    ? {
        works: false,
        summary: `${node}'s /stats/summary lacks the HostProcess pod's stats within ${Math.round(deadline / 1000)}s: ${problems.join('; ')}`,
        evidence,
        node,
        control: ctl,
      }
    : {
        works: true,
        summary: `${node}'s /stats/summary has CPU, working set and log stats of HostProcess pod ${FIXTURE} and its container`,
        evidence,
        node,
        control: ctl,
      };
}

export const features: Feature[] = [
  {
    id: 'iso.hostprocess-stats',
    area: 'isolation',
    title: "A HostProcess pod's container CPU, memory and log stats in the kubelet's /stats/summary",
    access: NODE_SUMMARY_ACCESS,
    needs: ['windows-node'],
    fixtures: [{ id: FIXTURE, template: 'hostprocess-stats', os: 'windows', pin: 'node' }],
    expect: c => {
      const node = targetWindowsNode(c.nodes);
      const hp = hostProcessPossible(c.version, node ? [node] : []);
      return node && hp.ok
        ? supported(
            `the kubelet serves the stats of HostProcess containers like any other's: ${hp.reason}`,
            sources(cite.e2eTest('host_process.go', SPEC), cite.kep(1981)),
          )
        : notApplicable(`HostProcess containers cannot run on the target node: ${hp.reason}`, sources(HOST_PROCESS.source));
    },
    probe: hostProcessStatsProbe,
  },
];
