// HorizontalPodAutoscaler on a Windows Deployment: metrics-server's CPU metrics reach the HPA.

import { AutoscalingV2Api, type V2HorizontalPodAutoscaler } from '@kubernetes/client-node';
import { resilientConfiguration } from '../../cluster/resilience.ts';
import { watchUntil, WaitTimeoutError } from '../../cluster/watch.ts';
import { describeDeployment, waitForDeploymentComplete } from '../../cluster/workloadWait.ts';
import { notApplicable, supported } from '../expect.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { listAll } from '../../cluster/list.ts';
import { cite, sources } from '../../facts/sources.ts';

/** How long metrics-server may take to report a new pod (15-60 s scrapes), capped by the pod-start deadline. */
const HPA_METRICS_WAIT_MS = 3 * 60_000;
/**
 * The HPA controller's sync period (kube-controller-manager --horizontal-pod-autoscaler-sync-period,
 * 15 s by default): its first sync mostly comes before the pods run; the metrics come with the next.
 */
const HPA_SYNC_PERIOD_MS = 15_000;

async function hpaProbe(ctx: CheckContext): Promise<Observation> {
  const name = 'hpa';
  ctx.fixture(name);
  const evidence: EvidenceItem[] = [];
  ctx.step(`waiting for deployment ${name} to be ready`);
  try {
    const d = await waitForDeploymentComplete(ctx.kube, ctx.namespace, name, ctx.options.timeouts.rollout, ctx.signal, {
      unschedulableGraceMs: ctx.options.timeouts.podUnschedulable,
      controllerObserveMs: ctx.options.timeouts.controllerObserve,
    });
    evidence.push(`deployment ${name}: ${describeDeployment(d)}`);
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    throw new Error(`the deployment the HPA scales did not become ready, so metrics cannot be judged: ${e.message}`, { cause: e });
  }
  const pods = (await listAll(q => ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector: `app=${name}`, ...q }))).items;
  const autoscaling = new AutoscalingV2Api(resilientConfiguration(ctx.kube.kc, { signal: ctx.kube.signal, policy: ctx.kube.policy }));
  ctx.step(`waiting for HPA ${name} to report CPU metrics`);
  const describe = (h: V2HorizontalPodAutoscaler | undefined) => {
    if (!h) return 'hpa not seen';
    const conds = (h.status?.conditions ?? []).map(c => `${c.type}=${c.status} ${c.reason ?? ''}${c.message ? `: ${c.message}` : ''}`);
    return [`currentMetrics ${JSON.stringify(h.status?.currentMetrics ?? [])}`, ...conds].join('; ');
  };
  try {
    const hpa = await watchUntil<V2HorizontalPodAutoscaler, V2HorizontalPodAutoscaler>({
      kube: ctx.kube,
      path: `/apis/autoscaling/v2/namespaces/${ctx.namespace}/horizontalpodautoscalers`,
      fieldSelector: `metadata.name=${name}`,
      list: () => listAll(q => autoscaling.listNamespacedHorizontalPodAutoscaler({ namespace: ctx.namespace, fieldSelector: `metadata.name=${name}`, ...q })),
      check: h => (h.status?.currentMetrics?.some(m => m.resource?.name === 'cpu' && m.resource.current) ? h : undefined),
      what: `HPA ${ctx.namespace}/${name} to report CPU metrics`,
      describe,
      timeoutMs: Math.min(HPA_METRICS_WAIT_MS, ctx.options.timeouts.podStart),
      signal: ctx.signal,
    });
    evidence.push(`hpa ${name}: ${describe(hpa)}`);
    return { works: true, summary: `the HPA reads CPU metrics of the Windows pods`, evidence, node: pods[0]?.spec?.nodeName };
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    return { works: false, summary: e.message, evidence, node: pods[0]?.spec?.nodeName };
  }
}

export const features: Feature[] = [
  {
    id: 'work.hpa',
    area: 'workloads',
    title: 'HorizontalPodAutoscaler on a Windows Deployment reads metrics',
    needs: ['windows-node', 'metrics-server'],
    fixtures: [{ id: 'hpa', template: 'hpa', os: 'windows' }],
    designedWaitMs: () => HPA_SYNC_PERIOD_MS,
    expect: c =>
      c.metricsServer
        ? supported('metrics-server serves metrics.k8s.io, which includes Windows pods', sources(cite.intro(), cite.v19Guide('HPA not validated in v1.9')))
        : notApplicable('metrics.k8s.io is not served (no metrics-server): an HPA has nothing to read', [cite.intro()]),
    probe: hpaProbe,
  },
];
