// Volume expansion, controller side (the CSI external-resizer): a Bound claim whose request
// grew past its capacity, on a class with allowVolumeExpansion, gets its PV grown and the
// condition FileSystemResizePending. The file system is grown by the kubelet of the node
// that mounts the claim (sim/runtime/podWorker.ts expandVolumes), which then sets the
// claim's status.capacity; on Windows that step is the documented limitation
// (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) stor.resize: expanding a mounted volume), so the condition stays.
// Shrinking is rejected by the API server in a real cluster; here it is simply ignored.

import type { V1PersistentVolume, V1PersistentVolumeClaim, V1StorageClass } from '@kubernetes/client-node';
import { parseQuantity } from '../../util/quantity.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { STORAGE_CLASSES } from './volumeProvisioner.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

const PVCS = 'persistentvolumeclaims';
const PVS = 'persistentvolumes';
const SOURCE = 'external-resizer';

/** The condition the kubelet clears once it has grown the file system (k8s PVC condition types). */
export const FS_RESIZE_PENDING = 'FileSystemResizePending';

export function startVolumeResizer({ store }: ControllerContext): Stoppable {
  const queue = new WorkQueue('volume-resizer', sync);
  const sub = store.onAny(
    guarded('volume-resizer', (bucket, e) => {
      if (bucket !== PVCS || e.type === 'DELETED') return;
      queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name!));
    }),
  );
  for (const p of store.list(PVCS).items) queue.add(keyOf(p.metadata.namespace, p.metadata.name!));

  function sync(key: string): void {
    const [ns, name] = splitKey(key);
    const obj = store.tryGet(PVCS, ns, name);
    const pvc = obj as unknown as V1PersistentVolumeClaim | undefined;
    if (!obj || !pvc || obj.metadata.deletionTimestamp || pvc.status?.phase !== 'Bound' || !pvc.spec?.volumeName) return;
    const want = pvc.spec.resources?.requests?.storage;
    const wantBytes = parseQuantity(want) ?? 0;
    if (!want || !(wantBytes > (parseQuantity(pvc.status.capacity?.storage) ?? 0))) return;
    const pvName = pvc.spec.volumeName;
    const pv = store.tryGet(PVS, undefined, pvName) as unknown as V1PersistentVolume | undefined;
    if (!pv) return;
    // Already grown and waiting for the node: nothing to do.
    if ((parseQuantity(pv.spec?.capacity?.storage) ?? 0) >= wantBytes && pvc.status.conditions?.some(c => c.type === FS_RESIZE_PENDING)) return;
    // The API server's PersistentVolumeClaimResize admission only lets a claim grow when its
    // class allows expansion; a class that does not is never resized.
    const sc = pvc.spec.storageClassName
      ? (store.tryGet(STORAGE_CLASSES, undefined, pvc.spec.storageClassName) as unknown as V1StorageClass | undefined)
      : undefined;
    if (!sc?.allowVolumeExpansion) return;
    recordEvent(store, obj, 'Normal', 'Resizing', `External resizer is resizing volume ${pvName}`, SOURCE);
    store.mutate(
      PVS,
      undefined,
      pvName,
      o => {
        const p = o as unknown as V1PersistentVolume;
        p.spec = { ...p.spec, capacity: { ...p.spec?.capacity, storage: want } };
      },
      { skipAdmission: true },
    );
    const now = new Date().toISOString() as unknown as Date;
    store.mutate(
      PVCS,
      ns,
      name,
      o => {
        const c = o as unknown as V1PersistentVolumeClaim;
        c.status = {
          ...c.status,
          conditions: [
            ...(c.status?.conditions ?? []).filter(x => x.type !== FS_RESIZE_PENDING && x.type !== 'Resizing'),
            {
              type: FS_RESIZE_PENDING,
              status: 'True',
              lastTransitionTime: now,
              message: 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.',
            },
          ],
        };
      },
      { skipAdmission: true },
    );
    recordEvent(store, obj, 'Normal', 'FileSystemResizeRequired', 'Require file system resize of volume on node', SOURCE);
  }

  return {
    async stop() {
      sub.stop();
      await queue.stop();
    },
  };
}
