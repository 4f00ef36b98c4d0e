// The kubelet's summary API (nodes/<node>/proxy/stats/summary) read through the API server.

import type { CheckContext } from '../types.ts';
import { MeansError, refusalMeans } from '../../cluster/meansError.ts';
import { rawGet } from '../../cluster/rawGet.ts';
import { pause } from '../../../util/pause.ts';

interface CpuStats {
  time?: string;
  usageNanoCores?: number;
  usageCoreNanoSeconds?: number;
}

interface MemoryStats {
  time?: string;
  workingSetBytes?: number;
  usageBytes?: number;
  availableBytes?: number;
}

export interface ContainerStats {
  name: string;
  cpu?: CpuStats;
  memory?: MemoryStats;
  logs?: FsStats;
}

/** A filesystem's or volume's stats (statsapi FsStats; a volume adds its name). */
export interface FsStats {
  name?: string;
  capacityBytes?: number;
  availableBytes?: number;
  usedBytes?: number;
}

export interface PodStats {
  podRef: { name: string; namespace: string; uid?: string };
  cpu?: CpuStats;
  memory?: MemoryStats;
  containers?: ContainerStats[];
  volume?: FsStats[];
}

export interface StatsSummary {
  node: { nodeName: string; cpu?: CpuStats; memory?: MemoryStats; fs?: FsStats };
  pods?: PodStats[];
}

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

/** Spacing of summary polls: the kubelet refreshes its stats every 10-15 s (volumes every minute). */
const SUMMARY_POLL_MS = 2_000;

/** Polls the node's summary until `found` returns a value or the deadline passes. */
export async function summaryUntil<T>(
  ctx: CheckContext,
  node: string,
  deadlineMs: number,
  found: (s: StatsSummary) => T | undefined,
): Promise<{ value?: T; last?: StatsSummary }> {
  const deadline = Date.now() + deadlineMs;
  let last: StatsSummary | undefined;
  for (;;) {
    last = await kubeletSummary(ctx, node);
    const value = found(last);
    if (value !== undefined || Date.now() + SUMMARY_POLL_MS > deadline) return { value, last };
    await pause(SUMMARY_POLL_MS, ctx.signal);
  }
}
