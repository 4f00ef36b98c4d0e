// res.kubelet-resource-metrics: upstream's "Kubelet metrics on Windows node validates
// /metrics/resource" (test/e2e/windows/metrics.go): two pods on a Windows node, and the kubelet's
// resource metrics endpoint has pod_memory_working_set_bytes above zero for each. We also ask for
// the container working set and CPU counters, which the same collector writes from the same stats.

import { NODE_SUMMARY_ACCESS } from '../access.ts';
import { supported } from '../expect.ts';
import { readyPods } from '../kit/podWaits.ts';
import { MeansError, refusalMeans } from '../../cluster/meansError.ts';
import { rawGet } from '../../cluster/rawGet.ts';
import { parsePrometheusText, type Sample } from '../../probes/readers/prometheus.ts';
import { cite, sources } from '../../facts/sources.ts';
import { statsLoadFixture } from './statsUnderLoad.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

const PODS = ['stats-load-0', 'stats-load-1'];
/** Per pod: the metric and the labels it must carry (container metrics by the pod's container). */
const WANTED = [
  { metric: 'pod_memory_working_set_bytes', container: false },
  { metric: 'container_memory_working_set_bytes', container: true },
  { metric: 'container_cpu_usage_seconds_total', container: true },
] as const;

/** What the metrics lack for the pods of `namespace` (empty when nothing). */
export function resourceMetricsProblems(families: Map<string, Sample[]>, namespace: string, pods: readonly string[]): string[] {
  const problems: string[] = [];
  for (const pod of pods) {
    for (const w of WANTED) {
      const s = (families.get(w.metric) ?? []).filter(x => x.labels.namespace === namespace && x.labels.pod === pod && (!w.container || x.labels.container));
      // CPU is a counter that may still be 0 for a pod that only just started; memory must be > 0.
      const ok = w.metric.endsWith('_seconds_total') ? s.length > 0 : s.some(x => x.value > 0);
      if (!ok) problems.push(`${w.metric} for pod ${pod}: ${s.length ? s.map(x => x.value).join(', ') : 'absent'}`);
    }
  }
  return problems;
}

async function resourceMetricsProbe(ctx: CheckContext): Promise<Observation> {
  for (const name of PODS) ctx.fixture(name);
  const ready = await readyPods(ctx, PODS);
  if (!ready.ok) return ready.observation;
  const node = ready.pods[PODS[0]].spec!.nodeName!;
  const path = `/api/v1/nodes/${encodeURIComponent(node)}/proxy/metrics/resource`;
  ctx.step(`GET ${path}`);
  const r = await rawGet(ctx.kube, path, { requestTimeoutMs: 30_000 });
  if (r.status !== 200) {
    const means = refusalMeans(r.status, r.body);
    if (means) throw new MeansError(means, `GET ${path}: HTTP ${r.status}: ${r.body.slice(0, 200)}`);
    return {
      works: false,
      summary: `${node} does not serve /metrics/resource (HTTP ${r.status})`,
      evidence: [`GET ${path}: HTTP ${r.status}: ${r.body.slice(0, 200)}`],
      node,
    };
  }
  const families = parsePrometheusText(r.body);
  const problems = resourceMetricsProblems(families, ctx.namespace, PODS);
  const ours = (families.get('pod_memory_working_set_bytes') ?? []).filter(s => s.labels.namespace === ctx.namespace);
  const evidence: EvidenceItem[] = [
    `GET ${path}: ${families.size} metric families (${[...families.keys()].join(', ')})`,
    `pod_memory_working_set_bytes of ${ctx.namespace}: ${ours.map(s => `${s.labels.pod}=${s.value}`).join(', ') || 'none'}`,
  ];
  return problems.length
    ? { works: false, summary: `${node}'s /metrics/resource lacks ${problems.join('; ')}`, evidence, node }
    : { works: true, summary: `${node}'s /metrics/resource has the working set and CPU of ${PODS.join(' and ')} and their containers`, evidence, node };
}

export const features: Feature[] = [
  {
    id: 'res.kubelet-resource-metrics',
    area: 'resources',
    title: "The Windows kubelet's /metrics/resource has pod and container working set and CPU",
    access: NODE_SUMMARY_ACCESS,
    needs: ['windows-node'],
    fixtures: PODS.map(statsLoadFixture),
    expect: () =>
      supported(
        "the Windows kubelet's resource metrics endpoint serves pod_memory_working_set_bytes for its pods (from CRI stats)",
        sources(cite.e2eTest('metrics.go', 'Kubelet metrics on Windows node validates /metrics/resource'), cite.intro()),
      ),
    probe: resourceMetricsProbe,
  },
];
