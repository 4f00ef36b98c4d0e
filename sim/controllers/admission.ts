// The mutating admission plugins of the control plane that belong with the controllers:
// NamespaceLifecycle's "kubernetes" finalizer on new namespaces (so deletion waits for
// the namespace controller), DefaultStorageClass for claims without a class, the PVC
// protection finalizer (./pvcProtection.ts), and the
// RuntimeClass plugin (./runtimeClassAdmission.ts).

import type { V1PersistentVolumeClaim, V1StorageClass } from '@kubernetes/client-node';
import type { Admission, KubeObject, Store } from '../api/store.ts';
import type { Profile } from '../profiles/types.ts';
import { NAMESPACE_FINALIZER } from './namespace.ts';
import { pvcProtectionAdmission } from './pvcProtection.ts';
import { runtimeClassAdmission } from './runtimeClassAdmission.ts';
import { STORAGE_CLASSES } from './volumeProvisioner.ts';

const DEFAULT_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';

function namespaceFinalizer(): Admission {
  return (bucket, op, obj) => {
    if (bucket !== 'namespaces' || op !== 'create') return obj;
    const spec = (obj.spec ?? {}) as { finalizers?: string[] };
    if (!spec.finalizers?.includes(NAMESPACE_FINALIZER)) spec.finalizers = [...(spec.finalizers ?? []), NAMESPACE_FINALIZER];
    obj.spec = spec;
    return obj;
  };
}

function defaultStorageClass(store: Store): Admission {
  return (bucket, op, obj) => {
    if (bucket !== 'persistentvolumeclaims' || op !== 'create') return obj;
    const pvc = obj as unknown as V1PersistentVolumeClaim;
    if (pvc.spec && pvc.spec.storageClassName === undefined) {
      const def = store
        .list(STORAGE_CLASSES)
        .items.map(o => o as unknown as V1StorageClass)
        .filter(sc => sc.metadata?.annotations?.[DEFAULT_CLASS_ANNOTATION] === 'true')
        .sort((a, b) => String(b.metadata?.creationTimestamp).localeCompare(String(a.metadata?.creationTimestamp)))[0];
      if (def) pvc.spec.storageClassName = def.metadata!.name;
    }
    return pvc as unknown as KubeObject;
  };
}

/**
 * Registers the plugins on the store. The store cannot unregister admissions, so they
 * turn themselves off when `enabled` returns false (after the controllers stop).
 */
export function registerControlPlaneAdmission(store: Store, profile: Profile, enabled: () => boolean): void {
  const plugins = [namespaceFinalizer(), defaultStorageClass(store), pvcProtectionAdmission(), runtimeClassAdmission(store, profile)];
  store.addAdmission((bucket, op, obj, old) => {
    if (!enabled()) return obj;
    let out = obj;
    for (const p of plugins) out = p(bucket, op, out, old);
    return out;
  });
}
