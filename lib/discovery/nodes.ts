// A V1Node as discovery records it. Pure: tested without a cluster.

import type { V1Node } from '@kubernetes/client-node';
import { WINDOWS_BUILD_LABEL } from '../labels.ts';
import type { NodeInfo } from './types.ts';


export function nodeInfoOf(node: V1Node): NodeInfo {
  const labels = node.metadata?.labels ?? {};
  const info = node.status?.nodeInfo;
  const os = labels['kubernetes.io/os'] ?? info?.operatingSystem ?? 'unknown';
  const kernelVersion = info?.kernelVersion ?? '';
  // The label is "10.0.20348"; kernelVersion is "10.0.20348.2582" (and the fallback when unlabelled).
  const windowsBuild = os === 'windows' ? (labels[WINDOWS_BUILD_LABEL] ?? /^10\.0\.\d+/.exec(kernelVersion)?.[0]) : undefined;
  const buildNumber = windowsBuild ? Number(windowsBuild.split('.')[2]) : undefined;
  const [runtimeName, runtimeVersion] = splitRuntime(info?.containerRuntimeVersion ?? '');
  const ready = node.status?.conditions?.some(c => c.type === 'Ready' && c.status === 'True') ?? false;
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
    taints: node.spec?.taints ?? [],
    allocatable: node.status?.allocatable ?? {},
    capacity: node.status?.capacity ?? {},
    ready,
    schedulable: ready && !node.spec?.unschedulable,
    podCIDRs: node.spec?.podCIDRs ?? (node.spec?.podCIDR ? [node.spec.podCIDR] : []),
    internalIP: node.status?.addresses?.find(a => a.type === 'InternalIP')?.address,
  };
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

/** Taints that keep pods off Windows nodes (NoSchedule / NoExecute), deduplicated. */
export function windowsTaints(nodes: NodeInfo[]): { key: string; value?: string; effect: string }[] {
  const seen = new Map<string, { key: string; value?: string; effect: string }>();
  for (const n of windowsNodes(nodes))
    for (const t of n.taints)
      if (t.effect === 'NoSchedule' || t.effect === 'NoExecute')
        seen.set(`${t.key}=${t.value ?? ''}:${t.effect}`, { key: t.key, value: t.value, effect: t.effect });
  return [...seen.values()];
}

/**
 * The Windows node fixtures target: the most common build among schedulable Windows nodes
 * (ties: the newest), then the first node of it by name.
 */
export function targetWindowsNode(nodes: NodeInfo[]): NodeInfo | undefined {
  const candidates = schedulableWindowsNodes(nodes).filter(n => n.windowsBuild).sort((a, b) => a.name.localeCompare(b.name));
  if (!candidates.length) return undefined;
  const counts = new Map<string, number>();
  for (const n of candidates) counts.set(n.windowsBuild!, (counts.get(n.windowsBuild!) ?? 0) + 1);
  const build = [...counts.entries()].sort((a, b) => b[1] - a[1] || (Number(b[0].split('.')[2]) - Number(a[0].split('.')[2])))[0][0];
  return candidates.find(n => n.windowsBuild === build);
}

/** "1.7.22" >= "1.6"? */
export function versionAtLeast(version: string, min: string): boolean {
  const a = version.replace(/^v/, '').split(/[.-]/).map(x => parseInt(x, 10));
  const b = min.split('.').map(x => parseInt(x, 10));
  for (let i = 0; i < b.length; i++) {
    const x = Number.isNaN(a[i]) || a[i] === undefined ? 0 : a[i];
    if (x !== b[i]) return x > b[i];
  }
  return true;
}
