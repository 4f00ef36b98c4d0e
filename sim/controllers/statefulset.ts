// The StatefulSet controller: pods <name>-0..N-1 with stable names, hostname and the
// governing service as subdomain (per-pod DNS), PVCs from volumeClaimTemplates.
// OrderedReady creates one pod at a time once the previous ones are Running and Ready,
// and removes the highest ordinal first; Parallel does all at once. Template changes
// roll from the highest ordinal down.

import type { V1PersistentVolumeClaim, V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import { StoreError, type KubeObject } from '../api/store.ts';
import { isBroken } from '../profiles/load.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { asPod, controllerRef, isControlledBy, isPodAvailable, isPodReady, isPodTerminal, ownerReferenceTo, stableJSON, templateHash } from './objects.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

export const STATEFULSETS = 'statefulsets.apps';
const SOURCE = 'statefulset-controller';
const REVISION_LABEL = 'controller-revision-hash';

const ordinalOf = (setName: string, podName: string) => {
  const m = new RegExp(`^${setName.replace(/[.]/g, '\\.')}-([0-9]+)$`).exec(podName);
  return m ? Number(m[1]) : -1;
};

export function startStatefulSetController({ store, profile }: ControllerContext): Stoppable {
  const queue = new WorkQueue('statefulset-controller', key => sync(key));
  const sub = store.onAny(
    guarded('statefulset-controller', (bucket, e) => {
      if (bucket === STATEFULSETS) queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name!));
      if (bucket === 'pods') {
        const ref = controllerRef(e.object);
        if (ref?.kind === 'StatefulSet') queue.add(keyOf(e.object.metadata.namespace, ref.name));
      }
    }),
  );
  for (const s of store.list(STATEFULSETS).items) queue.add(keyOf(s.metadata.namespace, s.metadata.name!));

  /** The ordinals each StatefulSet (by uid) has created a pod for: break statefulset-recreate replaces none of them. */
  const created = new Map<string, Set<number>>();

  function sync(key: string): void {
    const [ns, name] = splitKey(key);
    const obj = store.tryGet(STATEFULSETS, ns, name);
    if (!obj || obj.metadata.deletionTimestamp) return;
    // A controller that is not running (crashed, its leader election lost): nothing is written.
    if (isBroken(profile, 'statefulset-controller-down')) return;
    const sts = obj as unknown as V1StatefulSet;
    const replicas = sts.spec?.replicas ?? 1;
    const parallel = sts.spec?.podManagementPolicy === 'Parallel';
    const revision = `${name}-${templateHash(sts.spec?.template)}`;
    const pods = new Map<number, V1Pod>();
    // Read in place (store.scan, read-only): a list copied every pod of the namespace per sync.
    for (const p of store.scan('pods', ns).filter(p => isControlledBy(p, obj))) pods.set(ordinalOf(name, p.metadata.name!), asPod(p as KubeObject));

    // Failed or finished pods are replaced under the same name once gone.
    for (const [, p] of pods) if (isPodTerminal(p) && !p.metadata?.deletionTimestamp) remove(obj, p);

    for (let i = 0; i < replicas; i++) {
      const p = pods.get(i);
      if (!p) {
        // break statefulset-recreate: a pod deleted after it was made is never made again.
        if (isBroken(profile, 'statefulset-recreate') && created.get(obj.metadata.uid ?? '')?.has(i)) {
          if (!parallel) break;
          continue;
        }
        createPod(obj, sts, i, revision);
        if (!parallel) break;
        continue;
      }
      if (!parallel && !(p.status?.phase === 'Running' && isPodReady(p) && !p.metadata?.deletionTimestamp)) break;
    }
    // Scale down: highest ordinal first, one at a time unless Parallel.
    const surplus = [...pods.keys()].filter(i => i >= replicas || i < 0).sort((a, b) => b - a);
    const allHealthy = [...pods.values()].every(p => isPodReady(p) && !p.metadata?.deletionTimestamp);
    for (const i of surplus) {
      const p = pods.get(i)!;
      if (p.metadata?.deletionTimestamp) {
        if (!parallel) break;
        continue;
      }
      if (!parallel && !allHealthy) break;
      remove(obj, p);
      if (!parallel) break;
    }
    // Rolling update, highest ordinal first, one pod at a time.
    if (sts.spec?.updateStrategy?.type !== 'OnDelete' && surplus.length === 0) {
      const partition = sts.spec?.updateStrategy?.rollingUpdate?.partition ?? 0;
      for (let i = replicas - 1; i >= partition; i--) {
        const p = pods.get(i);
        if (!p || p.metadata?.deletionTimestamp) break;
        if (p.metadata?.labels?.[REVISION_LABEL] !== revision) {
          if (allHealthy) remove(obj, p);
          break;
        }
        if (!isPodReady(p)) break;
      }
    }
    writeStatus(obj, revision);
  }

  function createPod(obj: KubeObject, sts: V1StatefulSet, ordinal: number, revision: string): void {
    const name = `${obj.metadata.name}-${ordinal}`;
    const template = structuredClone(sts.spec!.template);
    const spec = template.spec!;
    spec.hostname = name;
    if (sts.spec?.serviceName) spec.subdomain = sts.spec.serviceName;
    const volumes = [...(spec.volumes ?? [])];
    for (const t of sts.spec?.volumeClaimTemplates ?? []) {
      const claim = `${t.metadata?.name}-${name}`;
      ensureClaim(obj, t, claim);
      if (!volumes.some(v => v.name === t.metadata?.name)) volumes.push({ name: t.metadata!.name!, persistentVolumeClaim: { claimName: claim } });
    }
    if (volumes.length) spec.volumes = volumes;
    const pod: V1Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        ...template.metadata,
        name,
        namespace: obj.metadata.namespace,
        labels: {
          ...template.metadata?.labels,
          [REVISION_LABEL]: revision,
          'statefulset.kubernetes.io/pod-name': name,
          'apps.kubernetes.io/pod-index': String(ordinal),
        },
        ownerReferences: [ownerReferenceTo(obj, 'apps/v1', 'StatefulSet')],
      },
      spec,
    };
    try {
      store.create('pods', pod as unknown as KubeObject);
      const uid = obj.metadata.uid ?? '';
      created.set(uid, (created.get(uid) ?? new Set()).add(ordinal));
      recordEvent(store, obj, 'Normal', 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${obj.metadata.name} successful`, SOURCE);
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      if (err.code === 409) return; // the old pod of that name is still being removed
      recordEvent(store, obj, 'Warning', 'FailedCreate', `create Pod ${name} in StatefulSet ${obj.metadata.name} failed error: ${err.message}`, SOURCE);
    }
  }

  function ensureClaim(obj: KubeObject, t: V1PersistentVolumeClaim, claim: string): void {
    if (store.tryGet('persistentvolumeclaims', obj.metadata.namespace, claim)) return;
    const pvc: V1PersistentVolumeClaim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        ...t.metadata,
        name: claim,
        namespace: obj.metadata.namespace,
        labels: { ...t.metadata?.labels, ...((obj as unknown as V1StatefulSet).spec?.selector?.matchLabels ?? {}) },
      },
      spec: t.spec,
    };
    store.create('persistentvolumeclaims', pvc as unknown as KubeObject);
    recordEvent(
      store,
      obj,
      'Normal',
      'SuccessfulCreate',
      `create Claim ${claim} Pod ${claim.slice(t.metadata!.name!.length + 1)} in StatefulSet ${obj.metadata.name} success`,
      SOURCE,
    );
  }

  function remove(obj: KubeObject, p: V1Pod): void {
    try {
      store.delete('pods', p.metadata!.namespace, p.metadata!.name!);
    } catch (err) {
      if (!(err instanceof StoreError && err.code === 404)) throw err;
      return;
    }
    recordEvent(store, obj, 'Normal', 'SuccessfulDelete', `delete Pod ${p.metadata!.name} in StatefulSet ${obj.metadata.name} successful`, SOURCE);
  }

  function writeStatus(obj: KubeObject, revision: string): void {
    const sts = obj as unknown as V1StatefulSet;
    const pods = store
      .scan('pods', obj.metadata.namespace)
      .filter(p => isControlledBy(p, obj))
      .map(p => asPod(p as KubeObject))
      .filter(p => !p.metadata?.deletionTimestamp);
    const updated = pods.filter(p => p.metadata?.labels?.[REVISION_LABEL] === revision).length;
    const status = {
      observedGeneration: obj.metadata.generation ?? 1,
      replicas: pods.length,
      readyReplicas: pods.filter(isPodReady).length,
      currentReplicas: updated === pods.length ? updated : pods.length - updated,
      updatedReplicas: updated,
      availableReplicas: pods.filter(p => isPodAvailable(p, sts.spec?.minReadySeconds)).length,
      // Once every pod runs the new template it becomes the current revision, as upstream.
      currentRevision: updated === pods.length ? revision : (sts.status?.currentRevision ?? revision),
      updateRevision: revision,
      collisionCount: sts.status?.collisionCount ?? 0,
    };
    if (stableJSON(status) === stableJSON({ ...sts.status, conditions: undefined })) return;
    store.mutate(
      STATEFULSETS,
      obj.metadata.namespace,
      obj.metadata.name!,
      o => {
        o.status = {
          ...status,
          ...((o as unknown as V1StatefulSet).status?.conditions ? { conditions: (o as unknown as V1StatefulSet).status!.conditions } : {}),
        };
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
