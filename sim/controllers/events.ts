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
