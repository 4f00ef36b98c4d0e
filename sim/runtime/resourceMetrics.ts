// The kubelet's /metrics/resource: Prometheus text built from the same CPU and memory stats as
// /stats/summary, as upstream's resource metrics collector writes it
// (https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/metrics/collectors/resource_metrics.go):
// CPU counters in core-seconds, working sets in bytes, sample timestamps in milliseconds, and
// scrape_error / resource_scrape_error last. Swap is reported only on non-Windows systems.

interface Cpu {
  time: string;
  usageCoreNanoSeconds?: number;
}
interface Memory {
  time: string;
  workingSetBytes?: number;
}
interface Summary {
  node: { cpu?: Cpu; memory?: Memory };
  pods: {
    podRef: { name: string; namespace: string };
    cpu?: Cpu;
    memory?: Memory;
    containers: { name: string; startTime?: string; cpu?: Cpu; memory?: Memory }[];
  }[];
}

const DESCS = {
  node_cpu_usage_seconds_total: ['counter', 'Cumulative cpu time consumed by the node in core-seconds'],
  node_memory_working_set_bytes: ['gauge', 'Current working set of the node in bytes'],
  container_start_time_seconds: ['gauge', 'Start time of the container since unix epoch in seconds'],
  container_cpu_usage_seconds_total: ['counter', 'Cumulative cpu time consumed by the container in core-seconds'],
  container_memory_working_set_bytes: ['gauge', 'Current working set of the container in bytes'],
  pod_cpu_usage_seconds_total: ['counter', 'Cumulative cpu time consumed by the pod in core-seconds'],
  pod_memory_working_set_bytes: ['gauge', 'Current working set of the pod in bytes'],
  resource_scrape_error: ['gauge', '1 if there was an error while getting container metrics, 0 otherwise'],
} as const;
type Name = keyof typeof DESCS;

const ms = (t: string) => new Date(t).getTime();
const labels = (l: Record<string, string>) =>
  Object.keys(l).length
    ? `{${Object.entries(l)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
        .join(',')}}`
    : '';

export function resourceMetrics(summaryObject: object): string {
  const s = summaryObject as Summary;
  const samples = new Map<Name, string[]>();
  const add = (name: Name, l: Record<string, string>, value: number, time?: string) =>
    samples.set(name, [...(samples.get(name) ?? []), `${name}${labels(l)} ${value}${time ? ` ${ms(time)}` : ''}`]);
  if (s.node.cpu?.usageCoreNanoSeconds !== undefined) add('node_cpu_usage_seconds_total', {}, s.node.cpu.usageCoreNanoSeconds / 1e9, s.node.cpu.time);
  if (s.node.memory?.workingSetBytes !== undefined) add('node_memory_working_set_bytes', {}, Math.round(s.node.memory.workingSetBytes), s.node.memory.time);
  for (const p of s.pods) {
    const pod = { pod: p.podRef.name, namespace: p.podRef.namespace };
    for (const c of p.containers) {
      const l = { ...pod, container: c.name };
      if (c.startTime && ms(c.startTime) > 0) add('container_start_time_seconds', l, ms(c.startTime) / 1000);
      if (c.cpu?.usageCoreNanoSeconds !== undefined) add('container_cpu_usage_seconds_total', l, c.cpu.usageCoreNanoSeconds / 1e9, c.cpu.time);
      if (c.memory?.workingSetBytes !== undefined) add('container_memory_working_set_bytes', l, Math.round(c.memory.workingSetBytes), c.memory.time);
    }
    if (p.cpu?.usageCoreNanoSeconds !== undefined) add('pod_cpu_usage_seconds_total', pod, p.cpu.usageCoreNanoSeconds / 1e9, p.cpu.time);
    if (p.memory?.workingSetBytes !== undefined) add('pod_memory_working_set_bytes', pod, Math.round(p.memory.workingSetBytes), p.memory.time);
  }
  add('resource_scrape_error', {}, 0);
  // The exposition sorts families by name; component-base prefixes the help with the stability.
  return (Object.keys(DESCS) as Name[])
    .sort()
    .filter(n => samples.has(n))
    .map(n => [`# HELP ${n} [STABLE] ${DESCS[n][1]}`, `# TYPE ${n} ${DESCS[n][0]}`, ...samples.get(n)!].join('\n'))
    .join('\n')
    .concat('\n');
}
