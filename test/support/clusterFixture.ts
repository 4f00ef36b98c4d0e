// Builders for discovered clusters, so expectation and rendering tests read as "a cluster with...".

import type { ClusterInfo, NodeInfo } from '../../lib/discovery/types.ts';

export function winNode(name: string, build = '10.0.20348', extra: Partial<NodeInfo> = {}): NodeInfo {
  return {
    name,
    os: 'windows',
    windowsBuild: build,
    buildNumber: Number(build.split('.')[2]),
    kernelVersion: `${build}.2582`,
    osImage: 'Windows Server 2022 Datacenter',
    runtimeName: 'containerd',
    runtimeVersion: '1.7.22',
    kubeletVersion: 'v1.33.2',
    labels: { 'kubernetes.io/os': 'windows', 'beta.kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': build },
    taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
    allocatable: { cpu: '3500m', memory: '14Gi' },
    capacity: { cpu: '4', memory: '16Gi' },
    ready: true,
    schedulable: true,
    podCIDRs: ['10.244.3.0/24'],
    internalIP: '10.0.0.4',
    ...extra,
  };
}

export function linuxNode(name: string, extra: Partial<NodeInfo> = {}): NodeInfo {
  return {
    name,
    os: 'linux',
    kernelVersion: '6.8.0',
    osImage: 'Ubuntu 24.04',
    runtimeName: 'containerd',
    runtimeVersion: '1.7.22',
    kubeletVersion: 'v1.33.2',
    labels: { 'kubernetes.io/os': 'linux' },
    taints: [],
    allocatable: {},
    capacity: {},
    ready: true,
    schedulable: true,
    podCIDRs: ['10.244.1.0/24'],
    internalIP: '10.0.0.2',
    ...extra,
  };
}

export function cluster(extra: Partial<ClusterInfo> = {}): ClusterInfo {
  return {
    server: 'https://10.0.0.1:6443',
    context: 'test',
    version: { gitVersion: 'v1.33.2', major: 1, minor: 33 },
    nodes: [linuxNode('linux-1'), winNode('win-1'), winNode('win-2')],
    runtimeClasses: [],
    network: { cni: 'flannel', kubeProxyDaemonSets: ['kube-proxy', 'kube-proxy-windows'], notes: [] },
    metricsServer: true,
    loadBalancer: 'unknown',
    nodeAccess: { hostProcess: true, hostProcessReason: 'ok', ssh: false, sshReason: 'not configured' },
    dualStack: false,
    ipv6Only: false,
    ...extra,
  };
}
