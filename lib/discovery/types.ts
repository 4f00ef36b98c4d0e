// What discovery found out about a cluster. Every expectation is a function of this,
// and every report records it, so a result can be traced to the cluster it came from.

import type { V1Taint } from '@kubernetes/client-node';
import type { ServerVersion } from '../facts/kubernetes.ts';

export type NodeOS = 'windows' | 'linux';

export interface NodeInfo {
  name: string;
  /** kubernetes.io/os label, else status.nodeInfo.operatingSystem. */
  os: NodeOS | string;
  /** "10.0.20348" from the node.kubernetes.io/windows-build label, else kernelVersion or osImage; Windows only. */
  windowsBuild?: string;
  /** The third part of windowsBuild (20348), for comparisons such as ">= 19551". */
  buildNumber?: number;
  /** status.nodeInfo.kernelVersion, e.g. "10.0.20348.2582". */
  kernelVersion: string;
  osImage: string;
  /** "containerd" from "containerd://1.7.22". */
  runtimeName: string;
  /** "1.7.22". */
  runtimeVersion: string;
  /** "v1.33.2". */
  kubeletVersion: string;
  labels: Record<string, string>;
  taints: V1Taint[];
  allocatable: Record<string, string>;
  capacity: Record<string, string>;
  ready: boolean;
  /** Ready, not cordoned, no node.kubernetes.io/* lifecycle taint (NoSchedule/NoExecute). */
  schedulable: boolean;
  /** Cordoned: spec.unschedulable (kubectl cordon / drain), or its node.kubernetes.io/unschedulable taint. */
  cordoned?: boolean;
  podCIDRs: string[];
  internalIP?: string;
  /** Images the node reports present (status.images names, at most the kubelet's 50 largest). */
  images?: string[];
}

export interface RuntimeClassInfo {
  name: string;
  handler: string;
  /** scheduling.nodeSelector: the selector RuntimeClass scheduling injects into pods. */
  nodeSelector?: Record<string, string>;
  tolerations?: V1Taint[];
}

export interface NetworkInfo {
  /** CNI guessed from kube-system DaemonSet names ("flannel", "calico", "antrea", "cilium", ...). */
  cni?: string;
  /** kube-proxy DaemonSets in kube-system (e.g. "kube-proxy", "kube-proxy-windows"). */
  kubeProxyDaemonSets: string[];
  /** Windows kube-proxy: Direct Server Return, when its config can be read. */
  dsr?: boolean;
  /** Windows network mode (l2bridge, overlay, host-gw), when discoverable. */
  networkMode?: string;
  /**
   * The NetworkPolicy engine seen in kube-system (calico, antrea, azure-npm, cilium, kube-router),
   * from its DaemonSet names; undefined when none is seen (flannel, win-bridge: no engine).
   */
  policyEngine?: string;
  /** Where dsr / networkMode were read from, or why they could not be. */
  notes: string[];
}

export interface NodeAccess {
  /** HostProcess pods possible: Kubernetes >= 1.23 (beta, on by default) and containerd >= 1.6 on a Windows node. */
  hostProcess: boolean;
  hostProcessReason: string;
  /** SSH configured (--ssh-user/--ssh-key/--ssh-known-hosts) and a Windows node answered. */
  ssh: boolean;
  sshReason: string;
}

export interface ClusterInfo {
  server: string;
  context?: string;
  version: ServerVersion;
  nodes: NodeInfo[];
  runtimeClasses: RuntimeClassInfo[];
  /** Name of a RuntimeClass whose handler is runhcs-wcow-hypervisor, if any. */
  hypervRuntimeClass?: string;
  defaultStorageClass?: string;
  network: NetworkInfo;
  /** metrics.k8s.io is served. */
  metricsServer: boolean;
  /** 'unknown' means: probe it (net.lb) or set it in the config file. */
  loadBalancer: 'yes' | 'no' | 'unknown';
  nodeAccess: NodeAccess;
  /** Nodes have IPv4 and IPv6 pod CIDRs. */
  dualStack: boolean;
  /** Every node's pod CIDRs are IPv6 only (an IPv6-only cluster). */
  ipv6Only: boolean;
  /** Set when the cluster advertises itself as wincheck's simulated cluster (kube-system ConfigMap). */
  simulated?: { profile: string };
}
