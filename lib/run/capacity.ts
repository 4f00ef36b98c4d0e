// Capacity: what room each node has (allocatable minus what pods in all namespaces request), what
// each fixture asks for (pods × requests, per candidate node), and waves of fixtures that fit.
// Pure except readNodeRooms. A fixture that cannot fit even alone is n/a with the numbers when
// the nodes' own pods (DaemonSets, static pods) leave no room for it: that is the cluster's
// shape. When it would fit but other workloads hold the room, it is an error with the numbers
// (the harness's means, capacity, failed). At check time, a pod that found no room after all
// (others took it) is an error with the numbers too.

import type { KubernetesObject, V1Pod, V1PodSpec, V1Toleration } from '@kubernetes/client-node';
import { parseQuantity } from '../../util/quantity.ts';
import { apiErrorMessage } from '../cluster/apiError.ts';
import type { KubeClients } from '../cluster/types.ts';
import { schedulableWindowsNodes, usableLinuxNodes } from '../discovery/nodes.ts';
import type { NodeInfo } from '../discovery/types.ts';
import type { RenderedFixture } from '../fixtures/types.ts';
import { MeansError } from '../cluster/meansError.ts';
import { foldPages, listAll } from '../cluster/list.ts';
import { RUN_LABEL } from '../labels.ts';

export interface Room {
  cpu: number;
  memory: number;
  pods: number;
}

export interface NodeRoom {
  name: string;
  allocatable: Room;
  /** Requested by pods already bound to the node (all namespaces), plus what the harness reserves. */
  used: Room;
  /** cpu/memory as the scheduler scores them (pods without requests count the defaults); planning only. */
  scored?: { cpu: number; memory: number };
  /** Part of `used` held by workloads: pods neither of a DaemonSet nor static (the node's own pods are its shape). */
  others?: Room;
}

/** One kind of pod a fixture makes: `count` of them on `candidates`, or one on each when perNode. */
export interface PodDemand {
  cpu: number;
  memory: number;
  count: number;
  perNode: boolean;
  /** Nodes the pod may land on (usable, matching its placement); empty = it is meant to stay Pending. */
  candidates: string[];
  what: string;
}

/** Pod slots kept free per node for pods probes make as they go (HostProcess node access, a second peer). */
export const RESERVED_PODS_PER_NODE = 2;

// ---- requests -------------------------------------------------------------------------------

/** Requests as kube-scheduler counts them: max(sum of containers, largest init) + overhead; limits stand in for unset requests. */
export function podRequests(spec: V1PodSpec): { cpu: number; memory: number } {
  const of = (c: { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }, r: 'cpu' | 'memory') =>
    parseQuantity(c.resources?.requests?.[r] ?? c.resources?.limits?.[r]) ?? 0;
  const sum = (r: 'cpu' | 'memory') => spec.containers.reduce((a, c) => a + of(c, r), 0);
  const init = (r: 'cpu' | 'memory') => Math.max(0, ...(spec.initContainers ?? []).map(c => of(c, r)));
  const overhead = (r: 'cpu' | 'memory') => parseQuantity(spec.overhead?.[r]) ?? 0;
  return { cpu: Math.max(sum('cpu'), init('cpu')) + overhead('cpu'), memory: Math.max(sum('memory'), init('memory')) + overhead('memory') };
}

function roomOf(q: Record<string, string>): Room {
  return { cpu: parseQuantity(q.cpu) ?? 0, memory: parseQuantity(q.memory) ?? 0, pods: parseQuantity(q.pods) ?? 110 };
}

/** Pods that hold room: bound and not terminal (what kubectl describe node sums). */
const LIVE_PODS = 'status.phase!=Succeeded,status.phase!=Failed';
/** Up to this many nodes, each node's pods are read apart (spec.nodeName); above, one paged list. */
const PER_NODE_READS_MAX = 8;

const isLive = (p: V1Pod) => !!p.spec?.nodeName && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed';

/**
 * Folds the live pods bound to the named nodes, in all namespaces, holding one page at a time:
 * for a few nodes, each node's own (fieldSelector spec.nodeName, as kubectl describe node reads
 * them); for many, one paged list of live pods with the others' nodes dropped as the pages come.
 * Without the right to list pods cluster-wide (least-privilege RBAC), the namespace's pods only,
 * and `denied` says why.
 */
export async function foldLivePods<A>(
  kube: KubeClients,
  nodeNames: readonly string[],
  namespace: string,
  init: () => A,
  add: (acc: A, pod: V1Pod) => void,
): Promise<{ acc: A; denied?: string }> {
  const wanted = new Set(nodeNames);
  const keep = (acc: A, items: V1Pod[]) => {
    for (const p of items) if (isLive(p) && wanted.has(p.spec!.nodeName!)) add(acc, p);
    return acc;
  };
  try {
    if (wanted.size <= PER_NODE_READS_MAX) {
      const lists = await Promise.all(
        [...wanted].map(n => listAll(q => kube.core.listPodForAllNamespaces({ fieldSelector: `spec.nodeName=${n},${LIVE_PODS}`, ...q }))),
      );
      return { acc: lists.reduce((acc, l) => keep(acc, l.items), init()) };
    }
    return { acc: (await foldPages(q => kube.core.listPodForAllNamespaces({ fieldSelector: LIVE_PODS, ...q }), init, keep)).acc };
  } catch (e) {
    const denied = apiErrorMessage(e);
    const own = await foldPages(q => kube.core.listNamespacedPod({ namespace, fieldSelector: LIVE_PODS, ...q }), init, keep);
    return { acc: own.acc, denied };
  }
}

const addRoom = (u: Room, r: { cpu: number; memory: number }) => {
  u.cpu += r.cpu;
  u.memory += r.memory;
  u.pods += 1;
};

/**
 * Each usable node's room: allocatable, and what live pods in all namespaces request on it.
 * Without the right to list pods cluster-wide, only the run's own namespace is counted and
 * `note` says so.
 */
export async function readNodeRooms(kube: KubeClients, nodes: NodeInfo[], namespace: string): Promise<{ rooms: NodeRoom[]; note?: string }> {
  const zero = () => ({ cpu: 0, memory: 0, pods: 0 });
  const init = () => new Map(nodes.map(n => [n.name, { used: zero(), scored: { cpu: 0, memory: 0 }, others: zero() }]));
  const read = await foldLivePods(
    kube,
    nodes.map(n => n.name),
    namespace,
    init,
    (acc, p) => {
      const at = acc.get(p.spec!.nodeName!)!;
      const r = podRequests(p.spec!);
      addRoom(at.used, r);
      at.scored.cpu += r.cpu || DEFAULT_CPU;
      at.scored.memory += r.memory || DEFAULT_MEMORY;
      if (!isNodeOwnPod(p)) addRoom(at.others, r);
    },
  ).catch(() => ({ acc: init(), denied: 'the pods could not be listed' }));
  const note = read.denied && `could not list pods in all namespaces (${read.denied}): node capacity counts only namespace ${namespace}`;
  const rooms = nodes.map(n => ({ name: n.name, allocatable: roomOf(n.allocatable), ...read.acc.get(n.name)! }));
  return { rooms, note };
}

/** A pod that comes with the node: a DaemonSet's, or a static pod (its mirror carries kubernetes.io/config.mirror). */
function isNodeOwnPod(p: V1Pod): boolean {
  return (
    (p.metadata?.ownerReferences ?? []).some(o => o.kind === 'DaemonSet' || o.kind === 'Node') ||
    p.metadata?.annotations?.['kubernetes.io/config.mirror'] !== undefined
  );
}

/** The rooms as they would be without other workloads' pods (the nodes' own pods still count). */
function withoutOthers(rooms: NodeRoom[]): NodeRoom[] {
  return rooms.map(r => {
    const o = r.others ?? { cpu: 0, memory: 0, pods: 0 };
    return { ...r, used: { cpu: r.used.cpu - o.cpu, memory: r.used.memory - o.memory, pods: r.used.pods - o.pods }, others: undefined, scored: undefined };
  });
}

// ---- demand ---------------------------------------------------------------------------------

const tolerated = (tolerations: V1Toleration[], t: { key: string; value?: string; effect: string }) =>
  tolerations.some(
    x => (!x.effect || x.effect === t.effect) && (x.operator === 'Exists' ? !x.key || x.key === t.key : x.key === t.key && (x.value ?? '') === (t.value ?? '')),
  );

/** Usable nodes the pod may land on, by the scheduler's filters (nodeName, selector, required affinity, taints). */
export function candidateNodes(pod: V1PodSpec, nodes: NodeInfo[]): NodeInfo[] {
  if (pod.nodeName) return nodes.filter(n => n.name === pod.nodeName);
  const usable = [...schedulableWindowsNodes(nodes), ...nodes.filter(n => n.os !== 'windows' && n.schedulable)];
  return usable.filter(n => {
    if (Object.entries(pod.nodeSelector ?? {}).some(([k, v]) => n.labels[k] !== v)) return false;
    const terms = pod.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
    if (terms?.length && !terms.some(t => termMatches(t, n))) return false;
    return n.taints.every(t => (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') || tolerated(pod.tolerations ?? [], t));
  });
}

function termMatches(
  term: { matchExpressions?: { key: string; operator: string; values?: string[] }[]; matchFields?: { key: string; operator: string; values?: string[] }[] },
  n: NodeInfo,
): boolean {
  const req = (r: { operator: string; values?: string[] }, v: string | undefined) => {
    switch (r.operator) {
      case 'In':
        return v !== undefined && (r.values ?? []).includes(v);
      case 'NotIn':
        return v === undefined || !(r.values ?? []).includes(v);
      case 'Exists':
        return v !== undefined;
      case 'DoesNotExist':
        return v === undefined;
      default:
        return true;
    }
  };
  if (!term.matchExpressions?.length && !term.matchFields?.length) return false;
  return (
    (term.matchExpressions ?? []).every(e => req(e, n.labels[e.key])) &&
    (term.matchFields ?? []).every(f => req(f, f.key === 'metadata.name' ? n.name : undefined))
  );
}

type Workload = KubernetesObject & { spec?: { replicas?: number; parallelism?: number; template?: { spec?: V1PodSpec } } & V1PodSpec };

/**
 * The pods a rendered fixture makes. Deployments count a rolling update's surge on top (probes
 * scale and roll them); DaemonSets one pod per candidate node (usable nodes only: the harness
 * asks nothing of cordoned or NotReady ones).
 */
export function demandOf(fixture: RenderedFixture, nodes: NodeInfo[]): PodDemand[] {
  const out: PodDemand[] = [];
  for (const obj of fixture.objects as Workload[]) {
    const kind = obj.kind ?? '';
    const spec = kind === 'Pod' ? (obj.spec as V1PodSpec | undefined) : obj.spec?.template?.spec;
    if (!spec?.containers) continue;
    const r = podRequests(spec);
    const candidates = candidateNodes(spec, nodes).map(n => n.name);
    const what = `${kind} ${obj.metadata?.name}`;
    const replicas = obj.spec?.replicas ?? 1;
    if (kind === 'DaemonSet') out.push({ ...r, count: candidates.length, perNode: true, candidates, what });
    else if (kind === 'Deployment') out.push({ ...r, count: replicas + Math.ceil(replicas / 2), perNode: false, candidates, what });
    else if (kind === 'Job') out.push({ ...r, count: obj.spec?.parallelism ?? 1, perNode: false, candidates, what });
    else out.push({ ...r, count: kind === 'Pod' ? 1 : replicas, perNode: false, candidates, what });
  }
  return out;
}

// ---- fitting --------------------------------------------------------------------------------

const free = (n: NodeRoom): Room => ({
  cpu: n.allocatable.cpu - n.used.cpu,
  memory: n.allocatable.memory - n.used.memory,
  pods: n.allocatable.pods - n.used.pods,
});
const EPS = 1e-9;

function fitsOn(n: NodeRoom, d: PodDemand): boolean {
  const f = free(n);
  return f.pods >= 1 && f.cpu + EPS >= d.cpu && f.memory >= d.memory;
}

function take(n: NodeRoom, d: PodDemand): void {
  n.used = { cpu: n.used.cpu + d.cpu, memory: n.used.memory + d.memory, pods: n.used.pods + 1 };
  n.scored = n.scored ?? { cpu: n.used.cpu - d.cpu, memory: n.used.memory - d.memory };
  n.scored = { cpu: n.scored.cpu + (d.cpu || DEFAULT_CPU), memory: n.scored.memory + (d.memory || DEFAULT_MEMORY) };
}

// kube-scheduler scores pods without requests as if they asked for this much (LeastAllocated).
const DEFAULT_CPU = 0.1;
const DEFAULT_MEMORY = 200 * 2 ** 20;

/** LeastAllocated: the share of the node's cpu and memory taken, pods without requests at the defaults. */
function allocatedShare(n: NodeRoom, d: PodDemand): number {
  const s = n.scored ?? { cpu: n.used.cpu, memory: n.used.memory };
  const cpu = (s.cpu + (d.cpu || DEFAULT_CPU)) / (n.allocatable.cpu || 1);
  const memory = (s.memory + (d.memory || DEFAULT_MEMORY)) / (n.allocatable.memory || 1);
  return (cpu + memory) / 2;
}

const clone = (rooms: NodeRoom[]) => rooms.map(r => ({ ...r, used: { ...r.used }, ...(r.scored ? { scored: { ...r.scored } } : {}) }));

/**
 * Places the demands on copies of the rooms as kube-scheduler would (each pod on the fitting
 * candidate least allocated, LeastAllocated scoring), so a pod free to go anywhere is charged
 * where the scheduler will put it. Returns the rooms after, or why a pod did not fit.
 */
export function place(rooms: NodeRoom[], demands: PodDemand[]): { rooms: NodeRoom[] } | { short: string } {
  const next = clone(rooms);
  const byName = new Map(next.map(r => [r.name, r]));
  for (const d of demands) {
    const candidates = d.candidates.map(c => byName.get(c)).filter((r): r is NodeRoom => r !== undefined);
    // Meant to stay Pending (a taint it does not tolerate) or pinned to a node the harness does not count.
    if (!candidates.length) continue;
    if (d.perNode) {
      for (const n of candidates) {
        if (!fitsOn(n, d)) return { short: shortage(d, [n]) };
        take(n, d);
      }
      continue;
    }
    // Replicas of one owner spread first (default topology spreading), then least allocated.
    const mine = new Map<string, number>();
    for (let i = 0; i < d.count; i++) {
      const fitting = candidates
        .filter(n => fitsOn(n, d))
        .sort((a, b) => (mine.get(a.name) ?? 0) - (mine.get(b.name) ?? 0) || allocatedShare(a, d) - allocatedShare(b, d) || a.name.localeCompare(b.name));
      if (!fitting.length) return { short: shortage(d, candidates, i) };
      take(fitting[0], d);
      mine.set(fitting[0].name, (mine.get(fitting[0].name) ?? 0) + 1);
    }
  }
  return { rooms: next };
}

function shortage(d: PodDemand, nodes: NodeRoom[], placed?: number): string {
  const fmtMem = (b: number) => `${Math.round(b / 2 ** 20)}Mi`;
  const need = `${d.what} needs ${d.perNode ? 'one pod per node' : `${d.count} pod(s)`} of cpu ${+d.cpu.toFixed(3)}, memory ${fmtMem(d.memory)}${placed !== undefined ? ` (${placed} placed)` : ''}`;
  const have = nodes.map(n => {
    const f = free(n);
    return `${n.name}: ${Math.max(0, f.pods)} pod slot(s), cpu ${+Math.max(0, f.cpu).toFixed(3)}, memory ${fmtMem(Math.max(0, f.memory))} free of allocatable pods ${n.allocatable.pods}, cpu ${+n.allocatable.cpu.toFixed(3)}, memory ${fmtMem(n.allocatable.memory)}`;
  });
  return `${need}; ${have.join('; ') || 'no candidate node'}`;
}

/**
 * A wave's pods as the scheduler sees them when those free to go to several nodes come first.
 * `place` charges such a pod where kube-scheduler would put it after the pods planned before it,
 * but the pods are made in another order and the ones free to choose often come before the pods
 * bound to one node (their build's only node, nodeName, a DaemonSet's): a pod that arrives early
 * goes where the least is allocated then, often the node the others are bound to (the largest).
 * Counting those, a recreated StatefulSet pod or a rolling update's surge pod keeps its room.
 */
export interface FirstComers {
  /** The rooms after the pods free to go to several nodes, placed before any other. */
  rooms: NodeRoom[];
  /** Per node, what the pods bound to it request. */
  bound: Map<string, Room>;
}

export const firstComers = (rooms: NodeRoom[]): FirstComers => ({ rooms, bound: new Map() });

/** The first comers with more demands, or the node that could not then hold its bound pods. */
export function withFirstComers(state: FirstComers, demands: PodDemand[]): FirstComers | { short: string } {
  const names = new Set(state.rooms.map(r => r.name));
  const isFree = (d: PodDemand) => !d.perNode && d.candidates.filter(c => names.has(c)).length > 1;
  const placed = place(state.rooms, demands.filter(isFree));
  if ('short' in placed) return placed;
  const bound = new Map(state.bound);
  for (const d of demands.filter(d => !isFree(d)))
    for (const c of d.candidates.filter(c => names.has(c)).slice(0, d.perNode ? undefined : 1)) {
      const per = d.perNode ? 1 : d.count;
      const b = bound.get(c) ?? { cpu: 0, memory: 0, pods: 0 };
      bound.set(c, { cpu: b.cpu + per * d.cpu, memory: b.memory + per * d.memory, pods: b.pods + per });
    }
  for (const r of placed.rooms) {
    const b = bound.get(r.name);
    if (!b) continue;
    const f = free(r);
    if (b.pods > f.pods || b.cpu > f.cpu + EPS || b.memory > f.memory)
      return {
        short: `${r.name}: its bound pods need ${b.pods} pod slot(s), cpu ${+b.cpu.toFixed(3)}, but pods free to go elsewhere may leave ${Math.max(0, f.pods)} slot(s), cpu ${+Math.max(0, f.cpu).toFixed(3)}`,
      };
  }
  return { rooms: placed.rooms, bound };
}

/** The rooms with RESERVED_PODS_PER_NODE pod slots taken on each node. */
export function withReserve(rooms: NodeRoom[], pods = RESERVED_PODS_PER_NODE): NodeRoom[] {
  return rooms.map(r => ({ ...r, used: { ...r.used, pods: r.used.pods + pods } }));
}

export interface Wave {
  /** Features whose checks run in this wave. */
  features: string[];
  /** Fixtures to create at the start of the wave (the others it uses are kept from the wave before). */
  deploy: string[];
  /** Fixtures to delete once the wave's checks are done (no later feature uses them). */
  release: string[];
}

export interface WavePlan {
  waves: Wave[];
  /** Fixture id → why it cannot fit even alone, with the numbers (the nodes' own pods leave no room: n/a). */
  unfit: Map<string, string>;
  /** Fixture id → why it cannot fit now: it would, but other workloads hold the room (an error of the means). */
  crowded: Map<string, string>;
}

/** A feature as the wave plan sees it: its fixtures' keys, and whether its check waits for every routine check. */
export interface WaveFeature {
  id: string;
  fixtures: string[];
  /**
   * Its check begins only once every other check has ended (disruptive checks, lib/run/disruptive.ts):
   * it goes in no wave before the last routine feature's, or that wave would wait for it forever.
   */
  afterRoutine?: boolean;
}

/**
 * Groups features into waves whose fixtures fit together (features in catalog order, those
 * `afterRoutine` last; a feature's fixtures always in one wave). A fixture still needed later
 * stays up between waves.
 */
export function planWaves(features: WaveFeature[], demand: Map<string, PodDemand[]>, rooms: NodeRoom[]): WavePlan {
  const unfit = new Map<string, string>();
  const crowded = new Map<string, string>();
  const empty = withoutOthers(rooms);
  for (const [id, d] of demand) {
    const r = place(rooms, d);
    if (!('short' in r)) continue;
    if ('short' in place(empty, d)) unfit.set(id, r.short);
    else crowded.set(id, `${r.short}; ${othersLine(rooms, d)}`);
  }
  const planned = features.filter(f => f.fixtures.length && f.fixtures.every(x => demand.has(x) && !unfit.has(x) && !crowded.has(x)));
  let remaining = [...planned.filter(f => !f.afterRoutine), ...planned.filter(f => f.afterRoutine)];
  const waves: Wave[] = [];
  let live = new Set<string>();
  // Kept fixtures leave no room for any remaining feature: release them after the last wave; they are made again when needed.
  const dropLive = () => {
    waves[waves.length - 1].release.push(...live);
    live = new Set();
  };
  while (remaining.length) {
    let usage = rooms;
    const kept = [...live];
    const keptDemand = kept.flatMap(x => demand.get(x)!);
    // The wave must fit both ways: in the order planned, and with the free pods come first.
    const afterKept = place(usage, keptDemand);
    const keptFirst = withFirstComers(firstComers(rooms), keptDemand);
    if ('short' in afterKept || 'short' in keptFirst) {
      dropLive();
      continue;
    }
    usage = afterKept.rooms;
    let first = keptFirst;
    const inWave = new Set(kept);
    const taken: typeof remaining = [];
    for (const f of remaining) {
      // Not while a routine feature is left for a later wave.
      if (f.afterRoutine && remaining.some(g => !g.afterRoutine && !taken.includes(g))) break;
      const fresh = f.fixtures.filter(x => !inWave.has(x));
      const freshDemand = fresh.flatMap(x => demand.get(x)!);
      const r = place(usage, freshDemand);
      const early = 'short' in r ? r : withFirstComers(first, freshDemand);
      if ('short' in r || 'short' in early) continue;
      usage = r.rooms;
      first = early;
      for (const x of fresh) inWave.add(x);
      taken.push(f);
    }
    if (!taken.length) {
      if (live.size) {
        dropLive();
        continue;
      }
      // Each fixture fits alone but this feature's together do not: its own wave, the scheduler decides.
      taken.push(remaining[0]);
      for (const x of remaining[0].fixtures) inWave.add(x);
    }
    remaining = remaining.filter(f => !taken.includes(f));
    const laterNeed = new Set(remaining.flatMap(f => f.fixtures));
    const used = new Set(taken.flatMap(f => f.fixtures));
    const wave: Wave = {
      features: taken.map(f => f.id),
      deploy: [...used].filter(x => !live.has(x)),
      release: [...new Set([...live, ...used])].filter(x => !laterNeed.has(x)),
    };
    waves.push(wave);
    live = new Set([...live, ...used].filter(x => laterNeed.has(x)));
  }
  return { waves, unfit, crowded };
}

/** What other workloads hold on the demand's candidate nodes. */
function othersLine(rooms: NodeRoom[], demands: PodDemand[]): string {
  const names = new Set(demands.flatMap(d => d.candidates));
  const held = rooms
    .filter(r => names.has(r.name) && r.others?.pods)
    .map(r => `${r.name}: ${r.others!.pods} pod(s), cpu ${+r.others!.cpu.toFixed(3)}, memory ${Math.round(r.others!.memory / 2 ** 20)}Mi`);
  return `held by other workloads (not DaemonSet or static pods): ${held.join('; ') || 'none'}`;
}

/** Usable nodes the harness places on: schedulable Windows nodes and Linux nodes helpers can use. */
export function placeableNodes(nodes: NodeInfo[]): NodeInfo[] {
  return [...schedulableWindowsNodes(nodes), ...usableLinuxNodes(nodes)];
}

// ---- sizing ---------------------------------------------------------------------------------

/** A quantity scaled down: cpu to whole millicores, memory to whole Mi (never below 1m / 1Mi). */
function scaled(q: string | undefined, scale: number, kind: 'cpu' | 'memory'): string | undefined {
  const v = parseQuantity(q);
  if (v === undefined) return q;
  return kind === 'cpu' ? `${Math.max(1, Math.floor(v * scale * 1000))}m` : `${Math.max(1, Math.floor((v * scale) / 2 ** 20))}Mi`;
}

function scalePodSpec(spec: V1PodSpec, scale: number, kinds: ('cpu' | 'memory')[]): void {
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    for (const list of [c.resources?.requests, c.resources?.limits]) {
      if (!list) continue;
      for (const kind of kinds) if (list[kind] !== undefined) list[kind] = scaled(String(list[kind]), scale, kind)!;
    }
  }
}

function podSpecsOf(fixture: RenderedFixture): V1PodSpec[] {
  return (fixture.objects as Workload[])
    .map(o => (o.kind === 'Pod' ? (o.spec as V1PodSpec | undefined) : o.spec?.template?.spec))
    .filter((s): s is V1PodSpec => !!s?.containers);
}

/**
 * For a fixture whose resources are the subject (res.limits): when it does not fit the nodes as
 * written, scales its cpu and memory requests and limits down, by the largest factor that fits
 * (halving, then refining), so the check still sees limits applied. Returns what was done, for
 * the log; the probe reads the sized values from the rendered fixture.
 */
export function sizeToFit(fixture: RenderedFixture, nodes: NodeInfo[], rooms: NodeRoom[]): string | undefined {
  const fits = (f: RenderedFixture) => !('short' in place(rooms, demandOf(f, nodes)));
  if (fits(fixture)) return undefined;
  // CPU first (small nodes are short of it); memory too only if that is not enough.
  let sized: RenderedFixture | undefined;
  for (const kinds of [['cpu'], ['cpu', 'memory']] as ('cpu' | 'memory')[][]) {
    const trial = (scale: number): RenderedFixture => {
      const copy = structuredClone(fixture);
      for (const spec of podSpecsOf(copy)) scalePodSpec(spec, scale, kinds);
      return copy;
    };
    let lo = 0;
    let hi = 1;
    for (let i = 0; i < 12; i++) {
      const mid = (lo + hi) / 2;
      if (fits(trial(mid))) lo = mid;
      else hi = mid;
    }
    if (lo > 0 && fits(trial(lo))) {
      sized = trial(lo);
      break;
    }
  }
  if (!sized) return undefined;
  const before = podSpecsOf(fixture).flatMap(s => s.containers.map(c => JSON.stringify(c.resources?.limits ?? c.resources?.requests ?? {})));
  fixture.objects = sized.objects;
  const after = podSpecsOf(fixture).flatMap(s => s.containers.map(c => JSON.stringify(c.resources?.limits ?? c.resources?.requests ?? {})));
  return `fixture ${fixture.spec.id} sized to the nodes' free room: ${before.join(', ')} → ${after.join(', ')}`;
}

// ---- room taken by others, at check time ----------------------------------------------------

const fmtCpu = (c: number) => `${Math.round(c * 1000)}m`;
const fmtMi = (b: number) => `${Math.round(b / 2 ** 20)}Mi`;

/**
 * A capacity MeansError (a pod found no room after planning: FailedScheduling "Insufficient
 * cpu", the kubelet's OutOfcpu) with its numbers: what the pod requests and, on each node it
 * could use, allocatable, what this run's pods request and what other pods request. Other pods
 * taking the room is an error of the harness's means, never an observation of the feature.
 */
export async function withCapacityNumbers(o: { kube: KubeClients; nodes: NodeInfo[]; runId: string }, e: MeansError): Promise<MeansError> {
  if (e.means !== 'capacity' || !e.pod) return e;
  const { kube } = o;
  const pod = await kube.core.readNamespacedPod(e.pod);
  const nodes = pod.spec?.nodeName ? o.nodes.filter(n => n.name === pod.spec!.nodeName) : candidateNodes(pod.spec!, o.nodes);
  const { runId } = o;
  const req = podRequests(pod.spec!);
  const zero = () => ({ cpu: 0, memory: 0, pods: 0 });
  type OnNode = { ours: Room; others: Room; largest: { name: string; cpu: number; memory: number }[] };
  const init = () => new Map<string, OnNode>(nodes.map(n => [n.name, { ours: zero(), others: zero(), largest: [] }]));
  const read = await foldLivePods(
    kube,
    nodes.map(n => n.name),
    e.pod.namespace,
    init,
    (acc, p) => {
      if (p.metadata?.uid === pod.metadata?.uid) return;
      const at = acc.get(p.spec!.nodeName!)!;
      const r = podRequests(p.spec!);
      if (runId && p.metadata?.labels?.[RUN_LABEL] === runId) return addRoom(at.ours, r);
      addRoom(at.others, r);
      // The three largest requests of others, kept as the pages come.
      if (r.cpu || r.memory) {
        at.largest.push({ name: `${p.metadata?.namespace}/${p.metadata?.name}`, ...r });
        at.largest.sort((x, y) => y.cpu - x.cpu || y.memory - x.memory).splice(3);
      }
    },
  );
  const scope = read.denied ? ` (could not list pods in all namespaces, ${read.denied}: others' pods are not counted)` : '';
  const perNode = nodes.map(n => {
    const { ours, others, largest } = read.acc.get(n.name)!;
    const a = roomOf(n.allocatable);
    const most = largest.map(x => `${x.name} cpu ${fmtCpu(x.cpu)}, memory ${fmtMi(x.memory)}`);
    return `${n.name}: allocatable cpu ${fmtCpu(a.cpu)}, memory ${fmtMi(a.memory)}, ${a.pods} pods; used by this run cpu ${fmtCpu(ours.cpu)}, memory ${fmtMi(ours.memory)}, ${ours.pods} pod(s); used by others cpu ${fmtCpu(others.cpu)}, memory ${fmtMi(others.memory)}, ${others.pods} pod(s)${most.length ? ` (largest: ${most.join('; ')})` : ''}`;
  });
  const numbers = `pod ${e.pod.namespace}/${e.pod.name} requests cpu ${fmtCpu(req.cpu)}, memory ${fmtMi(req.memory)}; ${perNode.join('; ') || 'no node it could use'}${scope}`;
  return new MeansError('capacity', `${e.message}; no room on the nodes: ${numbers}`, { cause: e, pod: e.pod });
}
