// A node's spec as the profile gives it, with the defaults a kubelet would use filled in.
// Other modules (runtime, network) read node facts through here, not from the YAML.

import type { NodeSpec, Profile } from '../profiles/types.ts';

export interface ResolvedNodeSpec extends NodeSpec {
  role: 'control-plane' | 'worker';
  containerRuntime: string;
  kubeletVersion: string;
  capacity: { cpu: string; memory: string; pods: string; 'ephemeral-storage'?: string };
  reservedMemory: string;
  reservedCpu: string;
  ready: boolean;
  /** Position in the profile, used for stable addresses and pod CIDRs. */
  index: number;
}

const DEFAULT_RUNTIME = 'containerd://1.7.22';

export function resolveNodeSpec(profile: Profile, spec: NodeSpec, index: number): ResolvedNodeSpec {
  return {
    ...spec,
    role: spec.role ?? 'worker',
    containerRuntime: spec.containerRuntime ?? DEFAULT_RUNTIME,
    kubeletVersion: spec.kubeletVersion ?? profile.kubernetesVersion,
    capacity: { ...spec.capacity, cpu: spec.capacity?.cpu ?? '4', memory: spec.capacity?.memory ?? '16Gi', pods: spec.capacity?.pods ?? '110' },
    reservedMemory: spec.reservedMemory ?? '0',
    reservedCpu: spec.reservedCpu ?? '0',
    ready: spec.ready ?? true,
    index,
  };
}

/** All nodes of the profile, resolved, in profile order. */
export function nodeSpecs(profile: Profile): ResolvedNodeSpec[] {
  return profile.nodes.map((n, i) => resolveNodeSpec(profile, n, i));
}

/** One node's resolved spec, or undefined when the profile has no such node. */
export function nodeSpecOf(profile: Profile, name: string): ResolvedNodeSpec | undefined {
  const i = profile.nodes.findIndex(n => n.name === name);
  return i < 0 ? undefined : resolveNodeSpec(profile, profile.nodes[i], i);
}

/** "10.0.20348.2582" -> "10.0.20348", the value of node.kubernetes.io/windows-build. */
export function windowsBuildLabel(build: string): string {
  return build.split('.').slice(0, 3).join('.');
}
