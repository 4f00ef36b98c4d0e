// The garbage collector: an object whose owners (ownerReferences) are all gone is
// deleted (background propagation); dangling references next to a live owner are
// dropped. Owners deleted with the foregroundDeletion finalizer wait for their
// dependents; the orphan finalizer strips the references instead.

import { StoreError, type KubeObject, type Store } from '../api/store.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { WorkQueue } from './workqueue.ts';

const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';

interface Ref {
  bucket: string;
  namespace?: string;
  name: string;
}
const refKey = (r: Ref) => `${r.bucket}\u0000${r.namespace ?? ''}\u0000${r.name}`;
function parseRef(k: string): Ref {
  const [bucket, ns, name] = k.split('\u0000');
  return { bucket, namespace: ns || undefined, name };
}

export function startGarbageCollector({ store }: ControllerContext): Stoppable {
  const live = new Map<string, Ref>(); // uid -> where the object is
  const dependents = new Map<string, Set<string>>(); // owner uid -> dependent ref keys
  const ownersOf = new Map<string, string[]>(); // dependent ref key -> owner uids

  const queue = new WorkQueue('garbage-collector', k => (k.startsWith('owner:') ? syncOwner(k.slice(6)) : syncDependent(parseRef(k))));

  function index(bucket: string, o: KubeObject, gone: boolean): void {
    const ref: Ref = { bucket, namespace: o.metadata.namespace, name: o.metadata.name! };
    const key = refKey(ref);
    for (const uid of ownersOf.get(key) ?? []) dependents.get(uid)?.delete(key);
    ownersOf.delete(key);
    if (gone) {
      live.delete(o.metadata.uid!);
      return;
    }
    live.set(o.metadata.uid!, ref);
    const owners = (o.metadata.ownerReferences ?? []).map(r => r.uid);
    if (!owners.length) return;
    ownersOf.set(key, owners);
    for (const uid of owners) {
      let s = dependents.get(uid);
      if (!s) dependents.set(uid, (s = new Set()));
      s.add(key);
    }
  }

  const sub = store.onAny(
    guarded('garbage-collector', (bucket, e) => {
      const o = e.object;
      // A dependent going away may be what a foreground-deleting owner waits for.
      if (e.type === 'DELETED')
        for (const uid of ownersOf.get(refKey({ bucket, namespace: o.metadata.namespace, name: o.metadata.name! })) ?? []) queue.add(`owner:${uid}`);
      index(bucket, o, e.type === 'DELETED');
      if (e.type === 'DELETED') {
        for (const d of dependents.get(o.metadata.uid!) ?? []) queue.add(d);
        return;
      }
      if (o.metadata.ownerReferences?.some(r => !live.has(r.uid))) queue.add(refKey({ bucket, namespace: o.metadata.namespace, name: o.metadata.name! }));
      const fin = o.metadata.finalizers ?? [];
      if (o.metadata.deletionTimestamp && (fin.includes(FOREGROUND) || fin.includes(ORPHAN))) queue.add(`owner:${o.metadata.uid}`);
    }),
  );
  for (const bucket of store.bucketNames()) for (const o of store.list(bucket).items) index(bucket, o, false);
  for (const [key, owners] of ownersOf) if (owners.some(uid => !live.has(uid))) queue.add(key);

  function syncDependent(ref: Ref): void {
    const o = store.tryGet(ref.bucket, ref.namespace, ref.name);
    if (!o || !o.metadata.ownerReferences?.length) return;
    const alive = o.metadata.ownerReferences.filter(r => live.has(r.uid));
    if (alive.length === o.metadata.ownerReferences.length) return;
    if (!alive.length) {
      if (!o.metadata.deletionTimestamp) tryDelete(store, ref);
      return;
    }
    store.mutate(
      ref.bucket,
      ref.namespace,
      ref.name,
      x => {
        x.metadata.ownerReferences = x.metadata.ownerReferences?.filter(r => live.has(r.uid));
      },
      { skipAdmission: true },
    );
  }

  function syncOwner(uid: string): void {
    const ref = live.get(uid);
    const owner = ref && store.tryGet(ref.bucket, ref.namespace, ref.name);
    if (!ref || !owner?.metadata.deletionTimestamp) return;
    const fin = owner.metadata.finalizers ?? [];
    const deps = [...(dependents.get(uid) ?? [])].map(parseRef);
    if (fin.includes(ORPHAN)) {
      for (const d of deps) {
        if (!store.tryGet(d.bucket, d.namespace, d.name)) continue;
        store.mutate(
          d.bucket,
          d.namespace,
          d.name,
          x => {
            x.metadata.ownerReferences = x.metadata.ownerReferences?.filter(r => r.uid !== uid);
            if (!x.metadata.ownerReferences?.length) delete x.metadata.ownerReferences;
          },
          { skipAdmission: true },
        );
      }
      removeFinalizer(ref, ORPHAN);
      return;
    }
    if (fin.includes(FOREGROUND)) {
      const left = deps.filter(d => store.tryGet(d.bucket, d.namespace, d.name));
      for (const d of left) tryDelete(store, d);
      if (!left.length) removeFinalizer(ref, FOREGROUND);
    }
  }

  function removeFinalizer(ref: Ref, name: string): void {
    store.mutate(
      ref.bucket,
      ref.namespace,
      ref.name,
      x => {
        x.metadata.finalizers = x.metadata.finalizers?.filter(f => f !== name);
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

function tryDelete(store: Store, ref: Ref): void {
  try {
    store.delete(ref.bucket, ref.namespace, ref.name);
  } catch (err) {
    if (!(err instanceof StoreError && err.code === 404)) throw err;
  }
}
