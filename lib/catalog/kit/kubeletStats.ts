// The kubelet's summary API (nodes/<node>/proxy/stats/summary) read through the API server.

import type { CheckContext } from '../types.ts';
import { MeansError, refusalMeans } from '../../cluster/meansError.ts';
import { rawGet } from '../../cluster/rawGet.ts';

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
}

export interface PodStats {
  podRef: { name: string; namespace: string; uid?: string };
  cpu?: CpuStats;
  memory?: MemoryStats;
  containers?: ContainerStats[];
}

export interface StatsSummary {
  node: { nodeName: string; cpu?: CpuStats; memory?: MemoryStats };
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
