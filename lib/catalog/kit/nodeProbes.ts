// Helpers shared by the resources, isolation, security and node features (a "_" file: not a
// catalog file). Quantities, the kubelet summary API, node transports, and watches over a set
// of pods where a Deployment or DaemonSet rollout wait would hide why a pod did not start.

import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import picomatch from 'picomatch';
import { MeansError, PLATFORM_MISMATCH, refusalMeans } from '../../cluster/meansError.ts';
import { podEvents, PodStartError } from '../../cluster/podWait.ts';
import { podSettles, type PodOutcome } from './observe.ts';
import { describePod, failFastReason, isPodReady } from '../../cluster/podState.ts';
import { rawGet } from '../../cluster/rawGet.ts';
import { watchUntil } from '../../cluster/watch.ts';
import type { NodeInfo } from '../../discovery/types.ts';
import type { Transport } from '../../probes/types.ts';
import type { CheckContext, Observation } from '../types.ts';

// ---- quantities ---------------------------------------------------------------------------

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** A Kubernetes quantity as a plain number ("128Mi" → 134217728, "500m" → 0.5, "2" → 2). */
export function parseQuantity(q: string | number | undefined): number | undefined {
  if (q === undefined) return undefined;
  if (typeof q === 'number') return q;
  const m = /^([+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$/.exec(q.trim());
  if (!m) return undefined;
  const unit = m[2] ?? '';
  return Number(m[1]) * (BINARY[unit] ?? DECIMAL[unit]);
}

export function formatBytes(n: number): string {
  if (Math.abs(n) >= 2 ** 30) return `${(n / 2 ** 30).toFixed(2).replace(/\.?0+$/, '')}Gi`;
  return `${Math.round(n / 2 ** 20)}Mi`;
}

// ---- kubelet summary API ------------------------------------------------------------------

interface CpuStats { time?: string; usageNanoCores?: number; usageCoreNanoSeconds?: number }
interface MemoryStats { time?: string; workingSetBytes?: number; usageBytes?: number; availableBytes?: number }
export interface ContainerStats { name: string; cpu?: CpuStats; memory?: MemoryStats }
export interface PodStats { podRef: { name: string; namespace: string; uid?: string }; cpu?: CpuStats; memory?: MemoryStats; containers?: ContainerStats[] }
export interface StatsSummary { node: { nodeName: string; cpu?: CpuStats; memory?: MemoryStats }; pods?: PodStats[] }

/** GET nodes/<node>/proxy/stats/summary through the API server (the kubelet's summary API). */
export async function kubeletSummary(ctx: CheckContext, node: string): Promise<StatsSummary> {
  const path = `/api/v1/nodes/${encodeURIComponent(node)}/proxy/stats/summary`;
  const r = await rawGet(ctx.kube, path, { requestTimeoutMs: 30_000 });
  if (r.status !== 200) {
    const means = refusalMeans(r.status, r.body);
    const message = `GET ${path}: HTTP ${r.status}: ${r.body.slice(0, 200)}`;
    throw means ? new MeansError(means, message) : new Error(message);
  }
  try {
    return JSON.parse(r.body) as StatsSummary;
  } catch {
    throw new Error(`GET ${path}: the answer is not JSON: ${r.body.slice(0, 200)}`);
  }
}

export function podStatsOf(s: StatsSummary, namespace: string, pod: string): PodStats | undefined {
  return s.pods?.find(p => p.podRef.namespace === namespace && p.podRef.name === pod);
}

// ---- node access --------------------------------------------------------------------------

export type NodeTransportOutcome = { transport: Transport } | { na: Observation };

/** The node's transport, or an n/a observation saying there is none. */
export async function nodeTransportOf(ctx: CheckContext, nodeName: string | undefined): Promise<NodeTransportOutcome> {
  const node = ctx.cluster.nodes.find(n => n.name === nodeName);
  if (!node) throw new Error(`node ${nodeName ?? '(none)'} is not in the discovered cluster`);
  const transport = await ctx.nodeTransport(node);
  if (transport) return { transport };
  return { na: { works: false, summary: 'no node access', evidence: [], node: node.name, notApplicable: `no HostProcess pod or SSH session on node ${node.name} is possible (${ctx.cluster.nodeAccess.hostProcessReason || 'HostProcess not possible'}; ${ctx.cluster.nodeAccess.sshReason || 'SSH not configured'})` } };
}

/**
 * The Windows nodes a node-level check visits: every Ready one (release qualification needs
 * all), or those --nodes selects.
 */
export function readyWindowsNodes(ctx: CheckContext): NodeInfo[] {
  return selectedNodes(ctx, ctx.cluster.nodes.filter(n => n.os === 'windows' && n.ready));
}

/**
 * The nodes --nodes selects (globs over names), all of them without a selection. A selection
 * that matches none of them is an error naming it, never a silent pass over nothing.
 */
export function selectedNodes(ctx: CheckContext, nodes: NodeInfo[]): NodeInfo[] {
  const globs = ctx.options.nodes ?? [];
  if (!globs.length) return nodes;
  const selected = picomatch(globs);
  const chosen = nodes.filter(n => selected(n.name));
  if (!chosen.length) throw new Error(`--nodes ${globs.join(', ')} matches none of the Windows nodes ${nodes.map(n => n.name).join(', ') || '(none)'}`);
  return chosen;
}

// ---- pod sets -----------------------------------------------------------------------------

export type PodSettled =
  | { state: 'ready'; pod: V1Pod }
  | { state: 'unschedulable'; pod: V1Pod; message: string }
  | { state: 'failed'; pod: V1Pod; reason: string };

export function settledOf(pod: V1Pod): PodSettled | undefined {
  if (isPodReady(pod)) return { state: 'ready', pod };
  const why = failFastReason(pod);
  if (why === 'FailedScheduling') {
    const c = pod.status?.conditions?.find(x => x.type === 'PodScheduled');
    return { state: 'unschedulable', pod, message: c?.message ?? 'Unschedulable' };
  }
  if (why) return { state: 'failed', pod, reason: `${why}: ${describePod(pod)}` };
  return undefined;
}

/**
 * Waits by watch until `want` pods match the selector and each is Ready, unschedulable or
 * failed for good. Returns what each pod came to.
 */
export function waitForPodSet(ctx: CheckContext, labelSelector: string, want: number, timeoutMs: number): Promise<PodSettled[]> {
  const cannot = ctx.podsCannotAppear({ labelSelector });
  if (cannot) return Promise.reject(cannot);
  const pods = new Map<string, V1Pod>();
  const evaluate = (): PodSettled[] | undefined => {
    const live = [...pods.values()].filter(p => !p.metadata?.deletionTimestamp);
    if (live.length < want) return undefined;
    const settled = live.map(settledOf);
    return settled.every(Boolean) ? settled as PodSettled[] : undefined;
  };
  return watchUntil<V1Pod, PodSettled[]>({
    kube: ctx.kube,
    path: `/api/v1/namespaces/${ctx.namespace}/pods`,
    labelSelector,
    list: () => ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector }),
    onList: items => { pods.clear(); for (const p of items) pods.set(p.metadata!.name!, p); return evaluate(); },
    check: (p, type) => {
      if (type === 'DELETED') pods.delete(p.metadata!.name!);
      else pods.set(p.metadata!.name!, p);
      return evaluate();
    },
    what: `${want} pod(s) ${labelSelector} to be Ready or fail`,
    describe: () => [...pods.values()].map(p => `${p.metadata?.name}: ${describePod(p)}`).join(' | ') || 'no pod seen',
    timeoutMs,
    signal: ctx.signal,
  });
}

/**
 * After a pod-set wait timed out: when the workload made no pod at all, its controller (the
 * harness's means) failed, not the feature; throws MeansError then.
 */
export async function throwIfNoPodMade(ctx: CheckContext, labelSelector: string, workload: string, e: Error): Promise<void> {
  const made = await ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector });
  if (!made.items.length) throw new MeansError('workload-controller', `${workload} made no pod: ${e.message}`, { cause: e });
}

/**
 * Resolves with the first FailedCreatePodSandBox event of a pod whose name starts with
 * `prefix` (a sandbox that cannot start leaves the pod ContainerCreating: only events say why).
 * Never resolves otherwise; abort it with `signal`.
 */
export function firstSandboxFailure(ctx: CheckContext, prefix: string, signal: AbortSignal): Promise<string> {
  const match = (ev: CoreV1Event) => ev.reason === 'FailedCreatePodSandBox' && (ev.involvedObject?.name ?? '').startsWith(prefix)
    ? `${ev.involvedObject?.name}: ${ev.reason}: ${ev.message ?? ''}` : undefined;
  return watchUntil<CoreV1Event, string>({
    kube: ctx.kube,
    path: `/api/v1/namespaces/${ctx.namespace}/events`,
    list: () => ctx.kube.core.listNamespacedEvent({ namespace: ctx.namespace }),
    check: ev => match(ev),
    what: `sandbox failures of pods ${prefix}*`,
    describe: () => 'none',
    timeoutMs: 24 * 3600_000,
    signal,
  });
}

/** Last few events of a pod, for evidence. */
export async function recentEvents(ctx: CheckContext, pod: string, n = 5): Promise<string[]> {
  return (await podEvents(ctx.kube, ctx.namespace, pod).catch(() => [])).slice(-n);
}

export { PLATFORM_MISMATCH };

/**
 * podSettles, except that a pull failing for want of the node's platform counts as the pod not
 * starting (an observation) rather than an unrelated pull problem (an error): for images chosen
 * for the node's build, that failure is what process isolation or a pause image got wrong.
 */
export async function podSettlesOrMismatch(ctx: CheckContext, name: string): Promise<PodOutcome> {
  try {
    return await podSettles(ctx, name, 'ready');
  } catch (e) {
    if (e instanceof MeansError && e.means === 'image-platform' && e.cause instanceof PodStartError) return { ok: false, error: e.cause };
    throw e;
  }
}
