// The namespace controller: a Terminating namespace has every namespaced object in it
// deleted; once the last one is gone (pods leave when their kubelet finishes them, so
// this waits on DELETED events, never a loop) the "kubernetes" finalizer is removed and
// the namespace disappears. Meanwhile the namespace's conditions say what holds it, as
// upstream's deleter writes them (NamespaceContentRemaining, NamespaceFinalizersRemaining,
// NamespaceDeletionDiscoveryFailure); an unavailable APIService (profile key
// unavailableAPIServices) fails discovery and so holds the namespace for good, as on real clusters.
// https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/namespace/deletion/namespaced_resources_deleter.go

import type { V1Namespace } from '@kubernetes/client-node';
import { StoreError } from '../api/store.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { WorkQueue } from './workqueue.ts';

const NAMESPACES = 'namespaces';
export const NAMESPACE_FINALIZER = 'kubernetes';
// Events may still be written while a namespace terminates; they do not hold it open.
const NOT_WAITED_FOR = new Set(['events', 'events.events.k8s.io']);

type Condition = { type: string; status: 'True' | 'False'; reason: string; message: string };

/** The deleter's conditions for what is left (bucket → instances, finalizer → instances) and the groups discovery could not read. */
export function namespaceConditions(remaining: Map<string, number>, finalizers: Map<string, number>, unavailable: string[]): Condition[] {
  // GroupResource.String(): "pods", "deployments.apps" (the sim's bucket names are the same).
  const list = (m: Map<string, number>, fmt: (k: string, n: number) => string) =>
    [...m.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => fmt(k, n))
      .join(', ');
  return [
    unavailable.length
      ? {
          type: 'NamespaceDeletionDiscoveryFailure',
          status: 'True',
          reason: 'DiscoveryFailed',
          message: `Discovery failed for some groups, ${unavailable.length} failing: unable to retrieve the complete list of server APIs: ${unavailable.map(g => `${g}: the server is currently unable to handle the request`).join(', ')}`,
        }
      : { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
    {
      type: 'NamespaceDeletionGroupVersionParsingFailure',
      status: 'False',
      reason: 'ParsedGroupVersions',
      message: 'All legacy kube types successfully parsed',
    },
    {
      type: 'NamespaceDeletionContentFailure',
      status: 'False',
      reason: 'ContentDeleted',
      message: 'All content successfully deleted, may be waiting on finalization',
    },
    remaining.size
      ? {
          type: 'NamespaceContentRemaining',
          status: 'True',
          reason: 'SomeResourcesRemain',
          message: `Some resources are remaining: ${list(remaining, (k, n) => `${k} has ${n} resource instances`)}`,
        }
      : { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
    finalizers.size
      ? {
          type: 'NamespaceFinalizersRemaining',
          status: 'True',
          reason: 'SomeFinalizersRemain',
          message: `Some content in the namespace has finalizers remaining: ${list(finalizers, (k, n) => `${k} in ${n} resource instances`)}`,
        }
      : { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
  ];
}

export function startNamespaceController({ store, profile }: ControllerContext): Stoppable {
  const unavailable = profile.unavailableAPIServices ?? [];
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
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const bucket of store.bucketNames()) {
      if (!store.isNamespaced(bucket) || NOT_WAITED_FOR.has(bucket)) continue;
      for (const o of store.list(bucket, { namespace: name }).items) {
        if (!o.metadata.deletionTimestamp) tryDelete(bucket, name, o.metadata.name!);
        else if (bucket === 'pods' && !(o.spec as { nodeName?: string }).nodeName) tryDelete(bucket, name, o.metadata.name!, 0);
      }
      // What the deletes left (graceful pods, finalizers) is what holds the namespace.
      for (const o of store.list(bucket, { namespace: name }).items) {
        remaining.set(bucket, (remaining.get(bucket) ?? 0) + 1);
        for (const f of o.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
      }
    }
    setConditions(name, namespaceConditions(remaining, finalizers, unavailable));
    // The DELETED events of what is left bring us back here; a failed discovery never lets go.
    if (remaining.size > 0 || unavailable.length > 0) return;
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

  /** Writes the conditions when they changed (a write of the namespace queues it again). */
  function setConditions(name: string, conditions: Condition[]): void {
    const cur = store.tryGet(NAMESPACES, undefined, name) as unknown as V1Namespace | undefined;
    const same =
      (cur?.status?.conditions ?? []).map(c => `${c.type}|${c.status}|${c.message}`).join('\n') ===
      conditions.map(c => `${c.type}|${c.status}|${c.message}`).join('\n');
    if (!cur || same) return;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    store.mutate(
      NAMESPACES,
      undefined,
      name,
      o => {
        const status = (o.status ?? {}) as { conditions?: unknown[] };
        status.conditions = conditions.map(c => ({ ...c, lastTransitionTime: now }));
        o.status = status;
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
