// The scheduler's filter plugins, in kube-scheduler's order (NodeUnschedulable,
// TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit), each giving the reason
// text the real plugin reports. Also used by the DaemonSet controller (without resources).

import type { V1NodeSelectorRequirement, V1NodeSelectorTerm, V1Node, V1Pod, V1Taint, V1Toleration } from '@kubernetes/client-node';
import type { Profile } from '../profiles/types.ts';
import { isBroken } from '../profiles/load.ts';
import { parseQuantity } from '../../util/quantity.ts';
import { UNSCHEDULABLE_TAINT } from '../nodes/nodeObject.ts';

export interface NodeUsage {
  cpu: number;
  memory: number;
  pods: number;
  hostPorts: Set<string>;
  /** ephemeral-storage and extended resources (nvidia.com/gpu...) requested by the node's pods. */
  other?: Record<string, number>;
}

export interface FitOptions {
  profile: Profile;
  /**
   * What pods already bound to the node request; resources and ports are checked only when given.
   * A function is called only for a node that passes the other filters (summing a node's pods is
   * the costly part on a cluster of thousands of pods).
   */
  usage?: NodeUsage | (() => NodeUsage);
}

export interface FitFailure {
  reasons: string[];
  /** false when preemption cannot help (taints, affinity): "Preemption is not helpful". */
  resolvable: boolean;
}

const OS_LABEL = 'kubernetes.io/os';
export { UNSCHEDULABLE_TAINT };
const NOT_READY_TAINT: V1Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };

/** undefined when the pod fits; otherwise the reasons, as in FailedScheduling messages. */
export function podFitsNode(pod: V1Pod, node: V1Node, opts: FitOptions): FitFailure | undefined {
  const tolerations = pod.spec?.tolerations ?? [];
  if (node.spec?.unschedulable && !tolerations.some(t => tolerates(t, UNSCHEDULABLE_TAINT)))
    return { reasons: ['node(s) were unschedulable'], resolvable: false };
  const taint = untoleratedTaint(pod, node, opts.profile);
  if (taint) return { reasons: [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`], resolvable: false };
  if (!matchesNodeSelectorAndAffinity(pod, node, opts.profile)) return { reasons: ["node(s) didn't match Pod's node affinity/selector"], resolvable: false };
  if (!opts.usage) return undefined;
  const usage = typeof opts.usage === 'function' ? opts.usage() : opts.usage;
  const wanted = podHostPorts(pod);
  if ([...wanted].some(p => usage.hostPorts.has(p))) return { reasons: ["node(s) didn't have free ports for the requested pod ports"], resolvable: true };
  const reasons = insufficientResources(pod, node, usage, opts.profile);
  return reasons.length ? { reasons, resolvable: true } : undefined;
}

export function tolerates(t: V1Toleration, taint: V1Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  if (!t.key && t.operator !== 'Exists') return false;
  if (t.operator === 'Exists') return true;
  return (t.value ?? '') === (taint.value ?? '');
}

function isNodeReady(node: V1Node): boolean {
  return node.status?.conditions?.find(c => c.type === 'Ready')?.status === 'True';
}

function untoleratedTaint(pod: V1Pod, node: V1Node, profile: Profile): V1Taint | undefined {
  if (node.metadata?.labels?.[OS_LABEL] === 'windows' && isBroken(profile, 'taint-enforcement', node.metadata?.name)) return undefined;
  const taints = [...(node.spec?.taints ?? [])];
  // A NotReady node without its taint yet (lifecycle controller lag) is treated as tainted.
  if (!isNodeReady(node) && !taints.some(t => t.key === NOT_READY_TAINT.key)) taints.push(NOT_READY_TAINT);
  const tolerations = pod.spec?.tolerations ?? [];
  return taints.find(t => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !tolerations.some(tol => tolerates(tol, t)));
}

export function matchesNodeSelectorAndAffinity(pod: V1Pod, node: V1Node, profile: Profile): boolean {
  const ignoreOS = isBroken(profile, 'scheduler-os-selector', node.metadata?.name);
  const labels = node.metadata?.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec?.nodeSelector ?? {})) {
    if (ignoreOS && k === OS_LABEL) continue;
    if (labels[k] !== v) return false;
  }
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!terms) return true;
  return terms.some(term => termMatches(term, node, ignoreOS));
}

function termMatches(term: V1NodeSelectorTerm, node: V1Node, ignoreOS: boolean): boolean {
  const exprs = (term.matchExpressions ?? []).filter(e => !(ignoreOS && e.key === OS_LABEL));
  const fields = term.matchFields ?? [];
  // An empty term matches nothing (as in the API).
  if (!exprs.length && !fields.length) return false;
  const labels = node.metadata?.labels ?? {};
  return (
    exprs.every(e => requirementMatches(e, labels[e.key])) &&
    fields.every(f => requirementMatches(f, f.key === 'metadata.name' ? node.metadata?.name : undefined))
  );
}

function requirementMatches(r: V1NodeSelectorRequirement, value: string | undefined): boolean {
  const values = r.values ?? [];
  switch (r.operator) {
    case 'In':
      return value !== undefined && values.includes(value);
    case 'NotIn':
      return value === undefined || !values.includes(value);
    case 'Exists':
      return value !== undefined;
    case 'DoesNotExist':
      return value === undefined;
    case 'Gt':
      return value !== undefined && Number(value) > Number(values[0]);
    case 'Lt':
      return value !== undefined && Number(value) < Number(values[0]);
    default:
      return false;
  }
}

/** Sum of the weights of the pod's preferred node affinity terms this node matches. */
export function preferredAffinityScore(pod: V1Pod, node: V1Node): number {
  const terms = pod.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? [];
  return terms.reduce((sum, t) => sum + (termMatches(t.preference, node, false) ? t.weight : 0), 0);
}

export interface PodRequests {
  cpu: number;
  memory: number;
}

/** Effective requests: max(sum of containers, largest init container) + overhead; limits stand in for unset requests. */
export function podRequests(pod: V1Pod): PodRequests {
  const of = (c: { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }, r: 'cpu' | 'memory') =>
    parseQuantity(c.resources?.requests?.[r] ?? c.resources?.limits?.[r]) || 0;
  const sum = (r: 'cpu' | 'memory') => (pod.spec?.containers ?? []).reduce((a, c) => a + of(c, r), 0);
  const init = (r: 'cpu' | 'memory') => Math.max(0, ...(pod.spec?.initContainers ?? []).map(c => of(c, r)));
  const overhead = (r: 'cpu' | 'memory') => parseQuantity(pod.spec?.overhead?.[r]) || 0;
  return {
    cpu: Math.max(sum('cpu'), init('cpu')) + overhead('cpu'),
    memory: Math.max(sum('memory'), init('memory')) + overhead('memory'),
  };
}

/**
 * What a pod requests beyond cpu and memory: ephemeral-storage and extended resources
 * (for those, requests equal limits; a limit alone stands in, as the API defaults it).
 */
export function podOtherRequests(pod: V1Pod): Record<string, number> {
  const of = (c: { resources?: { requests?: Record<string, string>; limits?: Record<string, string> } }) => {
    const names = new Set([...Object.keys(c.resources?.requests ?? {}), ...Object.keys(c.resources?.limits ?? {})]);
    const out: Record<string, number> = {};
    for (const r of names)
      if (r !== 'cpu' && r !== 'memory' && !r.startsWith('hugepages-')) out[r] = parseQuantity(c.resources?.requests?.[r] ?? c.resources?.limits?.[r]) || 0;
    return out;
  };
  const total: Record<string, number> = {};
  for (const c of pod.spec?.containers ?? []) for (const [r, v] of Object.entries(of(c))) total[r] = (total[r] ?? 0) + v;
  for (const c of pod.spec?.initContainers ?? []) for (const [r, v] of Object.entries(of(c))) total[r] = Math.max(total[r] ?? 0, v);
  return total;
}

/** Adds a pod's requests to a node's usage (the scheduler's and the kubelet's bookkeeping). */
export function addUsage(usage: NodeUsage, pod: V1Pod): void {
  const r = podRequests(pod);
  usage.pods++;
  usage.cpu += r.cpu;
  usage.memory += r.memory;
  usage.other ??= {};
  for (const [k, v] of Object.entries(podOtherRequests(pod))) usage.other[k] = (usage.other[k] ?? 0) + v;
  for (const hp of podHostPorts(pod)) usage.hostPorts.add(hp);
}

export function podHostPorts(pod: V1Pod): Set<string> {
  const out = new Set<string>();
  for (const c of pod.spec?.containers ?? []) for (const p of c.ports ?? []) if (p.hostPort) out.add(`${p.protocol ?? 'TCP'}/${p.hostPort}`);
  return out;
}

function insufficientResources(pod: V1Pod, node: V1Node, usage: NodeUsage, profile: Profile): string[] {
  const alloc = node.status?.allocatable ?? {};
  const req = podRequests(pod);
  const reasons: string[] = [];
  if (usage.pods + 1 > (parseQuantity(alloc.pods) || 0)) reasons.push('Too many pods');
  if (req.cpu > 0 && usage.cpu + req.cpu > (parseQuantity(alloc.cpu) ?? 0) + 1e-9) reasons.push('Insufficient cpu');
  // Broken: the scheduler does not count memory on Windows nodes (the kubelet's admission still does: OutOfmemory).
  const memoryCounted = !(node.metadata?.labels?.[OS_LABEL] === 'windows' && isBroken(profile, 'scheduler-memory-fit', node.metadata?.name));
  if (memoryCounted && req.memory > 0 && usage.memory + req.memory > (parseQuantity(alloc.memory) ?? 0)) reasons.push('Insufficient memory');
  for (const [name, wanted] of Object.entries(podOtherRequests(pod)).sort())
    if (wanted > 0 && (usage.other?.[name] ?? 0) + wanted > (parseQuantity(alloc[name]) || 0)) reasons.push(`Insufficient ${name}`);
  return reasons;
}

/** kube-scheduler's FitError text: reasons counted, sorted as strings, then the preemption summary. */
export function failedSchedulingMessage(totalNodes: number, failures: FitFailure[]): string {
  if (totalNodes === 0) return 'no nodes available to schedule pods';
  const counts = new Map<string, number>();
  for (const f of failures) for (const r of f.reasons) counts.set(r, (counts.get(r) ?? 0) + 1);
  const reasons = [...counts].map(([r, n]) => `${n} ${r}`).sort();
  let msg = `0/${totalNodes} nodes are available:`;
  if (reasons.length) msg += ` ${reasons.join(', ')}.`;
  const notHelpful = failures.filter(f => !f.resolvable).length;
  const noVictims = failures.length - notHelpful;
  const pre = [
    ...(noVictims ? [`${noVictims} No preemption victims found for incoming pod`] : []),
    ...(notHelpful ? [`${notHelpful} Preemption is not helpful for scheduling`] : []),
  ].sort();
  msg += ` preemption: 0/${totalNodes} nodes are available: ${pre.join(', ')}.`;
  return msg;
}

/**
 * The kubelet's own admission of a pod bound to its node (its lifecycle predicate, run even
 * when the scheduler was bypassed with spec.nodeName): the first resource the node cannot
 * give, with the reason (OutOfpods, OutOfcpu, OutOfmemory, OutOf<resource>) and message the
 * kubelet writes into the rejected pod's status. cpu in millicores, memory in bytes.
 */
export function kubeletRejection(pod: V1Pod, allocatable: Record<string, string>, admitted: V1Pod[]): { reason: string; message: string } | undefined {
  const usage: NodeUsage = { cpu: 0, memory: 0, pods: 0, hostPorts: new Set(), other: {} };
  for (const p of admitted) addUsage(usage, p);
  const req = podRequests(pod);
  const amount = (name: string) => parseQuantity(allocatable[name]) || 0;
  const checks: [string, number, number, number][] = [
    ['pods', 1, usage.pods, amount('pods')],
    ['cpu', req.cpu * 1000, usage.cpu * 1000, amount('cpu') * 1000],
    ['memory', req.memory, usage.memory, amount('memory')],
    ...Object.entries(podOtherRequests(pod))
      .sort()
      .map(([name, v]): [string, number, number, number] => [name, v, usage.other![name] ?? 0, amount(name)]),
  ];
  for (const [name, requested, used, capacity] of checks) {
    if (requested > 0 && used + requested > capacity + 1e-6)
      return {
        reason: `OutOf${name}`,
        message: `Pod was rejected: Node didn't have enough resource: ${name}, requested: ${Math.round(requested)}, used: ${Math.round(used)}, capacity: ${Math.round(capacity)}`,
      };
  }
  return undefined;
}
