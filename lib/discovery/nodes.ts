// A V1Node as discovery records it. Pure: tested without a cluster.

import type { V1Node } from '@kubernetes/client-node';
import { buildOfRelease } from '../facts/windows.ts';
import { WINDOWS_BUILD_LABEL } from '../labels.ts';
import type { NodeInfo } from './types.ts';

export function nodeInfoOf(node: V1Node): NodeInfo {
  const labels = node.metadata?.labels ?? {};
  const info = node.status?.nodeInfo;
  const os = labels['kubernetes.io/os'] ?? info?.operatingSystem ?? 'unknown';
  const kernelVersion = info?.kernelVersion ?? '';
  // The label is "10.0.20348"; kernelVersion is "10.0.20348.2582" (and the fallback when unlabelled).
  const windowsBuild = os === 'windows' ? (labels[WINDOWS_BUILD_LABEL] ?? buildOf(kernelVersion, info?.osImage ?? '')) : undefined;
  const buildNumber = windowsBuild ? Number(windowsBuild.split('.')[2]) : undefined;
  const [runtimeName, runtimeVersion] = splitRuntime(info?.containerRuntimeVersion ?? '');
  const ready = node.status?.conditions?.some(c => c.type === 'Ready' && c.status === 'True') ?? false;
  const taints = node.spec?.taints ?? [];
  return {
    name: node.metadata?.name ?? '',
    os,
    windowsBuild,
    buildNumber: Number.isFinite(buildNumber) ? buildNumber : undefined,
    kernelVersion,
    osImage: info?.osImage ?? '',
    runtimeName,
    runtimeVersion,
    kubeletVersion: info?.kubeletVersion ?? '',
    labels,
    taints,
    allocatable: node.status?.allocatable ?? {},
    capacity: node.status?.capacity ?? {},
    ready,
    // A lifecycle taint (not-ready, unreachable, pressure...) keeps new pods off as surely as a cordon.
    schedulable: ready && !node.spec?.unschedulable && !taints.some(isLifecycleTaint),
    ...(node.spec?.unschedulable || taints.some(t => t.key === UNSCHEDULABLE_TAINT) ? { cordoned: true } : {}),
    podCIDRs: node.spec?.podCIDRs ?? (node.spec?.podCIDR ? [node.spec.podCIDR] : []),
    internalIP: node.status?.addresses?.find(a => a.type === 'InternalIP')?.address,
    images: (node.status?.images ?? []).flatMap(i => i.names ?? []),
  };
}

/**
 * "10.0.20348" from kernelVersion "10.0.20348.2582", else from osImage "Windows Server 2022
 * Datacenter" (the release name: the fallback when there is neither the windows-build label nor a
 * "10.0.N" kernelVersion).
 */
export function buildOf(kernelVersion: string, osImage: string): string | undefined {
  const k = /^10\.0\.\d+/.exec(kernelVersion)?.[0];
  if (k) return k;
  if (!/windows/i.test(osImage)) return undefined;
  return buildOfRelease(osImage);
}

const UNSCHEDULABLE_TAINT = 'node.kubernetes.io/unschedulable';

/**
 * Why a pod of ours placed by node name (a HostProcess pod of node access) must not go to the
 * node, or undefined: a NotReady node cannot run it, a cordoned one is being drained or kept
 * empty on purpose (a pod bound by name skips the scheduler, and so the cordon). `includeCordoned`
 * (--include-cordoned) visits cordoned nodes all the same.
 */
export function notVisitedBecause(n: NodeInfo, o: { includeCordoned?: boolean } = {}): string | undefined {
  if (!n.ready) return 'NotReady';
  if (n.cordoned && !o.includeCordoned) return 'cordoned (spec.unschedulable; --include-cordoned visits it)';
  return undefined;
}

/** The Windows nodes node-level checks leave out (no pod of ours goes there by name), with why. */
export function windowsNodesNotVisited(nodes: NodeInfo[], o: { includeCordoned?: boolean } = {}): { node: string; why: string }[] {
  return windowsNodes(nodes).flatMap(n => {
    const why = notVisitedBecause(n, o);
    return why ? [{ node: n.name, why }] : [];
  });
}

/**
 * Taints the node lifecycle controller and the kubelet manage (node.kubernetes.io/not-ready,
 * unreachable, unschedulable, memory-pressure..., and the cloud provider's uninitialized): they say
 * a node cannot take pods now. A fixture never tolerates them.
 */
export function isLifecycleTaint(t: { key: string; effect: string }): boolean {
  return LIFECYCLE_TAINT_KEYS.has(t.key) && (t.effect === 'NoSchedule' || t.effect === 'NoExecute');
}

// The keys of k8s.io/api/core/v1 well_known_taints.go plus the cloud provider's. Not every
// node.kubernetes.io/* key: GKE taints its Windows pools node.kubernetes.io/os=windows, a taint
// fixtures must tolerate.
const LIFECYCLE_TAINT_KEYS = new Set([
  'node.kubernetes.io/not-ready',
  'node.kubernetes.io/unreachable',
  'node.kubernetes.io/unschedulable',
  'node.kubernetes.io/memory-pressure',
  'node.kubernetes.io/disk-pressure',
  'node.kubernetes.io/pid-pressure',
  'node.kubernetes.io/network-unavailable',
  'node.kubernetes.io/out-of-service',
  'node.cloudprovider.kubernetes.io/uninitialized',
]);

/** NoSchedule/NoExecute taints of the node other than lifecycle ones. */
export function keepOffTaints(n: NodeInfo): NodeInfo['taints'] {
  return n.taints.filter(t => (t.effect === 'NoSchedule' || t.effect === 'NoExecute') && !isLifecycleTaint(t));
}

/** "containerd://1.7.22" → ["containerd", "1.7.22"]. */
export function splitRuntime(s: string): [string, string] {
  const m = /^([^:]+):\/\/v?(.*)$/.exec(s);
  return m ? [m[1], m[2]] : [s || 'unknown', ''];
}

export function windowsNodes(nodes: NodeInfo[]): NodeInfo[] {
  return nodes.filter(n => n.os === 'windows');
}

export function schedulableWindowsNodes(nodes: NodeInfo[]): NodeInfo[] {
  return nodes.filter(n => n.os === 'windows' && n.schedulable);
}

/**
 * Linux nodes a helper pod (nodeSelector kubernetes.io/os: linux, no tolerations) can use: Ready,
 * not cordoned, no NoSchedule/NoExecute taint. A control plane tainted NoSchedule does not count.
 */
export function usableLinuxNodes(nodes: NodeInfo[]): NodeInfo[] {
  return nodes.filter(n => n.os === 'linux' && n.schedulable && !keepOffTaints(n).length);
}

/**
 * Taints that keep pods off schedulable Windows nodes (NoSchedule / NoExecute), deduplicated: the
 * ones Windows fixtures tolerate. Lifecycle taints are never among them (a fixture must not land
 * on a cordoned or NotReady node).
 */
export function windowsTaints(nodes: NodeInfo[]): { key: string; value?: string; effect: string }[] {
  const seen = new Map<string, { key: string; value?: string; effect: string }>();
  for (const n of windowsNodes(nodes))
    for (const t of keepOffTaints(n)) seen.set(`${t.key}=${t.value ?? ''}:${t.effect}`, { key: t.key, value: t.value, effect: t.effect });
  return [...seen.values()];
}

/**
 * The Windows node fixtures target: the most common build among schedulable Windows nodes
 * (ties: the newest), then the first node of it by name.
 */
export function targetWindowsNode(nodes: NodeInfo[]): NodeInfo | undefined {
  const candidates = schedulableWindowsNodes(nodes)
    .filter(n => n.windowsBuild)
    .sort((a, b) => a.name.localeCompare(b.name));
  if (!candidates.length) return undefined;
  const counts = new Map<string, number>();
  for (const n of candidates) counts.set(n.windowsBuild!, (counts.get(n.windowsBuild!) ?? 0) + 1);
  const build = [...counts.entries()].sort((a, b) => b[1] - a[1] || Number(b[0].split('.')[2]) - Number(a[0].split('.')[2]))[0][0];
  return candidates.find(n => n.windowsBuild === build);
}

/** Why --disruptive-node NAME cannot be disrupted by this run: missing, not Windows, or not Ready. */
export function problemWithDisruptiveNode(name: string, nodes: NodeInfo[]): string | undefined {
  const n = nodes.find(x => x.name === name);
  const windows = windowsNodes(nodes);
  const ready = windows.filter(x => x.ready).map(x => x.name);
  const choose = ready.length ? `Ready Windows nodes: ${ready.join(', ')}` : 'the cluster has no Ready Windows node';
  if (!n) return `--disruptive-node ${name}: no node of that name in the cluster (${choose})`;
  if (n.os !== 'windows') return `--disruptive-node ${name} is a ${n.os} node, not a Windows one (${choose})`;
  if (!n.ready) return `--disruptive-node ${name} is not Ready: a disruptive check needs a node in service to return to service (${choose})`;
  return undefined;
}
