// The kubelet's own /metrics (not /metrics/resource): the container start counters, as upstream's
// kubelet keeps them (https://github.com/kubernetes/kubernetes/blob/master/pkg/kubelet/metrics/metrics.go,
// counted in pkg/kubelet/kuberuntime/kuberuntime_manager.go SyncPod's start()): every start attempt
// that is not skipped for crash back-off counts in kubelet_started_containers_total{container_type},
// before the image pull; a failed attempt counts in kubelet_started_containers_errors_total{code,
// container_type}, code being the kubelet's error (ErrImagePull, ImagePullBackOff,
// CreateContainerConfigError, CreateContainerError, RunContainerError). A container of a HostProcess
// pod counts in the kubelet_started_host_process_containers_* pair too, which only Windows kubelets
// register. The counters live in the kubelet process: a reboot starts them again from zero.
// breaks: hostprocess-metrics: HostProcess containers count as ordinary containers only.

export type ContainerType = 'container' | 'init_container';

const FAMILIES = {
  kubelet_node_name: ['gauge', "The node's name. The count is always 1."],
  kubelet_started_containers_errors_total: ['counter', 'Cumulative number of errors when starting containers'],
  kubelet_started_containers_total: ['counter', 'Cumulative number of containers started'],
  kubelet_started_host_process_containers_errors_total: [
    'counter',
    'Cumulative number of errors when starting hostprocess containers. This metric will only be collected on Windows.',
  ],
  kubelet_started_host_process_containers_total: [
    'counter',
    'Cumulative number of hostprocess containers started. This metric will only be collected on Windows.',
  ],
} as const;
type Family = keyof typeof FAMILIES;

export class KubeletCounters {
  private counts = new Map<string, number>();

  constructor(
    private readonly windows: boolean,
    /** Whether HostProcess containers are counted as such (false with breaks: hostprocess-metrics). */
    private readonly countHostProcess: () => boolean,
  ) {}

  private add(family: Family, labels: Record<string, string>): void {
    const key = JSON.stringify([family, Object.entries(labels).sort(([a], [b]) => a.localeCompare(b))]);
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  /** A start attempt (before the image pull). */
  started(type: ContainerType, hostProcess: boolean): void {
    this.add('kubelet_started_containers_total', { container_type: type });
    if (hostProcess && this.windows && this.countHostProcess()) this.add('kubelet_started_host_process_containers_total', { container_type: type });
  }

  /** A start attempt that failed, with the kubelet's error code. */
  failed(type: ContainerType, code: string, hostProcess: boolean): void {
    this.add('kubelet_started_containers_errors_total', { code, container_type: type });
    if (hostProcess && this.windows && this.countHostProcess())
      this.add('kubelet_started_host_process_containers_errors_total', { code, container_type: type });
  }

  /** The kubelet process restarted (the node rebooted). */
  reset(): void {
    this.counts.clear();
  }

  /** The Prometheus text exposition, families sorted by name, HELP prefixed with the stability as component-base does. */
  render(nodeName: string): string {
    const samples = new Map<Family, string[]>([['kubelet_node_name', [`kubelet_node_name{node="${nodeName}"} 1`]]]);
    for (const [key, value] of this.counts) {
      const [family, entries] = JSON.parse(key) as [Family, [string, string][]];
      const labels = entries.map(([k, v]) => `${k}="${v}"`).join(',');
      samples.set(family, [...(samples.get(family) ?? []), `${family}{${labels}} ${value}`]);
    }
    return (Object.keys(FAMILIES) as Family[])
      .filter(f => samples.has(f) && (this.windows || !f.includes('host_process')))
      .sort()
      .map(f => [`# HELP ${f} [ALPHA] ${FAMILIES[f][1]}`, `# TYPE ${f} ${FAMILIES[f][0]}`, ...samples.get(f)!.sort()].join('\n'))
      .join('\n')
      .concat('\n');
  }
}
