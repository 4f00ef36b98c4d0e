// Pod events as the kubelet records them (core/v1 Event, source kubelet/<node>), through the
// kubelet's own EventCorrelator (one broadcaster per kubelet upstream) and the same writer as
// sim/controllers/events.ts, plus the involvedObject.fieldPath (spec.containers{name}) the kubelet
// sets for container events.

import type { V1Pod } from '@kubernetes/client-node';
import type { Store } from '../api/store.ts';
import { writeCoreEvent } from '../controllers/events.ts';
import { EventCorrelator } from '../controllers/eventCorrelator.ts';

export type EventType = 'Normal' | 'Warning';

export class EventRecorder {
  private correlator: EventCorrelator;

  constructor(
    private store: Store,
    private node: string,
    clock?: () => number,
    /** Each event as the kubelet's log line (the node's kubelet.log). */
    private onRecord?: (line: string) => void,
  ) {
    this.correlator = new EventCorrelator(clock);
  }

  /** An event about the node itself (namespace default, as the kubelet's nodeRef events). */
  nodeEvent(type: EventType, reason: string, message: string): void {
    const node = this.store.tryGet('nodes', undefined, this.node);
    writeCoreEvent(
      this.store,
      this.correlator,
      'default',
      {
        involvedObject: { kind: 'Node', name: this.node, uid: this.node, apiVersion: 'v1' },
        type,
        reason,
        message,
        source: { component: 'kubelet', host: this.node },
      },
      node?.metadata.resourceVersion,
    );
    const q = (s: string) => JSON.stringify(s);
    this.onRecord?.(
      `"Event occurred" object=${q(this.node)} fieldPath="" kind="Node" apiVersion="v1" type=${q(type)} reason=${q(reason)} message=${q(message)}`,
    );
  }

  /** Records (or bumps the count of) an event about a pod, optionally about one of its containers. */
  pod(pod: V1Pod, type: EventType, reason: string, message: string, container?: string, init = false): void {
    const meta = pod.metadata!;
    writeCoreEvent(
      this.store,
      this.correlator,
      meta.namespace!,
      {
        involvedObject: {
          apiVersion: 'v1',
          kind: 'Pod',
          namespace: meta.namespace,
          name: meta.name,
          uid: meta.uid,
          ...(container ? { fieldPath: `spec.${init ? 'initContainers' : 'containers'}{${container}}` } : {}),
        },
        type,
        reason,
        message,
        source: { component: 'kubelet', host: this.node },
      },
      meta.resourceVersion,
    );
    // The kubelet logs every event it records at -v=3 (client-go record's StartStructuredLogging,
    // https://github.com/kubernetes/client-go/blob/master/tools/record/event.go), in klog's format.
    const q = (s: string) => JSON.stringify(s);
    this.onRecord?.(
      `"Event occurred" object=${q(`${meta.namespace}/${meta.name}`)} fieldPath=${q(container ? `spec.${init ? 'initContainers' : 'containers'}{${container}}` : '')} kind="Pod" apiVersion="v1" type=${q(type)} reason=${q(reason)} message=${q(message)}`,
    );
  }
}
