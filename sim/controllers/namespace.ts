// The namespace controller: a Terminating namespace has every namespaced object in it
// deleted; once the last one is gone (pods leave when their kubelet finishes them, so
// this waits on DELETED events, never a loop) the "kubernetes" finalizer is removed and
// the namespace disappears.

import type { V1Namespace } from '@kubernetes/client-node';
import { StoreError } from '../api/store.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { WorkQueue } from './workqueue.ts';

const NAMESPACES = 'namespaces';
export const NAMESPACE_FINALIZER = 'kubernetes';
// Events may still be written while a namespace terminates; they do not hold it open.
const NOT_WAITED_FOR = new Set(['events', 'events.events.k8s.io']);

export function startNamespaceController({ store }: ControllerContext): Stoppable {
  const terminating = new Set<string>();
  const queue = new WorkQueue('namespace-controller', ns => sync(ns));
  const sub = store.onAny(
    guarded('namespace-controller', (bucket, e) => {
      if (bucket === NAMESPACES) {
        if (e.type !== 'DELETED' && e.object.metadata.deletionTimestamp) {
          terminating.add(e.object.metadata.name!);
          queue.add(e.object.metadata.name!);
        }
        if (e.type === 'DELETED') terminating.delete(e.object.metadata.name!);
        return;
      }
      const ns = e.object.metadata.namespace;
      if (ns && terminating.has(ns)) queue.add(ns);
    }),
  );
  for (const n of store.list(NAMESPACES).items)
    if (n.metadata.deletionTimestamp) {
      terminating.add(n.metadata.name!);
      queue.add(n.metadata.name!);
    }

  function sync(name: string): void {
    const nsObj = store.tryGet(NAMESPACES, undefined, name) as unknown as V1Namespace | undefined;
    if (!nsObj?.metadata?.deletionTimestamp) return;
    let remaining = 0;
    for (const bucket of store.bucketNames()) {
      if (!store.isNamespaced(bucket) || NOT_WAITED_FOR.has(bucket)) continue;
      for (const o of store.list(bucket, { namespace: name }).items) {
        remaining++;
        if (!o.metadata.deletionTimestamp) tryDelete(bucket, name, o.metadata.name!);
        else if (bucket === 'pods' && !(o.spec as { nodeName?: string }).nodeName) tryDelete(bucket, name, o.metadata.name!, 0);
      }
    }
    if (remaining > 0) return; // the DELETED events of what is left bring us back here
    for (const bucket of NOT_WAITED_FOR)
      if (store.isNamespaced(bucket)) for (const o of store.list(bucket, { namespace: name }).items) tryDelete(bucket, name, o.metadata.name!);
    // The finalize subresource: without its last finalizer the store removes the namespace.
    store.mutate(
      NAMESPACES,
      undefined,
      name,
      o => {
        const spec = (o.spec ?? {}) as { finalizers?: string[] };
        spec.finalizers = (spec.finalizers ?? []).filter(f => f !== NAMESPACE_FINALIZER);
        o.spec = spec;
      },
      { skipAdmission: true },
    );
  }

  function tryDelete(bucket: string, ns: string, name: string, gracePeriodSeconds?: number): void {
    try {
      store.delete(bucket, ns, name, gracePeriodSeconds === undefined ? {} : { gracePeriodSeconds });
    } catch (err) {
      if (!(err instanceof StoreError && err.code === 404)) throw err;
    }
  }

  return {
    async stop() {
      sub.stop();
      await queue.stop();
    },
  };
}
