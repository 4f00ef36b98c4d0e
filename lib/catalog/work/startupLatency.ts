// work.startup-latency: upstream's density test for Windows, judged against its own budgets. Ten
// pause pods created at once with only an OS selector; each pod's startup latency is from its
// creation to its containers running, and the batch's from the first creation to the last start
// (test/e2e/windows/density.go, "create a batch of pods latency/resource should be within limit
// when create 10 pods with 0s interval": p50 30 s, p90 54 s, p99 59 s, the batch 10 minutes).
// The times are the API server's and the kubelet's (creationTimestamp, startedAt), so when the
// check looks does not change them.

import type { V1Pod } from '@kubernetes/client-node';
import { supported } from '../expect.ts';
import { readyPods } from '../kit/podWaits.ts';
import { cite, sources } from '../../facts/sources.ts';
import type { FixtureSpec } from '../../fixtures/types.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

/** Upstream's limits for 10 pods created with 0 s interval. */
export const STARTUP_BUDGET = { pods: 10, p50Ms: 30_000, p90Ms: 54_000, p99Ms: 59_000, batchMs: 10 * 60_000 } as const;

const POD_NAMES = Array.from({ length: STARTUP_BUDGET.pods }, (_, i) => `startup-${i}`);

/** A pod's startup latency: creation to the last of its containers' start (undefined until all run). */
export function startupLatencyMs(pod: V1Pod): number | undefined {
  const created = pod.metadata?.creationTimestamp;
  const starts = (pod.status?.containerStatuses ?? []).map(s => s.state?.running?.startedAt);
  if (!created || !starts.length || starts.some(s => !s)) return undefined;
  return Math.max(...starts.map(s => new Date(s!).getTime())) - new Date(created).getTime();
}

/** The percentile as upstream's e2emetrics.ExtractLatencyMetrics takes it: sorted[ceil(n·p/100) − 1]. */
export function percentile(sortedMs: readonly number[], p: number): number {
  return sortedMs[Math.ceil((sortedMs.length * p) / 100) - 1];
}

export interface StartupVerdict {
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  batchMs: number;
  over: string[];
}

/** Judges the latencies and the batch against upstream's budgets. */
export function startupVerdict(latenciesMs: readonly number[], batchMs: number): StartupVerdict {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const v = { p50Ms: percentile(sorted, 50), p90Ms: percentile(sorted, 90), p99Ms: percentile(sorted, 99), batchMs };
  const over = (
    [
      ['p50', v.p50Ms, STARTUP_BUDGET.p50Ms],
      ['p90', v.p90Ms, STARTUP_BUDGET.p90Ms],
      ['p99', v.p99Ms, STARTUP_BUDGET.p99Ms],
      ['batch', v.batchMs, STARTUP_BUDGET.batchMs],
    ] as const
  )
    .filter(([, got, limit]) => got > limit)
    .map(([name, got, limit]) => `${name} ${seconds(got)} over ${seconds(limit)}`);
  return { ...v, over };
}

const seconds = (ms: number) => `${+(ms / 1000).toFixed(1)} s`;

async function startupLatencyProbe(ctx: CheckContext): Promise<Observation> {
  for (const name of POD_NAMES) ctx.fixture(name);
  const ready = await readyPods(ctx, POD_NAMES);
  if (!ready.ok) return ready.observation;
  const pods = POD_NAMES.map(n => ready.pods[n]);
  const latencies = pods.map(startupLatencyMs);
  const missing = POD_NAMES.filter((_, i) => latencies[i] === undefined);
  if (missing.length)
    return {
      works: false,
      summary: `no start time for ${missing.join(', ')} although Ready`,
      evidence: pods.map(p => JSON.stringify(p.status?.containerStatuses ?? [])),
    };
  const created = pods.map(p => new Date(p.metadata!.creationTimestamp!).getTime());
  const lastStart = Math.max(...pods.map((p, i) => created[i] + latencies[i]!));
  const v = startupVerdict(latencies as number[], lastStart - Math.min(...created));
  const nodes = [...new Set(pods.map(p => p.spec?.nodeName))].join(', ');
  const evidence: EvidenceItem[] = [
    `startup latencies (creation to containers running) on ${nodes}: ${pods.map((p, i) => `${p.metadata?.name} ${seconds(latencies[i]!)}`).join(', ')}`,
    `p50 ${seconds(v.p50Ms)}, p90 ${seconds(v.p90Ms)}, p99 ${seconds(v.p99Ms)}, batch ${seconds(v.batchMs)} (budgets ${seconds(STARTUP_BUDGET.p50Ms)}, ${seconds(STARTUP_BUDGET.p90Ms)}, ${seconds(STARTUP_BUDGET.p99Ms)}, ${seconds(STARTUP_BUDGET.batchMs)})`,
  ];
  return {
    works: v.over.length === 0,
    summary: v.over.length
      ? `startup of ${STARTUP_BUDGET.pods} Windows pods over upstream's budget: ${v.over.join('; ')}`
      : `${STARTUP_BUDGET.pods} Windows pods started within upstream's budgets: p50 ${seconds(v.p50Ms)}, p90 ${seconds(v.p90Ms)}, p99 ${seconds(v.p99Ms)}, batch ${seconds(v.batchMs)}`,
    evidence,
  };
}

// Not pinned: upstream's pods carry only the OS selector, so scheduling is part of the latency.
const fixtures: FixtureSpec[] = POD_NAMES.map(id => ({ id, template: 'windows-pause', os: 'windows', params: { selectorKey: 'kubernetes.io/os' } }));

export const features: Feature[] = [
  {
    id: 'work.startup-latency',
    area: 'workloads',
    title: 'A batch of 10 Windows pods starts within upstream density budgets (p50 30 s, p90 54 s, p99 59 s)',
    needs: ['windows-node'],
    fixtures,
    expect: () =>
      supported(
        `a batch of ${STARTUP_BUDGET.pods} pause pods on Windows starts with p50 <= 30 s, p90 <= 54 s, p99 <= 59 s and the whole batch within 10 minutes`,
        sources(cite.e2eTest('density.go', 'create a batch of pods latency/resource should be within limit when create 10 pods with 0s interval')),
      ),
    probe: startupLatencyProbe,
  },
];
