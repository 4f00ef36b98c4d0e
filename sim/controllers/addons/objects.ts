// Builders for the kube-system workloads the add-ons consist of: just enough of a real
// manifest that discovery (DaemonSet names, images, flags, ConfigMaps) sees the truth.

import type { V1ConfigMap, V1Container, V1DaemonSet, V1Deployment, V1PodSpec, V1Service, V1ServicePort } from '@kubernetes/client-node';

export const KUBE_SYSTEM = 'kube-system';

export function daemonSet(
  name: string,
  labels: Record<string, string>,
  pod: V1PodSpec,
  extraLabels: Record<string, string> = {},
  opts: { namespace?: string } = {},
): V1DaemonSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: opts.namespace ?? KUBE_SYSTEM, labels: { ...labels, ...extraLabels } },
    spec: {
      selector: { matchLabels: labels },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      template: { metadata: { labels: { ...labels, ...extraLabels } }, spec: pod },
    },
  };
}

export function deployment(name: string, labels: Record<string, string>, replicas: number, pod: V1PodSpec): V1Deployment {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: KUBE_SYSTEM, labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 1 } },
      template: { metadata: { labels }, spec: pod },
    },
  };
}

export function configMap(name: string, data: Record<string, string>, labels: Record<string, string> = {}): V1ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: KUBE_SYSTEM, labels }, data };
}

export function service(name: string, labels: Record<string, string>, selector: Record<string, string>, ports: V1ServicePort[], clusterIP?: string): V1Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: KUBE_SYSTEM, labels },
    spec: { selector, ports, type: 'ClusterIP', ...(clusterIP ? { clusterIP, clusterIPs: [clusterIP] } : {}) },
  };
}

export const LINUX_SELECTOR = { 'kubernetes.io/os': 'linux' };
export const WINDOWS_SELECTOR = { 'kubernetes.io/os': 'windows' };
/** Node agents run everywhere they are selected, whatever the taints. */
export const TOLERATE_ALL = [{ operator: 'Exists' }];

/** A HostProcess container, as sig-windows-tools runs kube-proxy and flannel on Windows. */
export function hostProcessPod(container: V1Container, serviceAccountName: string): V1PodSpec {
  return {
    serviceAccountName,
    hostNetwork: true,
    priorityClassName: 'system-node-critical',
    nodeSelector: WINDOWS_SELECTOR,
    tolerations: TOLERATE_ALL,
    securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\system' } },
    containers: [container],
  };
}
