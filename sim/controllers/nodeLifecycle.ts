// The node lifecycle controller (kube-controller-manager's nodelifecycle): taints follow
// node state, as TaintNodesByCondition and the NoExecute taint manager do upstream —
//   spec.unschedulable         -> node.kubernetes.io/unschedulable:NoSchedule
//   Ready=False                -> node.kubernetes.io/not-ready:NoSchedule + :NoExecute
//   Ready=Unknown              -> node.kubernetes.io/unreachable:NoSchedule + :NoExecute
//   Memory/Disk/PIDPressure    -> node.kubernetes.io/{memory,disk,pid}-pressure:NoSchedule
//   NetworkUnavailable=True    -> node.kubernetes.io/network-unavailable:NoSchedule
// and a node whose Lease is not renewed within the grace period (40 s) gets every kubelet
// condition set to Unknown ("Kubelet stopped posting node status."). So `kubectl cordon`, a
// status patch of the Ready condition, or a stopped kubelet take effect like on a real cluster.

import type { V1Lease, V1Node, V1NodeCondition, V1Taint } from '@kubernetes/client-node';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { stableJSON } from './objects.ts';
import { WorkQueue } from './workqueue.ts';
import { LEASE_BUCKET, LEASE_NAMESPACE } from '../nodes/lease.ts';

const SOURCE = 'node-controller';
const PREFIX = 'node.kubernetes.io/';
/** The taints this controller owns; any other taint on the node is left alone. */
const LIFECYCLE_KEYS = ['unschedulable', 'not-ready', 'unreachable', 'memory-pressure', 'disk-pressure', 'pid-pressure', 'network-unavailable'].map(
  k => PREFIX + k,
);

export interface NodeLifecycleOptions {
  /** --node-monitor-grace-period: a Lease older than this makes the node Unknown (default 40 s). */
  gracePeriodMs?: number;
  /** --node-monitor-period (default 5 s). */
  monitorPeriodMs?: number;
}

const condition = (n: V1Node, type: string) => n.status?.conditions?.find(c => c.type === type);

/** The lifecycle taints a node in this state carries (without timeAdded). */
export function lifecycleTaints(node: V1Node): V1Taint[] {
  const out: V1Taint[] = [];
  if (node.spec?.unschedulable) out.push({ key: `${PREFIX}unschedulable`, effect: 'NoSchedule' });
  const ready = condition(node, 'Ready')?.status;
  // A node without a Ready condition yet counts as not ready (the kubelet has not posted).
  const state = ready === 'True' ? undefined : ready === 'Unknown' ? 'unreachable' : 'not-ready';
  if (state) out.push({ key: PREFIX + state, effect: 'NoSchedule' }, { key: PREFIX + state, effect: 'NoExecute' });
  const byCondition: [string, string][] = [
    ['MemoryPressure', 'memory-pressure'],
    ['DiskPressure', 'disk-pressure'],
    ['PIDPressure', 'pid-pressure'],
    ['NetworkUnavailable', 'network-unavailable'],
  ];
  for (const [type, key] of byCondition) if (condition(node, type)?.status === 'True') out.push({ key: PREFIX + key, effect: 'NoSchedule' });
  return out;
}

const same = (a: V1Taint, b: V1Taint) => a.key === b.key && a.effect === b.effect;

export function startNodeLifecycleController({ store }: ControllerContext, opts: NodeLifecycleOptions = {}): Stoppable {
  const grace = opts.gracePeriodMs ?? 40_000;
  const queue = new WorkQueue(SOURCE, name => sync(name));
  const sub = store.onAny(
    guarded(SOURCE, (bucket, e) => {
      if (bucket === 'nodes' && e.type !== 'DELETED') queue.add(e.object.metadata.name!);
    }),
  );
  for (const n of store.list('nodes').items) queue.add(n.metadata.name!);
  const monitor = setInterval(
    guarded(SOURCE, () => {
      for (const n of store.list('nodes').items) checkLease(n as unknown as V1Node);
    }),
    opts.monitorPeriodMs ?? 5_000,
  );
  monitor.unref();

  function sync(name: string): void {
    const obj = store.tryGet('nodes', undefined, name);
    if (!obj) return;
    const node = obj as unknown as V1Node;
    const current = node.spec?.taints ?? [];
    const wanted = lifecycleTaints(node);
    const kept = current.filter(t => !LIFECYCLE_KEYS.includes(t.key) || wanted.some(w => same(w, t)));
    const added = wanted
      .filter(w => !current.some(t => same(w, t)))
      .map(t => (t.effect === 'NoExecute' ? { ...t, timeAdded: new Date().toISOString() as unknown as Date } : t));
    const next = [...kept, ...added];
    if (stableJSON(next) === stableJSON(current)) return;
    store.mutate(
      'nodes',
      undefined,
      name,
      o => {
        const spec = (o.spec ?? {}) as { taints?: V1Taint[] };
        if (next.length) spec.taints = next;
        else delete spec.taints;
        o.spec = spec as typeof o.spec;
      },
      { skipAdmission: true },
    );
    const readyTaint = added.find(t => t.effect === 'NoSchedule' && (t.key.endsWith('not-ready') || t.key.endsWith('unreachable')));
    if (readyTaint) recordEvent(store, obj, 'Normal', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`, SOURCE);
  }

  /** A Lease not renewed within the grace period: the kubelet stopped posting, every condition goes Unknown. */
  function checkLease(node: V1Node): void {
    const name = node.metadata!.name!;
    const lease = store.tryGet(LEASE_BUCKET, LEASE_NAMESPACE, name) as unknown as V1Lease | undefined;
    const renewed = lease?.spec?.renewTime ? new Date(lease.spec.renewTime as unknown as string).getTime() : NaN;
    if (!Number.isFinite(renewed) || Date.now() - renewed <= grace) return;
    if (condition(node, 'Ready')?.status === 'Unknown') return;
    const now = new Date().toISOString() as unknown as Date;
    store.mutate(
      'nodes',
      undefined,
      name,
      o => {
        const n = o as unknown as V1Node;
        n.status!.conditions = (n.status!.conditions ?? []).map((c: V1NodeCondition) =>
          c.type === 'NetworkUnavailable'
            ? c
            : { ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: now },
        );
      },
      { skipAdmission: true },
    );
  }

  return {
    async stop() {
      clearInterval(monitor);
      sub.stop();
      await queue.stop();
    },
  };
}
