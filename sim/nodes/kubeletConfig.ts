// The memory part of a kubelet's configuration as /configz serves it ({"kubeletconfig": {...}}),
// consistent with the node's status: allocatable = capacity - systemReserved - kubeReserved -
// the hard eviction threshold (the kubelet's node allocatable,
// https://kubernetes.io/docs/tasks/administer-cluster/reserve-compute-resources/). What the profile
// reserves (reservedMemory, or an allocatable given as a real node reported it) is split into the
// kubelet's default hard threshold for memory.available (100Mi on Linux, 500Mi on Windows:
// pkg/kubelet/eviction/defaults_{linux,windows}.go) and systemReserved for the rest.

import type { Profile } from '../profiles/types.ts';
import { isBroken } from '../profiles/load.ts';
import { parseQuantity } from '../../util/quantity.ts';
import type { ResolvedNodeSpec } from './nodeSpec.ts';

const MI = 2 ** 20;
const DEFAULT_EVICTION_HARD = { linux: 100 * MI, windows: 500 * MI } as const;

/** Bytes as a kubelet config writes them: "500Mi" when whole mebibytes, else "…Ki". */
function quantity(bytes: number): string {
  return bytes % MI === 0 ? `${bytes / MI}Mi` : `${Math.floor(bytes / 1024)}Ki`;
}

export interface KubeletMemoryConfig {
  systemReserved?: Record<string, string>;
  kubeReserved?: Record<string, string>;
  evictionHard: Record<string, string>;
}

export function kubeletMemoryConfig(profile: Profile, spec: ResolvedNodeSpec): KubeletMemoryConfig {
  const capacity = parseQuantity(spec.capacity.memory) ?? 0;
  const given = parseQuantity(spec.allocatable?.memory);
  const reserved = Math.max(0, given !== undefined ? capacity - given : (parseQuantity(spec.reservedMemory) ?? 0));
  const threshold = Math.min(DEFAULT_EVICTION_HARD[spec.os], reserved);
  // Broken: the kubelet left its hard eviction threshold out of allocatable, so /configz reserves
  // the threshold on top of what status.allocatable accounts for.
  const system = isBroken(profile, 'allocatable-configz', spec.name) ? reserved : reserved - threshold;
  const systemReserved = { ...(system > 0 ? { memory: quantity(system) } : {}), ...(parseQuantity(spec.reservedCpu) ? { cpu: spec.reservedCpu } : {}) };
  return {
    ...(Object.keys(systemReserved).length ? { systemReserved } : {}),
    evictionHard: { ...(threshold > 0 ? { 'memory.available': quantity(threshold) } : {}), 'nodefs.available': '10%', 'imagefs.available': '15%' },
  };
}

/**
 * The graceful node shutdown part of /configz: the gates set apart from their defaults
 * (featureGates, as a kubelet's config file gives them) and the two grace periods (default "0s":
 * the shutdown manager is disabled, "Node shutdown manager is disabled as no shutdown grace
 * period is configured").
 */
export function kubeletShutdownConfig(profile: Profile): {
  featureGates?: Record<string, boolean>;
  shutdownGracePeriod: string;
  shutdownGracePeriodCriticalPods: string;
} {
  return {
    ...(profile.featureGates && Object.keys(profile.featureGates).length ? { featureGates: { ...profile.featureGates } } : {}),
    shutdownGracePeriod: profile.shutdownGracePeriod ?? '0s',
    shutdownGracePeriodCriticalPods: profile.shutdownGracePeriodCriticalPods ?? '0s',
  };
}
