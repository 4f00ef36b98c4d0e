// The kubelet's /stats/summary (node, pods, containers: CPU from burners, memory
// working set) and the metrics.k8s.io objects metrics-server would serve from it
// (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) res.stats, res.cpu-limit-enforced, res.metrics-api).

import type { RuntimeContext } from './context.ts';
import type { NodeRuntime } from './nodeRuntime.ts';
import type { ContainerRunner } from './container.ts';
import type { PodWorker } from './podWorker.ts';

/** Node overhead outside pods (OS, kubelet, runtime). Windows idles heavier. */
const SYSTEM = { windows: { millicores: 250, memory: 1.6 * 2 ** 30 }, linux: { millicores: 120, memory: 900 * 2 ** 20 } };
const FS_CAPACITY = 127 * 2 ** 30;

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

function cpuStats(millicores: number, total: number, time: string) {
  return { time, usageNanoCores: Math.round(millicores * 1e6), usageCoreNanoSeconds: total };
}

function containerStats(c: ContainerRunner, time: string, windows: boolean) {
  const ws = c.workingSetBytes();
  const mem = windows
    ? { time, workingSetBytes: ws, usageBytes: ws, availableBytes: Math.max((c.limitMemory() ?? 0) - ws, 0) || undefined, pageFaults: 0 }
    : {
        time,
        workingSetBytes: ws,
        usageBytes: ws,
        rssBytes: ws,
        pageFaults: 0,
        majorPageFaults: 0,
        availableBytes: Math.max((c.limitMemory() ?? 0) - ws, 0) || undefined,
      };
  return {
    name: c.name,
    startTime: iso(new Date(c.state.running?.startedAt ?? Date.now())),
    cpu: cpuStats(c.cpuMillicores(), c.cpuUsageNanoSeconds(), time),
    memory: mem,
    rootfs: { time, availableBytes: FS_CAPACITY / 2, capacityBytes: FS_CAPACITY, usedBytes: 4096, inodesUsed: windows ? undefined : 10 },
    logs: { time, availableBytes: FS_CAPACITY / 2, capacityBytes: FS_CAPACITY, usedBytes: c.log.snapshot().reduce((a, l) => a + l.text.length, 0) },
  };
}

function podStats(w: PodWorker, time: string) {
  // breaks: hostprocess-stats lists HostProcess pods without their containers' stats.
  const running = w.hostProcess && w.node.ctx.broken('hostprocess-stats') ? [] : w.containers.filter(c => c.running);
  const containers = running.map(c => containerStats(c, time, w.windows));
  const mc = running.reduce((a, c) => a + c.cpuMillicores(), 0);
  const total = containers.reduce((a, c) => a + c.cpu.usageCoreNanoSeconds, 0);
  const ws = running.reduce((a, c) => a + c.workingSetBytes(), 0);
  return {
    podRef: { name: w.pod.metadata!.name, namespace: w.pod.metadata!.namespace, uid: w.uid },
    startTime: iso(w.startTime ?? new Date()),
    containers,
    cpu: cpuStats(mc, total, time),
    memory: { time, workingSetBytes: ws, usageBytes: ws },
    network: { time, name: w.windows ? `vEthernet (${w.sandboxID.slice(0, 12)}_eth0)` : 'eth0', rxBytes: 0, txBytes: 0, interfaces: [] },
    volume: [...(w.volumes?.values() ?? [])].map(v => ({
      time,
      name: v.name,
      usedBytes: v.fs.usedBytes(v.base),
      // A tmpfs reports its own size (the node's memory), a directory its disk's.
      capacityBytes: v.inMemory ? w.node.capacity().memory : FS_CAPACITY,
      availableBytes: v.inMemory ? w.node.capacity().memory / 2 : FS_CAPACITY / 2,
    })),
    'ephemeral-storage': { time, availableBytes: FS_CAPACITY / 2, capacityBytes: FS_CAPACITY, usedBytes: 4096 * containers.length },
    process_stats: { process_count: running.length * (w.windows ? 4 : 1) },
  };
}

function statsPods(ctx: RuntimeContext, node: NodeRuntime): PodWorker[] {
  // breaks: stats drops Windows pods from the summary.
  if (node.os === 'windows' && node.ctx.broken('stats')) return [];
  return [...node.pods.values()].filter(w => w.sandboxReady && !w.terminating);
}

function nodeUsage(node: NodeRuntime, pods: PodWorker[]) {
  const sys = SYSTEM[node.os];
  const mc = sys.millicores + pods.reduce((a, w) => a + w.containers.reduce((b, c) => b + c.cpuMillicores(), 0), 0);
  // Whole bytes, as the kubelet's uint64 fields are.
  const mem = Math.round(sys.memory + pods.reduce((a, w) => a + w.containers.reduce((b, c) => b + c.workingSetBytes(), 0), 0));
  return { mc, mem };
}

/** The node's working set as the kubelet sees it (system + every running pod's containers): what memory.available is computed from (sim/runtime/eviction.ts). */
export function nodeMemoryWorkingSet(node: NodeRuntime): number {
  return nodeUsage(
    node,
    [...node.pods.values()].filter(w => w.sandboxReady && !w.terminating),
  ).mem;
}

export function summary(ctx: RuntimeContext, node: NodeRuntime): object {
  const now = new Date();
  const time = iso(now);
  const all = [...node.pods.values()].filter(w => w.sandboxReady && !w.terminating);
  const { mc, mem } = nodeUsage(node, all);
  const uptime = (now.getTime() - node.bootTime.getTime()) / 1000;
  const cap = node.capacity();
  return {
    node: {
      nodeName: node.name,
      systemContainers: [
        {
          name: 'kubelet',
          startTime: iso(node.bootTime),
          cpu: cpuStats(20, Math.round(20e6 * uptime), time),
          memory: { time, workingSetBytes: 80 * 2 ** 20, usageBytes: 80 * 2 ** 20 },
        },
        {
          name: 'pods',
          startTime: iso(node.bootTime),
          cpu: cpuStats(mc - SYSTEM[node.os].millicores, 0, time),
          memory: { time, workingSetBytes: mem - SYSTEM[node.os].memory, availableBytes: cap.memory - mem },
        },
      ],
      startTime: iso(node.bootTime),
      cpu: cpuStats(mc, Math.round(mc * 1e6 * uptime), time),
      memory: {
        time,
        availableBytes: Math.max(cap.memory - mem, 0),
        usageBytes: mem,
        workingSetBytes: mem,
        ...(node.os === 'linux' ? { rssBytes: mem, pageFaults: 0, majorPageFaults: 0 } : {}),
      },
      network: { time, name: node.os === 'windows' ? 'vEthernet (Ethernet)' : 'eth0', rxBytes: 0, txBytes: 0, interfaces: [] },
      fs: { time, availableBytes: FS_CAPACITY - node.disk.usedBytes(), capacityBytes: FS_CAPACITY, usedBytes: node.disk.usedBytes() },
      runtime: {
        imageFs: { time, availableBytes: FS_CAPACITY / 2, capacityBytes: FS_CAPACITY, usedBytes: node.images.list().reduce((a, i) => a + i.manifest.size, 0) },
      },
      ...(node.os === 'linux' ? { rlimit: { time, maxpid: 4194304, curproc: 300 } } : {}),
    },
    pods: statsPods(ctx, node).map(w => podStats(w, time)),
  };
}

const nano = (mc: number) => `${Math.round(mc * 1e6)}n`;
const ki = (b: number) => `${Math.round(b / 1024)}Ki`;

/** metrics.k8s.io PodMetrics (metrics-server scrapes the summary; breaks: metrics-api drops Windows). */
export function podMetrics(ctx: RuntimeContext, nodes: NodeRuntime[], namespace?: string): object[] {
  const out: object[] = [];
  const now = iso(new Date());
  for (const node of nodes) {
    if (node.os === 'windows' && (node.ctx.broken('metrics-api') || node.ctx.broken('stats'))) continue;
    for (const w of node.pods.values()) {
      if (!w.sandboxReady || w.terminating || (namespace && w.pod.metadata!.namespace !== namespace)) continue;
      const cs = w.containers.filter(c => c.running);
      if (!cs.length) continue;
      out.push({
        kind: 'PodMetrics',
        apiVersion: 'metrics.k8s.io/v1beta1',
        metadata: { name: w.pod.metadata!.name, namespace: w.pod.metadata!.namespace, creationTimestamp: now, labels: w.pod.metadata!.labels ?? {} },
        timestamp: now,
        window: '15s',
        containers: cs.map(c => ({ name: c.name, usage: { cpu: nano(c.cpuMillicores()), memory: ki(c.workingSetBytes()) } })),
      });
    }
  }
  return out;
}

export function nodeMetrics(ctx: RuntimeContext, nodes: NodeRuntime[]): object[] {
  const now = iso(new Date());
  return nodes
    .filter(n => !(n.os === 'windows' && (n.ctx.broken('metrics-api') || n.ctx.broken('stats'))))
    .map(n => {
      const { mc, mem } = nodeUsage(
        n,
        [...n.pods.values()].filter(w => w.sandboxReady && !w.terminating),
      );
      return {
        kind: 'NodeMetrics',
        apiVersion: 'metrics.k8s.io/v1beta1',
        metadata: { name: n.name, creationTimestamp: now, labels: { 'kubernetes.io/os': n.os, 'kubernetes.io/hostname': n.name } },
        timestamp: now,
        window: '20s',
        usage: { cpu: nano(mc), memory: ki(mem) },
      };
    });
}
