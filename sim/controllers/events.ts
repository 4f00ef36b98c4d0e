// The core/v1 Event recorder every sim component uses. Like client-go's recorder it runs each
// event through an EventCorrelator (./eventCorrelator.ts): repeats fold into one Event whose count
// and lastTimestamp grow, similar ones are combined, and a source's budget per object is bounded.

import { randomBytes } from 'node:crypto';
import type { CoreV1Event } from '@kubernetes/client-node';
import { StoreError, type KubeObject, type Store } from '../api/store.ts';
import { EventCorrelator, type EventDraft, type EventReference } from './eventCorrelator.ts';

export type EventType = 'Normal' | 'Warning';
export type EventSource = string | { component: string; host?: string };

const EVENTS = 'events';
const seen = new WeakMap<Store, Map<string, string>>();
/** One correlator per recorder: each component (and host) has its own broadcaster upstream. */
const correlators = new WeakMap<Store, Map<string, EventCorrelator>>();

function correlatorOf(store: Store, src: { component: string; host?: string }): EventCorrelator {
  let bySource = correlators.get(store);
  if (!bySource) correlators.set(store, (bySource = new Map()));
  const key = `${src.component}\u0000${src.host ?? ''}`;
  let c = bySource.get(key);
  if (!c) bySource.set(key, (c = new EventCorrelator()));
  return c;
}

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
  const draft: EventDraft = {
    involvedObject: referenceTo(involved),
    type,
    reason,
    message,
    source: src,
  };
  return writeCoreEvent(store, correlatorOf(store, src), namespace, draft, meta.resourceVersion);
}

/**
 * Writes one core/v1 Event as client-go's recordToSink does after correlation: a count above 1
 * patches the Event of that name (count, lastTimestamp, message); one that is gone (its hour-long
 * TTL ran out) is created again under the same name, count and firstTimestamp.
 */
export function writeCoreEvent(store: Store, correlator: EventCorrelator, namespace: string, draft: EventDraft, involvedRV?: string): KubeObject | undefined {
  const c = correlator.correlate(draft);
  if (c.skip) return undefined;
  const now = new Date().toISOString() as unknown as Date;
  try {
    if (c.count > 1 && store.tryGet(EVENTS, namespace, c.name)) {
      return store.mutate(
        EVENTS,
        namespace,
        c.name,
        o => {
          const ev = o as unknown as CoreV1Event;
          ev.count = c.count;
          ev.lastTimestamp = now;
          ev.message = c.message;
        },
        { skipAdmission: true },
      );
    }
    const ev: CoreV1Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: c.name, namespace },
      involvedObject: { ...draft.involvedObject, ...(involvedRV ? { resourceVersion: involvedRV } : {}) },
      type: draft.type,
      reason: draft.reason,
      message: c.message,
      source: draft.source,
      count: c.count,
      firstTimestamp: new Date(c.firstTimestamp).toISOString() as unknown as Date,
      lastTimestamp: now,
      reportingComponent: draft.source.component,
      reportingInstance: draft.source.host ?? '',
    };
    return store.create(EVENTS, ev as unknown as KubeObject, { skipAdmission: true });
  } catch (err) {
    // The namespace may be gone already; an event is never worth failing the caller.
    if (!(err instanceof StoreError)) console.error('sim: recording an event failed:', err);
    return undefined;
  }
}

/** What both event APIs' objects open with: a unique name beside the object, and the object itself. */
function eventHead(involved: KubeObject, namespace: string) {
  const meta = involved.metadata;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${meta.name}.${randomBytes(8).toString('hex')}`, namespace },
    involvedObject: { ...referenceTo(involved), resourceVersion: meta.resourceVersion },
  };
}

/** The involvedObject of an event about `o`. */
function referenceTo(o: KubeObject): EventReference {
  return { apiVersion: o.apiVersion, kind: o.kind, name: o.metadata.name, namespace: o.metadata.namespace, uid: o.metadata.uid };
}

/** An RFC 3339 time with microseconds, as events.k8s.io's MicroTime is written. */
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
