// Storage object in-use protection: the admission plugin adds kubernetes.io/pvc-protection to
// every new claim, and the pvc-protection controller removes it once the claim is being deleted
// and no pod that is not finished uses it. So a claim (and a namespace holding one) stays while a
// pod still mounts it, as on real clusters.
// https://kubernetes.io/docs/concepts/storage/persistent-volumes/#storage-object-in-use-protection

import type { V1Pod } from '@kubernetes/client-node';
import { StoreError, type Admission, type KubeObject } from '../api/store.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { WorkQueue } from './workqueue.ts';

export const PVC_PROTECTION = 'kubernetes.io/pvc-protection';
const CLAIMS = 'persistentvolumeclaims';

export function pvcProtectionAdmission(): Admission {
  return (bucket, op, obj) => {
    if (bucket !== CLAIMS || op !== 'create') return obj;
    const f = obj.metadata.finalizers ?? [];
    if (!f.includes(PVC_PROTECTION)) obj.metadata.finalizers = [...f, PVC_PROTECTION];
    return obj;
  };
}

/** A pod that is not Succeeded or Failed and mounts the claim keeps it. */
function inUse(pods: KubeObject[], claim: string): boolean {
  return pods.some(o => {
    const p = o as unknown as V1Pod;
    const done = p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';
    return !done && (p.spec?.volumes ?? []).some(v => v.persistentVolumeClaim?.claimName === claim);
  });
}

export function startPvcProtectionController({ store }: ControllerContext): Stoppable {
  const queue = new WorkQueue('pvc-protection', key => sync(key));
  const sub = store.onAny(
    guarded('pvc-protection', (bucket, e) => {
      const ns = e.object.metadata.namespace;
      if (!ns) return;
      if (bucket === CLAIMS && e.type !== 'DELETED' && e.object.metadata.deletionTimestamp) queue.add(`${ns}/${e.object.metadata.name}`);
      // A pod going (or finishing) may free the claims it used.
      if (bucket === 'pods')
        for (const v of ((e.object as unknown as V1Pod).spec?.volumes ?? []).filter(v => v.persistentVolumeClaim))
          queue.add(`${ns}/${v.persistentVolumeClaim!.claimName}`);
    }),
    [CLAIMS, 'pods'],
  );

  function sync(key: string): void {
    const [ns, name] = key.split('/');
    const pvc = store.tryGet(CLAIMS, ns, name);
    if (!pvc?.metadata.deletionTimestamp || !pvc.metadata.finalizers?.includes(PVC_PROTECTION)) return;
    if (inUse(store.list('pods', { namespace: ns }).items, name)) return;
    try {
      store.mutate(
        CLAIMS,
        ns,
        name,
        o => {
          o.metadata.finalizers = (o.metadata.finalizers ?? []).filter(f => f !== PVC_PROTECTION);
        },
        { skipAdmission: true },
      );
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
