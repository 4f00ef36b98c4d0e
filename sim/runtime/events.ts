// Pod events as the kubelet records them (core/v1 Event, source kubelet/<node>).
// Same shape and folding as sim/controllers/events.ts (recordEvent), plus the
// involvedObject.fieldPath (spec.containers{name}) the kubelet sets for container
// events, which recordEvent does not take.

import { randomBytes } from 'node:crypto';
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import type { KubeObject, Store } from '../api/store.ts';

export type EventType = 'Normal' | 'Warning';

export class EventRecorder {
  /** Dedupe key -> event name, as client-go's recorder caches it. */
  private seen = new Map<string, string>();

  constructor(
    private store: Store,
    private node: string,
  ) {}

  /** Records (or bumps the count of) an event about a pod, optionally about one of its containers. */
  pod(pod: V1Pod, type: EventType, reason: string, message: string, container?: string, init = false): void {
    const ns = pod.metadata!.namespace!;
    const involved = {
      apiVersion: 'v1',
      kind: 'Pod',
      namespace: ns,
      name: pod.metadata!.name!,
      uid: pod.metadata!.uid,
      resourceVersion: pod.metadata!.resourceVersion,
      ...(container ? { fieldPath: `spec.${init ? 'initContainers' : 'containers'}{${container}}` } : {}),
    };
    const now = new Date().toISOString();
    try {
      const key = [involved.uid, involved.fieldPath ?? '', type, reason, message].join('\u0000');
      const same = this.seen.get(key);
      if (same && this.store.tryGet('events', ns, same)) {
        this.store.mutate(
          'events',
          ns,
          same,
          o => {
            const ev = o as unknown as CoreV1Event;
            ev.count = (ev.count ?? 1) + 1;
            ev.lastTimestamp = now as unknown as Date;
          },
          { skipAdmission: true },
        );
        return;
      }
      const ev: CoreV1Event = {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${pod.metadata!.name}.${randomBytes(8).toString('hex')}`, namespace: ns },
        involvedObject: involved,
        reason,
        message,
        type,
        source: { component: 'kubelet', host: this.node },
        firstTimestamp: now as unknown as Date,
        lastTimestamp: now as unknown as Date,
        count: 1,
        reportingComponent: 'kubelet',
        reportingInstance: this.node,
      };
      const created = this.store.create('events', ev as unknown as KubeObject, { skipAdmission: true });
      this.seen.set(key, created.metadata.name!);
    } catch {
      // The namespace may be going away; events are best effort, as in the real recorder.
    }
  }
}
