// res.stats-under-load: upstream's kubelet stats test for Windows nodes, judged its way. Ten pods
// (each with an init container) on one Windows node, then the node's /stats/summary read five
// times: every pod has CPU and working-set figures, every container has log stats, and the
// answers take at most 10 s on average, "the default scrape timeout for metrics-server and
// kube-prometheus" (test/e2e/windows/kubelet_stats.go, "when running 10 pods should return within
// 10 seconds").

import { NODE_SUMMARY_ACCESS } from '../access.ts';
import { supported } from '../expect.ts';
import { readyPods } from '../kit/podWaits.ts';
import { kubeletSummary, summaryUntil, type StatsSummary } from '../kit/kubeletStats.ts';
import { cite, sources } from '../../facts/sources.ts';
import type { FixtureSpec } from '../../fixtures/types.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

/** Upstream's figures: 10 pods, 5 reads, 10 s average. */
export const STATS_LOAD = { pods: 10, reads: 5, budgetMs: 10_000 } as const;
/** How long the kubelet may take to list a new pod at all (it refreshes its stats every 10-15 s). */
const FIRST_SEEN_DEADLINE_MS = 30_000;

const POD_NAMES = Array.from({ length: STATS_LOAD.pods }, (_, i) => `stats-load-${i}`);

/** What a summary lacks for the ten pods, as upstream checks it (empty when nothing). */
export function statsProblems(s: StatsSummary, namespace: string, names: readonly string[]): string[] {
  const problems: string[] = [];
  for (const name of names) {
    const p = s.pods?.find(x => x.podRef.namespace === namespace && x.podRef.name === name);
    if (!p) {
      problems.push(`pod ${name} is not listed`);
      continue;
    }
    if (!((p.cpu?.usageCoreNanoSeconds ?? 0) > 0)) problems.push(`pod ${name}: cpu.usageCoreNanoSeconds ${p.cpu?.usageCoreNanoSeconds ?? 'absent'}`);
    if (!((p.memory?.workingSetBytes ?? 0) > 0)) problems.push(`pod ${name}: memory.workingSetBytes ${p.memory?.workingSetBytes ?? 'absent'}`);
    for (const c of p.containers ?? []) {
      if (!((c.logs?.availableBytes ?? 0) > 0)) problems.push(`pod ${name} container ${c.name}: logs.availableBytes ${c.logs?.availableBytes ?? 'absent'}`);
    }
  }
  return problems;
}

/** The judgement of the timed reads: the average against upstream's budget. */
export function latencyVerdict(durationsMs: readonly number[]): { averageMs: number; within: boolean } {
  const averageMs = Math.round(durationsMs.reduce((a, b) => a + b, 0) / Math.max(durationsMs.length, 1));
  return { averageMs, within: averageMs <= STATS_LOAD.budgetMs };
}

async function statsUnderLoadProbe(ctx: CheckContext): Promise<Observation> {
  for (const name of POD_NAMES) ctx.fixture(name);
  const ready = await readyPods(ctx, POD_NAMES);
  if (!ready.ok) return ready.observation;
  const node = ready.pods[POD_NAMES[0]].spec!.nodeName!;
  // The first read that lists all ten is the positive control: the summary API answers and knows
  // the pods. Only then are reads timed (upstream times reads of pods already running).
  ctx.step(`GET /api/v1/nodes/${node}/proxy/stats/summary until the ${STATS_LOAD.pods} pods show`);
  const first = await summaryUntil(ctx, node, Math.min(FIRST_SEEN_DEADLINE_MS, ctx.options.timeouts.podStart), s =>
    POD_NAMES.every(n => s.pods?.some(p => p.podRef.namespace === ctx.namespace && p.podRef.name === n)) ? s : undefined,
  );
  if (!first.value) {
    const listed = first.last?.pods?.filter(p => p.podRef.namespace === ctx.namespace).length ?? 0;
    return {
      works: false,
      summary: `the summary API of ${node} lists ${listed} of the ${STATS_LOAD.pods} running pods`,
      evidence: [`${listed} of ${STATS_LOAD.pods} pods of ${ctx.namespace} listed by ${node}'s /stats/summary`],
      node,
    };
  }
  ctx.step(`${STATS_LOAD.reads} timed reads of ${node}'s /stats/summary`);
  const durations: number[] = [];
  const problems = new Set<string>();
  for (let i = 0; i < STATS_LOAD.reads; i++) {
    const start = performance.now();
    const s = await kubeletSummary(ctx, node);
    durations.push(Math.round(performance.now() - start));
    for (const p of statsProblems(s, ctx.namespace, POD_NAMES)) problems.add(p);
  }
  const { averageMs, within } = latencyVerdict(durations);
  const evidence: EvidenceItem[] = [
    `${STATS_LOAD.pods} pods on ${node}; /stats/summary took ${durations.join(', ')} ms (average ${averageMs} ms, budget ${STATS_LOAD.budgetMs} ms)`,
    problems.size
      ? `missing: ${[...problems].slice(0, 10).join('; ')}`
      : 'every pod has cpu.usageCoreNanoSeconds and memory.workingSetBytes > 0; every container has logs.availableBytes > 0',
  ];
  const works = within && problems.size === 0;
  return {
    works,
    summary: works
      ? `${node} served the stats of ${STATS_LOAD.pods} pods in ${averageMs} ms on average (budget ${STATS_LOAD.budgetMs} ms)`
      : [
          within ? '' : `${node}'s /stats/summary took ${averageMs} ms on average, over the ${STATS_LOAD.budgetMs} ms budget`,
          problems.size ? `${problems.size} stat(s) missing or zero (${[...problems][0]})` : '',
        ]
          .filter(Boolean)
          .join('; '),
    evidence,
    node,
  };
}

/** One of the stats pods; res.kubelet-resource-metrics shares two of them. */
export const statsLoadFixture = (id: string): FixtureSpec => ({ id, template: 'stats-load', os: 'windows', pin: 'node' });
const fixtures: FixtureSpec[] = POD_NAMES.map(statsLoadFixture);

export const features: Feature[] = [
  {
    id: 'res.stats-under-load',
    area: 'resources',
    title: 'Kubelet stats of 10 pods on one Windows node, within 10 s on average',
    access: NODE_SUMMARY_ACCESS,
    needs: ['windows-node'],
    fixtures,
    expect: () =>
      supported(
        `the Windows kubelet serves /stats/summary for a node with ${STATS_LOAD.pods} pods within ${STATS_LOAD.budgetMs / 1000} s on average, with pod CPU, working set and container log stats`,
        sources(cite.e2eTest('kubelet_stats.go', 'when running 10 pods should return within 10 seconds'), cite.intro()),
      ),
    probe: statsUnderLoadProbe,
  },
];
