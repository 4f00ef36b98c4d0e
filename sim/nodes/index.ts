// The simulated kubelets' node registration: one Node + Lease per profile node, with
// heartbeats on unref'd timers (the Lease every 10 s, condition heartbeats every 40 s).

import type { V1Node, V1NodeCondition } from '@kubernetes/client-node';
import type { KubeObject, Store } from '../api/store.ts';
import type { NetworkTwin } from '../network/types.ts';
import type { Profile } from '../profiles/types.ts';
import { buildNodeObject, nodeConditions, nodeTaints, NOT_READY_TAINTS } from './nodeObject.ts';
import { nodeSpecOf, nodeSpecs } from './nodeSpec.ts';
import { ensureNodeLease, renewNodeLease } from './lease.ts';

export { nodeSpecOf, nodeSpecs, windowsBuildLabel, type ResolvedNodeSpec } from './nodeSpec.ts';
export { buildNodeObject, KUBELET_PORT } from './nodeObject.ts';
export { formatCpu, formatMemory } from './kubeletUnits.ts';

export interface NodeOptions {
  /** Each node's InternalIP (the network twin's); without it nodes get 127.0.10.N. */
  nodeAddress?: NetworkTwin['nodeAddress'];
  /** Each node's pod range; without it 10.244.N.0/24, flannel's default layout. */
  podCIDR?: (node: string) => string;
  /** Each node's pod ranges of both families (dual-stack); without it [podCIDR]. */
  podCIDRs?: (node: string) => string[];
  leaseRenewMs?: number;
  statusHeartbeatMs?: number;
}

const NODES = 'nodes';

/** The InternalIP a node gets when no network twin is given. */
export const fallbackNodeAddress = (index: number) => `127.0.10.${index + 1}`;

export function startNodes(store: Store, profile: Profile, opts: NodeOptions = {}): { stop(): Promise<void> } {
  for (const spec of nodeSpecs(profile)) {
    let node = store.tryGet(NODES, undefined, spec.name);
    if (!node) {
      const internalIP = opts.nodeAddress?.(spec.name) ?? fallbackNodeAddress(spec.index);
      const podCIDR = opts.podCIDR?.(spec.name) ?? `10.244.${spec.index}.0/24`;
      const podCIDRs = opts.podCIDRs?.(spec.name) ?? [podCIDR];
      node = store.create(NODES, buildNodeObject(profile, spec, { internalIP, podCIDR, podCIDRs }));
    }
    ensureNodeLease(store, node);
  }
  const names = profile.nodes.map(n => n.name);
  const guard = (what: string, fn: () => void) => () => {
    try {
      fn();
    } catch (e) {
      console.error(`sim: node ${what} failed:`, e);
    }
  };
  const leaseTimer = setInterval(
    guard('lease renewal', () => names.forEach(n => renewNodeLease(store, n))),
    opts.leaseRenewMs ?? 10_000,
  );
  const statusTimer = setInterval(
    guard('status heartbeat', () => names.forEach(n => refreshHeartbeat(store, profile, n))),
    opts.statusHeartbeatMs ?? 40_000,
  );
  leaseTimer.unref();
  statusTimer.unref();
  const flap = startNodeFlap(store, profile, guard);
  return {
    async stop() {
      clearInterval(leaseTimer);
      clearInterval(statusTimer);
      flap.stop();
    },
  };
}

/**
 * faults.nodeFlap: a node turns NotReady for forMs (default 3 s) after afterMs (default 5 s),
 * then Ready again; again every everyMs if set. Pods stay (they tolerate not-ready for 300 s).
 */
function startNodeFlap(store: Store, profile: Profile, guard: (what: string, fn: () => void) => () => void): { stop(): void } {
  const f = profile.faults?.nodeFlap;
  if (!f) return { stop: () => undefined };
  const name = f.node ?? profile.nodes.find(n => n.os === 'windows')?.name ?? profile.nodes[0]?.name;
  if (!name) return { stop: () => undefined };
  const timers: NodeJS.Timeout[] = [];
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(fn, ms);
    t.unref();
    timers.push(t);
  };
  const flapOnce = () => {
    guard('flap NotReady', () => setNodeReady(store, profile, name, false))();
    later(
      f.forMs ?? 3_000,
      guard('flap Ready', () => setNodeReady(store, profile, name, true)),
    );
    if (f.everyMs) later(f.everyMs, flapOnce);
  };
  later(f.afterMs ?? 5_000, flapOnce);
  return { stop: () => timers.forEach(clearTimeout) };
}

/**
 * The kubelet's status post. Conditions the node lifecycle controller set to Unknown (its Lease
 * lapsed while the process was busy: a 100-node sim stalls its event loop at start) go back to
 * the kubelet's own view, as a real kubelet's next post overwrites them; else only the times move.
 */
function refreshHeartbeat(store: Store, profile: Profile, name: string): void {
  if (!store.tryGet(NODES, undefined, name)) return;
  const spec = nodeSpecOf(profile, name);
  store.mutate(NODES, undefined, name, o => {
    const now = new Date().toISOString();
    const node = o as unknown as V1Node;
    const lapsed = (node.status?.conditions ?? []).some(c => c.status === 'Unknown' && c.reason === 'NodeStatusUnknown');
    const own = lapsed && spec ? nodeConditions(profile, spec.ready !== false, now, spec) : [];
    node.status!.conditions = (node.status?.conditions ?? []).map(c => {
      const mine = c.status === 'Unknown' && c.reason === 'NodeStatusUnknown' ? own.find(f => f.type === c.type) : undefined;
      return mine ?? { ...c, lastHeartbeatTime: now as unknown as Date };
    });
  });
}

/**
 * Turns a node Ready or NotReady (fault injection, tests): the Ready condition and the
 * not-ready taints change together, as the kubelet and node lifecycle controller would.
 */
export function setNodeReady(store: Store, profile: Profile, name: string, ready: boolean, notReadyMessage?: string): KubeObject {
  const spec = nodeSpecOf(profile, name);
  if (!spec) throw new Error(`node "${name}" is not in profile "${profile.name}"`);
  return store.mutate(NODES, undefined, name, o => {
    const node = o as unknown as V1Node;
    const now = new Date().toISOString();
    const fresh = nodeConditions(profile, ready, now, spec, notReadyMessage);
    node.status!.conditions = (node.status!.conditions ?? []).map((c: V1NodeCondition) => {
      const next = fresh.find(f => f.type === c.type) ?? c;
      return next.status === c.status ? { ...c, lastHeartbeatTime: next.lastHeartbeatTime } : next;
    });
    const others = (node.spec!.taints ?? []).filter(t => !NOT_READY_TAINTS.some(n => n.key === t.key));
    const notReady = ready ? [] : nodeTaints({ ...spec, taints: [], role: 'worker' }, false);
    node.spec!.taints = [...others, ...notReady];
    if (!node.spec!.taints.length) delete node.spec!.taints;
  });
}
