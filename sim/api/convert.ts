// Version conversion between what a URL serves and what the store keeps: one bucket
// per group/resource, so core/v1 and events.k8s.io/v1 Events share the "events"
// bucket (stored in core form), and autoscaling v1/v2 HPAs share one bucket (v2 form).
// Stored objects are recognised by their apiVersion, so in-process writers may use either.

import type { KubeObject } from './store.ts';
import { apiVersionOf, bucketOf, type ResourceType } from './resources.ts';

type Obj = Record<string, unknown>;

/** The store bucket a resource type is kept in. */
export function storageBucket(rt: ResourceType): string {
  if (rt.group === 'events.k8s.io' && rt.resource === 'events') return 'events';
  return bucketOf(rt);
}

/** Stored object → the form the route serves (apiVersion and kind set). */
export function toExternal(rt: ResourceType, stored: KubeObject): KubeObject {
  let o: KubeObject = stored;
  const want = apiVersionOf(rt);
  if (rt.resource === 'events') o = rt.group === 'events.k8s.io' ? coreToEventsV1(o) : eventsV1ToCore(o);
  else if (rt.resource === 'horizontalpodautoscalers') o = want === 'autoscaling/v1' ? hpaV2ToV1(o) : hpaV1ToV2(o);
  o.apiVersion = want;
  o.kind = rt.kind;
  return o;
}

/** A request body → the form the store keeps. */
export function toStorage(rt: ResourceType, ext: KubeObject): KubeObject {
  let o: KubeObject = { ...ext, apiVersion: apiVersionOf(rt), kind: rt.kind };
  if (rt.resource === 'events') o = eventsV1ToCore(o);
  else if (rt.resource === 'horizontalpodautoscalers') o = hpaV1ToV2(o);
  return o;
}

function coreToEventsV1(o: KubeObject): KubeObject {
  if (o.apiVersion === 'events.k8s.io/v1') return o;
  const e = o as Obj;
  const out: Obj = { metadata: o.metadata };
  const copy = (from: string, to: string) => {
    if (e[from] !== undefined && e[from] !== null) out[to] = e[from];
  };
  copy('involvedObject', 'regarding');
  copy('message', 'note');
  copy('type', 'type');
  copy('reason', 'reason');
  copy('action', 'action');
  copy('related', 'related');
  copy('series', 'series');
  copy('eventTime', 'eventTime');
  copy('source', 'deprecatedSource');
  copy('firstTimestamp', 'deprecatedFirstTimestamp');
  copy('lastTimestamp', 'deprecatedLastTimestamp');
  copy('count', 'deprecatedCount');
  const src = (e.source ?? {}) as { component?: string; host?: string };
  const rc = (e.reportingComponent as string | undefined) || src.component;
  const ri = (e.reportingInstance as string | undefined) || src.host;
  if (rc) out.reportingController = rc;
  if (ri) out.reportingInstance = ri;
  return { apiVersion: 'events.k8s.io/v1', kind: 'Event', ...out } as KubeObject;
}

function eventsV1ToCore(o: KubeObject): KubeObject {
  if (o.apiVersion !== 'events.k8s.io/v1') return o;
  const e = o as Obj;
  const out: Obj = { metadata: o.metadata };
  const copy = (from: string, to: string) => {
    if (e[from] !== undefined && e[from] !== null) out[to] = e[from];
  };
  copy('regarding', 'involvedObject');
  copy('note', 'message');
  copy('type', 'type');
  copy('reason', 'reason');
  copy('action', 'action');
  copy('related', 'related');
  copy('series', 'series');
  copy('eventTime', 'eventTime');
  copy('deprecatedSource', 'source');
  copy('deprecatedFirstTimestamp', 'firstTimestamp');
  copy('deprecatedLastTimestamp', 'lastTimestamp');
  copy('deprecatedCount', 'count');
  copy('reportingController', 'reportingComponent');
  copy('reportingInstance', 'reportingInstance');
  if (!out.involvedObject) out.involvedObject = {};
  return { apiVersion: 'v1', kind: 'Event', ...out } as KubeObject;
}

interface MetricV2 {
  type?: string;
  resource?: { name?: string; target?: { type?: string; averageUtilization?: number }; current?: { averageUtilization?: number } };
}

function hpaV1ToV2(o: KubeObject): KubeObject {
  if (o.apiVersion !== 'autoscaling/v1') return o;
  const spec = { ...(o.spec as Obj | undefined) };
  const status = { ...(o.status as Obj | undefined) };
  const cpu = spec.targetCPUUtilizationPercentage as number | undefined;
  delete spec.targetCPUUtilizationPercentage;
  if (cpu !== undefined) spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: cpu } } }];
  const cur = status.currentCPUUtilizationPercentage as number | undefined;
  delete status.currentCPUUtilizationPercentage;
  if (cur !== undefined) status.currentMetrics = [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: cur } } }];
  const out: KubeObject = { ...o, apiVersion: 'autoscaling/v2', spec };
  if (o.status) out.status = status;
  return out;
}

function hpaV2ToV1(o: KubeObject): KubeObject {
  if (o.apiVersion === 'autoscaling/v1') return o;
  const spec = { ...(o.spec as Obj | undefined) };
  const status = { ...(o.status as Obj | undefined) };
  const cpuOf = (ms: unknown) => (Array.isArray(ms) ? (ms as MetricV2[]).find(m => m.type === 'Resource' && m.resource?.name === 'cpu') : undefined);
  const t = cpuOf(spec.metrics)?.resource?.target?.averageUtilization;
  delete spec.metrics;
  delete spec.behavior;
  if (t !== undefined) spec.targetCPUUtilizationPercentage = t;
  const c = cpuOf(status.currentMetrics)?.resource?.current?.averageUtilization;
  delete status.currentMetrics;
  delete status.conditions;
  if (c !== undefined) status.currentCPUUtilizationPercentage = c;
  const out: KubeObject = { ...o, apiVersion: 'autoscaling/v1', spec };
  if (o.status) out.status = status;
  return out;
}
