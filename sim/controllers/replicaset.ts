// The ReplicaSet controller: keeps spec.replicas active pods stamped from the template
// (generateName "<rs>-", controller ownerReference), deletes surplus pods least useful
// first, and reports replicas / ready / available in status.

import type { V1Pod, V1ReplicaSet } from '@kubernetes/client-node';
import { StoreError, type KubeObject } from '../api/store.ts';
import { matchesLabels, structuredToRequirements, type StructuredSelector } from '../api/selectors.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { createPodFromTemplate } from './podFromTemplate.ts';
import { asPod, controllerRef, isControlledBy, isPodActive, isPodAvailable, isPodReady, podCondition } from './objects.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

export const REPLICASETS = 'replicasets.apps';
const SOURCE = 'replicaset-controller';

export function startReplicaSetController({ store }: ControllerContext): Stoppable {
  const queue = new WorkQueue('replicaset-controller', key => sync(key));
  const sub = store.onAny(
    guarded('replicaset-controller', (bucket, e) => {
      if (bucket === REPLICASETS) queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name!));
      if (bucket === 'pods') {
        const ref = controllerRef(e.object);
        if (ref?.kind === 'ReplicaSet') queue.add(keyOf(e.object.metadata.namespace, ref.name));
      }
    }),
  );
  for (const rs of store.list(REPLICASETS).items) queue.add(keyOf(rs.metadata.namespace, rs.metadata.name!));

  function sync(key: string): void {
    const [ns, name] = splitKey(key);
    const obj = store.tryGet(REPLICASETS, ns, name);
    if (!obj || obj.metadata.deletionTimestamp) return;
    const rs = obj as unknown as V1ReplicaSet;
    // Read in place (store.scan, read-only): a list copied every pod of the namespace per sync.
    const owned: KubeObject[] = store.scan('pods', ns).filter(p => isControlledBy(p, obj));
    const active = owned.filter(p => isPodActive(asPod(p)));
    const want = rs.spec?.replicas ?? 1;
    if (active.length < want) {
      for (let i = active.length; i < want; i++) {
        const pod = createPod(obj);
        if (!pod) break;
        active.push(pod);
      }
    } else if (active.length > want) {
      const victims = [...active].sort((a, b) => deletionRank(asPod(a)) - deletionRank(asPod(b))).slice(0, active.length - want);
      for (const v of victims) {
        try {
          store.delete('pods', ns, v.metadata.name!);
        } catch (err) {
          if (!(err instanceof StoreError && err.code === 404)) throw err;
        }
        recordEvent(store, obj, 'Normal', 'SuccessfulDelete', `Deleted pod: ${v.metadata.name}`, SOURCE);
      }
    }
    writeStatus(obj, owned.map(asPod));
  }

  function createPod(owner: KubeObject): KubeObject | undefined {
    return createPodFromTemplate(store, owner, 'apps/v1', 'ReplicaSet', (owner as unknown as V1ReplicaSet).spec?.template, SOURCE);
  }

  function writeStatus(rsObj: KubeObject, owned: V1Pod[]): void {
    const rs = rsObj as unknown as V1ReplicaSet;
    const minReady = rs.spec?.minReadySeconds ?? 0;
    const active = owned.filter(isPodActive);
    const selector = structuredToRequirements(rs.spec?.selector as StructuredSelector | undefined);
    const available = active.filter(p => isPodAvailable(p, minReady)).length;
    const ready = active.filter(isPodReady).length;
    // Ready but not yet available: look again once minReadySeconds have passed.
    if (minReady && ready > available) queue.addAfter(keyOf(rsObj.metadata.namespace, rsObj.metadata.name!), minReady * 1000);
    const status = {
      replicas: active.length,
      fullyLabeledReplicas: active.filter(p => matchesLabels(selector, p.metadata?.labels)).length,
      readyReplicas: ready,
      availableReplicas: available,
      observedGeneration: rsObj.metadata.generation ?? 1,
    };
    const cur = (rs.status ?? {}) as Record<string, unknown>;
    if (Object.entries(status).every(([k, v]) => cur[k] === v)) return;
    store.mutate(
      REPLICASETS,
      rsObj.metadata.namespace,
      rsObj.metadata.name!,
      o => {
        const cur = o as unknown as V1ReplicaSet;
        cur.status = { ...status, ...(cur.status?.conditions ? { conditions: cur.status.conditions } : {}) };
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

/** Lower is deleted first: unscheduled, then pending, then not ready, then the newest. */
function deletionRank(pod: V1Pod): number {
  if (!pod.spec?.nodeName) return 0;
  if (pod.status?.phase === 'Pending') return 1;
  if (!isPodReady(pod)) return 2;
  const since = podCondition(pod, 'Ready')?.lastTransitionTime;
  // Newer ready pods go before older ones.
  return 4 - 1 / (1 + (Date.now() - new Date((since ?? 0) as unknown as string).getTime()));
}
