// The RuntimeClass admission plugin: a pod naming a RuntimeClass gets the class's
// scheduling nodeSelector and tolerations merged in (and its overhead) when it is
// created, before the scheduler sees it. A missing class rejects the pod, as upstream.

import type { V1Pod, V1RuntimeClass, V1Toleration } from '@kubernetes/client-node';
import { StoreError, type Admission, type KubeObject, type Store } from '../api/store.ts';
import type { Profile } from '../profiles/types.ts';
import { isBroken } from '../profiles/load.ts';

export const RUNTIME_CLASSES = 'runtimeclasses.node.k8s.io';

export function runtimeClassAdmission(store: Store, profile: Profile): Admission {
  return (bucket, op, obj) => {
    if (bucket !== 'pods' || op !== 'create') return obj;
    const pod = obj as unknown as V1Pod;
    const name = pod.spec?.runtimeClassName;
    if (!name) return obj;
    const rc = store.tryGet(RUNTIME_CLASSES, undefined, name) as unknown as V1RuntimeClass | undefined;
    if (!rc) throw new StoreError(403, 'Forbidden', `pods "${pod.metadata?.name}" is forbidden: pod rejected: RuntimeClass "${name}" not found`);
    if (rc.overhead?.podFixed && !pod.spec!.overhead) pod.spec!.overhead = { ...rc.overhead.podFixed };
    if (!rc.scheduling || isBroken(profile, 'runtimeclass-scheduling')) return obj;
    const selector = { ...(pod.spec!.nodeSelector ?? {}) };
    for (const [k, v] of Object.entries(rc.scheduling.nodeSelector ?? {})) {
      if (k in selector && selector[k] !== v)
        throw new StoreError(
          403,
          'Forbidden',
          `pods "${pod.metadata?.name}" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[${k}] = ${v}; pod.spec.nodeSelector[${k}] = ${selector[k]}`,
        );
      selector[k] = v;
    }
    if (Object.keys(selector).length) pod.spec!.nodeSelector = selector;
    const tolerations: V1Toleration[] = [...(pod.spec!.tolerations ?? [])];
    for (const t of rc.scheduling.tolerations ?? []) if (!tolerations.some(x => JSON.stringify(x) === JSON.stringify(t))) tolerations.push({ ...t });
    if (tolerations.length) pod.spec!.tolerations = tolerations;
    return pod as unknown as KubeObject;
  };
}
