// The core/v1 Event recorder every sim component uses. Like client-go's recorder it
// folds repeats of the same event (same object, type, reason, message, source) into one
// Event whose count and lastTimestamp grow.

import { randomBytes } from 'node:crypto';
import type { CoreV1Event } from '@kubernetes/client-node';
import { StoreError, type KubeObject, type Store } from '../api/store.ts';

export type EventType = 'Normal' | 'Warning';
export type EventSource = string | { component: string; host?: string };

const EVENTS = 'events';
const seen = new WeakMap<Store, Map<string, string>>();

export function recordEvent(
  store: Store,
  involved: KubeObject,
  type: EventType,
  reason: string,
  message: string,
  source: EventSource = 'sim',
): KubeObject | undefined {
  const src = typeof source === 'string' ? { component: source } : source;
  const meta = involved.metadata;
  // Events about cluster-scoped objects (nodes) live in "default", as the real recorder does.
  const namespace = meta.namespace ?? 'default';
  const now = new Date().toISOString() as unknown as Date;
  const dedupe = [meta.uid, meta.name, type, reason, message, src.component, src.host ?? ''].join('\u0000');
  let byKey = seen.get(store);
  if (!byKey) seen.set(store, (byKey = new Map()));
  try {
    const existing = byKey.get(dedupe);
    if (existing && store.tryGet(EVENTS, namespace, existing)) {
      return store.mutate(
        EVENTS,
        namespace,
        existing,
        o => {
          const ev = o as unknown as CoreV1Event;
          ev.count = (ev.count ?? 1) + 1;
          ev.lastTimestamp = now;
        },
        { skipAdmission: true },
      );
    }
    const ev: CoreV1Event = {
      ...eventHead(involved, namespace),
      type,
      reason,
      message,
      source: src,
      count: 1,
      firstTimestamp: now,
      lastTimestamp: now,
      reportingComponent: src.component,
      reportingInstance: src.host ?? '',
    };
    const created = store.create(EVENTS, ev as unknown as KubeObject, { skipAdmission: true });
    byKey.set(dedupe, created.metadata.name!);
    return created;
  } catch (err) {
    // The namespace may be gone already; an event is never worth failing the caller.
    if (!(err instanceof StoreError)) console.error('sim: recording an event failed:', err);
    return undefined;
  }
}

/** An RFC 3339 time with microseconds, as events.k8s.io's MicroTime is written. */
/** What both event APIs' objects open with: a unique name beside the object, and the object itself. */
function eventHead(involved: KubeObject, namespace: string) {
  const meta = involved.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${meta.name}.${randomBytes(8).toString('hex')}`, namespace },
    involvedObject: {
      apiVersion: involved.apiVersion,
      kind: involved.kind,
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
    },
  };
}

function microTimeNow(): string {
  const d = new Date();
  return `${d.toISOString().slice(0, 19)}.${String(d.getUTCMilliseconds() * 1000).padStart(6, '0')}Z`;
}

/**
 * An event as the events.k8s.io recorder (client-go tools/events, which kube-scheduler uses)
 * writes it: eventTime (MicroTime), reportingController/Instance and action; no firstTimestamp,
 * lastTimestamp, count or source, which only the deprecated* fields would carry
 * (https://github.com/kubernetes/client-go/blob/master/tools/events/event_recorder.go). Read
 * through core/v1 it has eventTime and no lastTimestamp, as upstream's conversion gives.
 */
export function recordEventV1(
  store: Store,
  involved: KubeObject,
  type: EventType,
  reason: string,
  action: string,
  note: string,
  controller: string,
  instance = `${controller}-sim`,
): KubeObject | undefined {
  const meta = involved.metadata;
  const namespace = meta.namespace ?? 'default';
  // A repeat becomes a series on the first event (count from 2, lastObservedTime), as the
  // events.k8s.io recorder's EventSeries does, instead of a new Event each time.
  const dedupe = ['v1', meta.uid, meta.name, type, reason, action, note, controller].join('\u0000');
  let byKey = seen.get(store);
  if (!byKey) seen.set(store, (byKey = new Map()));
  const existing = byKey.get(dedupe);
  if (existing && store.tryGet(EVENTS, namespace, existing)) {
    try {
      return store.mutate(
        EVENTS,
        namespace,
        existing,
        o => {
          const e = o as unknown as { series?: { count: number; lastObservedTime: string } };
          e.series = { count: (e.series?.count ?? 1) + 1, lastObservedTime: microTimeNow() };
        },
        { skipAdmission: true },
      );
    } catch (err) {
      if (!(err instanceof StoreError)) console.error('sim: recording an event failed:', err);
      return undefined;
    }
  }
  const ev = {
    ...eventHead(involved, namespace),
    type,
    reason,
    action,
    message: note,
    eventTime: microTimeNow(),
    reportingComponent: controller,
    reportingInstance: instance,
    source: {},
  };
  try {
    const created = store.create(EVENTS, ev as unknown as KubeObject, { skipAdmission: true });
    byKey.set(dedupe, created.metadata.name!);
    return created;
  } catch (err) {
    if (!(err instanceof StoreError)) console.error('sim: recording an event failed:', err);
    return undefined;
  }
}
