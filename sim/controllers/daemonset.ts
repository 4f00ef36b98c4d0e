// The DaemonSet controller: one pod per node the template fits (nodeSelector, affinity,
// taints; not resources), pinned with node affinity on metadata.name and bound by the
// scheduler, as upstream. Its pods tolerate the node-condition taints automatically.
// A changed template replaces pods one node at a time (maxUnavailable 1).

import type { V1DaemonSet, V1Node, V1Pod, V1Toleration } from '@kubernetes/client-node';
import { StoreError, type KubeObject } from '../api/store.ts';
import { isBroken } from '../profiles/load.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { matchesNodeSelectorAndAffinity, podFitsNode, tolerates } from './fit.ts';
import { controllerRef, isControlledBy, isPodActive, isPodAvailable, isPodReady, ownerReferenceTo, stableJSON, templateHash } from './objects.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

export const DAEMONSETS = 'daemonsets.apps';
const SOURCE = 'daemonset-controller';
const REVISION_LABEL = 'controller-revision-hash';

/** What the DaemonSet controller adds to every pod it creates (pkg/controller/daemon/util). */
export const DAEMONSET_TOLERATIONS: V1Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

const HOST_NETWORK_TOLERATION: V1Toleration = { key: 'node.kubernetes.io/network-unavailable', operator: 'Exists', effect: 'NoSchedule' };

/** The node a DaemonSet pod is meant for (nodeName once bound, else its metadata.name affinity). */
function targetNode(pod: V1Pod): string | undefined {
  if (pod.spec?.nodeName) return pod.spec.nodeName;
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return terms[0]?.matchFields?.find(f => f.key === 'metadata.name')?.values?.[0];
}

export function startDaemonSetController({ store, profile }: ControllerContext): Stoppable {
  const queue = new WorkQueue('daemonset-controller', key => sync(key));
  const syncAll = () => {
    for (const ds of store.list(DAEMONSETS).items) queue.add(keyOf(ds.metadata.namespace, ds.metadata.name!));
  };
  const sub = store.onAny(
    guarded('daemonset-controller', (bucket, e, old) => {
      if (bucket === DAEMONSETS) queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name!));
      else if (bucket === 'pods') {
        const ref = controllerRef(e.object);
        if (ref?.kind === 'DaemonSet') queue.add(keyOf(e.object.metadata.namespace, ref.name));
      } else if (bucket === 'nodes') {
        const view = (o: KubeObject | undefined) => o && stableJSON([o.metadata.labels, (o as unknown as V1Node).spec]);
        if (e.type !== 'MODIFIED' || view(old) !== view(e.object)) syncAll();
      }
    }),
  );
  syncAll();

  /** The pod template with the DaemonSet's tolerations added: copied once per sync, not per node. */
  function baseTemplate(ds: V1DaemonSet): V1Pod {
    const template = structuredClone(ds.spec!.template);
    const spec = template.spec!;
    const tolerations = [...(spec.tolerations ?? [])];
    const extra = [...DAEMONSET_TOLERATIONS, ...(spec.hostNetwork ? [HOST_NETWORK_TOLERATION] : [])];
    for (const t of extra) if (!tolerations.some(x => x.key === t.key && x.effect === t.effect)) tolerations.push(t);
    spec.tolerations = tolerations;
    return { apiVersion: 'v1', kind: 'Pod', metadata: template.metadata ?? {}, spec };
  }

  /** The base template pinned to one node (a shallow copy: the store copies what it creates). */
  function templateFor(base: V1Pod, node: string): V1Pod {
    const spec = base.spec!;
    // Replaces any matchFields on metadata.name, keeps the user's own node affinity terms.
    const terms = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [{}];
    const pinned = terms.map(t => ({ ...t, matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }));
    const affinity = {
      ...spec.affinity,
      nodeAffinity: { ...spec.affinity?.nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: pinned } },
    };
    return { apiVersion: 'v1', kind: 'Pod', metadata: { ...base.metadata }, spec: { ...spec, affinity } };
  }

  function shouldRun(base: V1Pod, node: V1Node): boolean {
    if (isBroken(profile, 'daemonset-controller', node.metadata?.name) && node.metadata?.labels?.['kubernetes.io/os'] === 'windows') return false;
    return !podFitsNode(templateFor(base, node.metadata!.name!), node, { profile });
  }

  /**
   * upstream NodeShouldRunDaemonPod's shouldContinueRunning: a pod already on a node that no
   * longer takes new ones only for a NoSchedule taint (a node flapping NotReady: not-ready
   * NoSchedule) stays; only an untolerated NoExecute taint, or a node it no longer selects, ends it.
   */
  function shouldContinueRunning(base: V1Pod, node: V1Node): boolean {
    if (isBroken(profile, 'daemonset-controller', node.metadata?.name) && node.metadata?.labels?.['kubernetes.io/os'] === 'windows') return false;
    const pinned = templateFor(base, node.metadata!.name!);
    if (!matchesNodeSelectorAndAffinity(pinned, node, profile)) return false;
    const tolerations = pinned.spec?.tolerations ?? [];
    return !(node.spec?.taints ?? []).some(t => t.effect === 'NoExecute' && !tolerations.some(x => tolerates(x, t)));
  }

  function sync(key: string): void {
    const [ns, name] = splitKey(key);
    const obj = store.tryGet(DAEMONSETS, ns, name);
    if (!obj || obj.metadata.deletionTimestamp) return;
    // A controller that is not running (crashed, its leader election lost): nothing is written.
    if (isBroken(profile, 'daemonset-controller-down')) return;
    const ds = obj as unknown as V1DaemonSet;
    const hash = templateHash(ds.spec?.template);
    // Read in place (store.scan, read-only): a sync per pod event copied every node and every
    // pod of the namespace, O(nodes + pods) copies per event on a 100-node cluster.
    const nodes = store.scan('nodes') as unknown as V1Node[];
    const pods = store.scan('pods', ns).filter(p => isControlledBy(p, obj)) as unknown as V1Pod[];
    const base = baseTemplate(ds);
    const active = pods.filter(isPodActive);
    const byNode = new Map<string, V1Pod[]>();
    for (const p of active) {
      const n = targetNode(p) ?? '';
      byNode.set(n, [...(byNode.get(n) ?? []), p]);
    }
    const wanted = nodes.filter(n => shouldRun(base, n));
    const wantedNames = new Set(wanted.map(n => n.metadata!.name!));
    const staying = new Set(nodes.filter(n => !wantedNames.has(n.metadata!.name!) && shouldContinueRunning(base, n)).map(n => n.metadata!.name!));
    // Pods where none should be (node gone, no longer selected, an untolerated NoExecute taint), and duplicates.
    for (const [node, list] of byNode) {
      const extra = wantedNames.has(node) || staying.has(node) ? list.slice(1) : list;
      for (const p of extra) deletePod(obj, p);
    }
    // Rolling update: replace out-of-date pods while at most one node is unavailable.
    const maxUnavailable = 1;
    let unavailable = wanted.filter(n => !(byNode.get(n.metadata!.name!) ?? []).some(p => isPodAvailable(p, ds.spec?.minReadySeconds))).length;
    if (ds.spec?.updateStrategy?.type !== 'OnDelete') {
      for (const n of wanted) {
        const p = byNode.get(n.metadata!.name!)?.[0];
        if (!p || p.metadata?.labels?.[REVISION_LABEL] === hash) continue;
        const podAvailable = isPodAvailable(p, ds.spec?.minReadySeconds);
        if (podAvailable && unavailable >= maxUnavailable) continue;
        deletePod(obj, p);
        if (podAvailable) unavailable++;
      }
    }
    const terminatingOn = new Set(pods.filter(p => p.metadata?.deletionTimestamp).map(p => targetNode(p)));
    for (const n of wanted) {
      const nodeName = n.metadata!.name!;
      // A replacement waits until the old pod on that node is gone.
      if (byNode.get(nodeName)?.length || terminatingOn.has(nodeName)) continue;
      createPod(obj, base, nodeName, hash);
    }
    writeStatus(obj, wantedNames, hash);
  }

  function createPod(obj: KubeObject, base: V1Pod, node: string, hash: string): void {
    const pod = templateFor(base, node);
    pod.metadata = {
      ...pod.metadata,
      generateName: `${obj.metadata.name}-`,
      namespace: obj.metadata.namespace,
      labels: { ...pod.metadata?.labels, [REVISION_LABEL]: hash, 'pod-template-generation': String(obj.metadata.generation ?? 1) },
      ownerReferences: [ownerReferenceTo(obj, 'apps/v1', 'DaemonSet')],
    };
    try {
      const created = store.create('pods', pod as unknown as KubeObject);
      recordEvent(store, obj, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, SOURCE);
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
      recordEvent(store, obj, 'Warning', 'FailedCreate', `Error creating: ${err.message}`, SOURCE);
    }
  }

  function deletePod(obj: KubeObject, p: V1Pod): void {
    try {
      store.delete('pods', p.metadata!.namespace, p.metadata!.name!);
    } catch (err) {
      if (!(err instanceof StoreError && err.code === 404)) throw err;
      return;
    }
    recordEvent(store, obj, 'Normal', 'SuccessfulDelete', `Deleted pod: ${p.metadata!.name}`, SOURCE);
  }

  function writeStatus(obj: KubeObject, wanted: Set<string>, hash: string): void {
    const ds = obj as unknown as V1DaemonSet;
    const pods = (store.scan('pods', obj.metadata.namespace).filter(p => isControlledBy(p, obj)) as unknown as V1Pod[]).filter(isPodActive);
    const scheduledOn = (p: V1Pod) => p.spec?.nodeName;
    const onWanted = pods.filter(p => wanted.has(targetNode(p) ?? ''));
    const status = {
      currentNumberScheduled: new Set(onWanted.filter(scheduledOn).map(scheduledOn)).size,
      desiredNumberScheduled: wanted.size,
      numberMisscheduled: pods.filter(p => p.spec?.nodeName && !wanted.has(p.spec.nodeName)).length,
      numberReady: onWanted.filter(isPodReady).length,
      updatedNumberScheduled: onWanted.filter(p => p.spec?.nodeName && p.metadata?.labels?.[REVISION_LABEL] === hash).length,
      numberAvailable: onWanted.filter(p => isPodAvailable(p, ds.spec?.minReadySeconds)).length,
      numberUnavailable: 0,
      observedGeneration: obj.metadata.generation ?? 1,
    };
    status.numberUnavailable = Math.max(0, status.desiredNumberScheduled - status.numberAvailable);
    const next: Record<string, number> = { ...status };
    if (!next.numberUnavailable) delete next.numberUnavailable;
    if (!next.numberAvailable) delete next.numberAvailable;
    if (stableJSON(next) === stableJSON(ds.status ?? {})) return;
    store.mutate(
      DAEMONSETS,
      obj.metadata.namespace,
      obj.metadata.name!,
      o => {
        o.status = next;
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
