// A dynamic provisioner plus the PV binder: a Pending PVC whose StorageClass has a
// provisioner gets a PV (pvc-<uid>) of the requested size, and both become Bound.
// Deleting the claim deletes a PV whose reclaim policy is Delete.
// The sim's classes use volumeBindingMode Immediate, so no wait for a consumer.

import type { V1PersistentVolume, V1PersistentVolumeClaim, V1StorageClass } from '@kubernetes/client-node';
import { StoreError, type KubeObject } from '../api/store.ts';
import { isBroken } from '../profiles/load.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

const PVCS = 'persistentvolumeclaims';
const PVS = 'persistentvolumes';
export const STORAGE_CLASSES = 'storageclasses.storage.k8s.io';
const SOURCE = 'persistentvolume-controller';

export function startVolumeProvisioner({ store, profile }: ControllerContext): Stoppable {
  const queue = new WorkQueue('persistentvolume-controller', key => (key.startsWith('pv:') ? releasePV(key.slice(3)) : sync(key)));
  const sub = store.onAny(
    guarded('persistentvolume-controller', (bucket, e) => {
      if (bucket !== PVCS) return;
      const pvc = e.object as unknown as V1PersistentVolumeClaim;
      if (e.type === 'DELETED') {
        if (pvc.spec?.volumeName) queue.add(`pv:${pvc.spec.volumeName}`);
        return;
      }
      if (pvc.status?.phase !== 'Bound') queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name!));
    }),
  );
  for (const p of store.list(PVCS).items) queue.add(keyOf(p.metadata.namespace, p.metadata.name!));

  function sync(key: string): void {
    const [ns, name] = splitKey(key);
    const obj = store.tryGet(PVCS, ns, name);
    const pvc = obj as unknown as V1PersistentVolumeClaim | undefined;
    if (!obj || !pvc || obj.metadata.deletionTimestamp || pvc.status?.phase === 'Bound') return;
    if (pvc.status?.phase !== 'Pending') setPhase(ns, name, 'Pending');
    const className = pvc.spec?.storageClassName;
    const sc = className ? (store.tryGet(STORAGE_CLASSES, undefined, className) as unknown as V1StorageClass | undefined) : undefined;
    if (!sc || pvc.spec?.volumeName) return; // static binding and classless claims are not simulated
    if (isBroken(profile, 'pvc-bind')) {
      recordEvent(
        store,
        obj,
        'Normal',
        'ExternalProvisioning',
        `Waiting for a volume to be created either by the external provisioner '${sc.provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
        SOURCE,
      );
      return;
    }
    const size = pvc.spec?.resources?.requests?.storage ?? '1Gi';
    const pvName = `pvc-${obj.metadata.uid}`;
    const pv: V1PersistentVolume = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: {
        name: pvName,
        annotations: {
          'pv.kubernetes.io/provisioned-by': sc.provisioner,
          'volume.kubernetes.io/provisioner-deletion-secret-name': '',
          'volume.kubernetes.io/provisioner-deletion-secret-namespace': '',
        },
        finalizers: ['kubernetes.io/pv-protection'],
      },
      spec: {
        accessModes: pvc.spec?.accessModes ?? ['ReadWriteOnce'],
        capacity: { storage: size },
        claimRef: {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          name,
          namespace: ns,
          uid: obj.metadata.uid,
          resourceVersion: obj.metadata.resourceVersion,
        },
        csi: {
          driver: sc.provisioner,
          volumeHandle: `/subscriptions/sim/resourceGroups/sim/providers/Microsoft.Compute/disks/${pvName}`,
          fsType: sc.parameters?.fsType ?? 'ntfs',
        },
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        storageClassName: sc.metadata!.name,
        volumeMode: pvc.spec?.volumeMode ?? 'Filesystem',
      },
    };
    if (!store.tryGet(PVS, undefined, pvName)) store.create(PVS, pv as unknown as KubeObject, { skipAdmission: true });
    store.mutate(
      PVS,
      undefined,
      pvName,
      o => {
        o.status = { phase: 'Bound' };
      },
      { skipAdmission: true },
    );
    recordEvent(store, obj, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${pvName}`, `${sc.provisioner}_sim`);
    store.mutate(
      PVCS,
      ns,
      name,
      o => {
        const c = o as unknown as V1PersistentVolumeClaim;
        o.metadata.annotations = {
          ...o.metadata.annotations,
          'pv.kubernetes.io/bind-completed': 'yes',
          'pv.kubernetes.io/bound-by-controller': 'yes',
          'volume.beta.kubernetes.io/storage-provisioner': sc.provisioner,
          'volume.kubernetes.io/storage-provisioner': sc.provisioner,
        };
        c.spec!.volumeName = pvName;
        c.status = { phase: 'Bound', accessModes: pv.spec!.accessModes, capacity: { storage: size } };
      },
      { skipAdmission: true },
    );
  }

  function setPhase(ns: string | undefined, name: string, phase: string): void {
    store.mutate(
      PVCS,
      ns,
      name,
      o => {
        o.status = { ...(o.status as object), phase };
      },
      { skipAdmission: true },
    );
  }

  function releasePV(name: string): void {
    const pv = store.tryGet(PVS, undefined, name) as unknown as V1PersistentVolume | undefined;
    if (!pv) return;
    if (pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') {
      store.mutate(
        PVS,
        undefined,
        name,
        o => {
          o.status = { phase: 'Released' };
        },
        { skipAdmission: true },
      );
      return;
    }
    try {
      store.mutate(
        PVS,
        undefined,
        name,
        o => {
          o.metadata.finalizers = [];
        },
        { skipAdmission: true },
      );
      store.delete(PVS, undefined, name);
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
