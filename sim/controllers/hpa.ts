// The HorizontalPodAutoscaler controller (autoscaling/v2 semantics, also for v1 objects):
// reads the target's pods' usage from the metrics source, writes currentMetrics and the
// conditions kubectl describe shows, and rescales the target. No metrics (no
// metrics-server, or `breaks: hpa` for pods on Windows nodes) gives FailedGetResourceMetric.

import type { V2HorizontalPodAutoscaler, V2HorizontalPodAutoscalerCondition, V2MetricSpec, V2MetricStatus } from '@kubernetes/client-node';
import type { KubeObject } from '../api/store.ts';
import { matchesLabels, structuredToRequirements, type StructuredSelector } from '../api/selectors.ts';
import { isBroken } from '../profiles/load.ts';
import { formatCpu, formatMemory } from '../nodes/kubeletUnits.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { podRequests } from './fit.ts';
import { asPod, isPodActive, setCondition, stableJSON } from './objects.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

const HPAS = 'horizontalpodautoscalers.autoscaling';
const SOURCE = 'horizontal-pod-autoscaler';
const TOLERANCE = 0.1;
const TARGET_BUCKETS: Record<string, string> = { Deployment: 'deployments.apps', ReplicaSet: 'replicasets.apps', StatefulSet: 'statefulsets.apps' };

type Resource = 'cpu' | 'memory';
interface ResourceTarget {
  name: Resource;
  utilization?: number;
  averageValue?: number;
}

function targetsOf(hpa: V2HorizontalPodAutoscaler & { spec?: { targetCPUUtilizationPercentage?: number } }): ResourceTarget[] {
  const v1 = (hpa.spec as { targetCPUUtilizationPercentage?: number } | undefined)?.targetCPUUtilizationPercentage;
  const metrics: V2MetricSpec[] = hpa.spec?.metrics ?? [];
  if (!metrics.length) return [{ name: 'cpu', utilization: v1 ?? 80 }];
  return metrics
    .filter(m => m.type === 'Resource' && (m.resource?.name === 'cpu' || m.resource?.name === 'memory'))
    .map(m => ({
      name: m.resource!.name as Resource,
      utilization: m.resource!.target.averageUtilization,
      averageValue: m.resource!.target.averageValue !== undefined ? Number.parseFloat(String(m.resource!.target.averageValue)) : undefined,
    }));
}

export function startHpaController({ store, profile, options }: ControllerContext): Stoppable {
  const syncMs = (options.hpaSyncSeconds ?? 15) * 1000;
  const recommendations = new Map<string, { at: number; replicas: number }[]>();
  const queue = new WorkQueue('horizontal-pod-autoscaler', key => sync(key));
  const sub = store.onAny(
    guarded('horizontal-pod-autoscaler', (bucket, e, old) => {
      if (bucket !== HPAS) return;
      const key = keyOf(e.object.metadata.namespace, e.object.metadata.name!);
      if (e.type === 'DELETED') {
        recommendations.delete(key);
        return;
      }
      // Our own status writes do not need another sync; spec changes and new HPAs do.
      if (e.type === 'ADDED' || stableJSON(e.object.spec) !== stableJSON(old?.spec)) queue.add(key);
    }),
  );
  for (const h of store.list(HPAS).items) queue.add(keyOf(h.metadata.namespace, h.metadata.name!));

  async function usageOf(ns: string, pod: string, node: string | undefined): Promise<{ cpuCores: number; memoryBytes: number } | undefined> {
    if (!options.metrics || !profile.addons.metricsServer) return undefined;
    const nodeOS = node ? store.tryGet('nodes', undefined, node)?.metadata.labels?.['kubernetes.io/os'] : undefined;
    if (isBroken(profile, 'hpa', node) && nodeOS === 'windows') return undefined;
    return options.metrics(ns, pod);
  }

  async function sync(key: string): Promise<void> {
    const [ns, name] = splitKey(key);
    const obj = store.tryGet(HPAS, ns, name);
    if (!obj) return;
    queue.addAfter(key, syncMs);
    const hpa = obj as unknown as V2HorizontalPodAutoscaler;
    const ref = hpa.spec!.scaleTargetRef;
    const bucket = TARGET_BUCKETS[ref.kind];
    const target = bucket ? store.tryGet(bucket, ns, ref.name) : undefined;
    let conditions: V2HorizontalPodAutoscalerCondition[] = hpa.status?.conditions ?? [];
    if (!target) {
      const msg = `the HPA controller was unable to get the target's current scale: ${bucket ?? ref.kind} "${ref.name}" not found`;
      conditions = setCondition(conditions, { type: 'AbleToScale', status: 'False', reason: 'FailedGetScale', message: msg });
      recordEvent(store, obj, 'Warning', 'FailedGetScale', `${bucket ?? ref.kind} "${ref.name}" not found`, SOURCE);
      writeStatus(obj, { currentReplicas: 0, desiredReplicas: 0, conditions });
      return;
    }
    const spec = target.spec as { replicas?: number; selector?: StructuredSelector };
    const current = spec.replicas ?? 1;
    const selector = structuredToRequirements(spec.selector);
    const pods = store
      .list('pods', { namespace: ns })
      .items.map(asPod)
      .filter(p => isPodActive(p) && p.status?.phase === 'Running' && matchesLabels(selector, p.metadata?.labels));
    const currentMetrics: V2MetricStatus[] = [];
    let desired = 0;
    let failure: string | undefined;
    for (const t of targetsOf(hpa)) {
      let used = 0,
        requested = 0,
        sampled = 0,
        missingRequest = false;
      for (const p of pods) {
        const u = await usageOf(ns!, p.metadata!.name!, p.spec?.nodeName);
        if (!u) continue;
        sampled++;
        used += t.name === 'cpu' ? u.cpuCores : u.memoryBytes;
        const r = podRequests(p)[t.name];
        if (!r) missingRequest = true;
        requested += r;
      }
      if (!sampled) {
        failure ??= `failed to get ${t.name} utilization: unable to get metrics for resource ${t.name}: no metrics returned from resource metrics API`;
        continue;
      }
      const average = used / sampled;
      let ratio: number;
      const utilization = requested ? Math.round((used / requested) * 100) : 0;
      if (t.utilization !== undefined) {
        if (missingRequest) {
          failure ??= `failed to get ${t.name} utilization: missing request for ${t.name} in container of pod`;
          continue;
        }
        ratio = utilization / t.utilization;
      } else ratio = average / (t.averageValue || 1);
      currentMetrics.push({
        type: 'Resource',
        resource: {
          name: t.name,
          current: {
            ...(t.utilization !== undefined ? { averageUtilization: utilization } : {}),
            averageValue: t.name === 'cpu' ? formatCpu(average) : formatMemory(average),
          },
        },
      });
      desired = Math.max(desired, Math.abs(ratio - 1) <= TOLERANCE ? current : Math.ceil(sampled * ratio));
    }
    if (failure || !currentMetrics.length) {
      const msg = failure ?? 'no supported metrics (only cpu and memory Resource metrics are simulated)';
      conditions = setCondition(conditions, {
        type: 'AbleToScale',
        status: 'True',
        reason: 'SucceededGetScale',
        message: "the HPA controller was able to get the target's current scale",
      });
      conditions = setCondition(conditions, {
        type: 'ScalingActive',
        status: 'False',
        reason: 'FailedGetResourceMetric',
        message: `the HPA was unable to compute the replica count: ${msg}`,
      });
      recordEvent(store, obj, 'Warning', 'FailedGetResourceMetric', msg, SOURCE);
      recordEvent(
        store,
        obj,
        'Warning',
        'FailedComputeMetricsReplicas',
        `invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: ${msg}`,
        SOURCE,
      );
      writeStatus(obj, { currentReplicas: current, desiredReplicas: current, conditions, currentMetrics });
      return;
    }
    const min = hpa.spec!.minReplicas ?? 1,
      max = hpa.spec!.maxReplicas;
    // Scale-down stabilization: the highest recommendation of the window wins.
    const windowMs = (hpa.spec!.behavior?.scaleDown?.stabilizationWindowSeconds ?? 300) * 1000;
    const recs = (recommendations.get(key) ?? []).filter(r => r.at > Date.now() - windowMs);
    recs.push({ at: Date.now(), replicas: desired });
    recommendations.set(key, recs);
    let next = desired < current ? Math.min(current, Math.max(...recs.map(r => r.replicas))) : desired;
    let limited: V2HorizontalPodAutoscalerCondition = {
      type: 'ScalingLimited',
      status: 'False',
      reason: 'DesiredWithinRange',
      message: 'the desired count is within the acceptable range',
    };
    if (next > max) {
      next = max;
      limited = {
        type: 'ScalingLimited',
        status: 'True',
        reason: 'TooManyReplicas',
        message: 'the desired replica count is more than the maximum replica count',
      };
    }
    if (next < min) {
      next = min;
      limited = {
        type: 'ScalingLimited',
        status: 'True',
        reason: 'TooFewReplicas',
        message: 'the desired replica count is less than the minimum replica count',
      };
    }
    let lastScaleTime = hpa.status?.lastScaleTime;
    if (next !== current) {
      store.mutate(bucket, ns, ref.name, o => {
        (o.spec as { replicas?: number }).replicas = next;
      });
      lastScaleTime = new Date().toISOString() as unknown as Date;
      recordEvent(
        store,
        obj,
        'Normal',
        'SuccessfulRescale',
        `New size: ${next}; reason: ${currentMetrics[0].resource!.name} resource utilization (percentage of request) ${next > current ? 'above' : 'below'} target`,
        SOURCE,
      );
      conditions = setCondition(conditions, {
        type: 'AbleToScale',
        status: 'True',
        reason: 'SucceededRescale',
        message: `the HPA controller was able to update the target scale to ${next}`,
      });
    } else {
      conditions = setCondition(conditions, {
        type: 'AbleToScale',
        status: 'True',
        reason: 'ReadyForNewScale',
        message: 'recommended size matches current size',
      });
    }
    conditions = setCondition(conditions, {
      type: 'ScalingActive',
      status: 'True',
      reason: 'ValidMetricFound',
      message: `the HPA was able to successfully calculate a replica count from ${currentMetrics[0].resource!.name} resource utilization (percentage of request)`,
    });
    conditions = setCondition(conditions, limited);
    writeStatus(obj, { currentReplicas: current, desiredReplicas: next, conditions, currentMetrics, lastScaleTime });
  }

  function writeStatus(obj: KubeObject, status: NonNullable<V2HorizontalPodAutoscaler['status']>): void {
    const next: Record<string, unknown> = { ...status, observedGeneration: obj.metadata.generation ?? 1 };
    if (!status.currentMetrics?.length) delete next.currentMetrics;
    if (!status.lastScaleTime) delete next.lastScaleTime;
    // autoscaling/v1 clients read the single CPU figure.
    if (obj.apiVersion === 'autoscaling/v1') {
      const cpu = status.currentMetrics?.find(m => m.resource?.name === 'cpu')?.resource?.current.averageUtilization;
      if (cpu !== undefined) next.currentCPUUtilizationPercentage = cpu;
    }
    if (stableJSON(next) === stableJSON(obj.status ?? {})) return;
    store.mutate(
      HPAS,
      obj.metadata.namespace,
      obj.metadata.name!,
      o => {
        o.status = next;
      },
      { skipAdmission: true },
    );
  }

  return {
    async stop() {
      sub.stop();
      await queue.stop();
    },
  };
}
