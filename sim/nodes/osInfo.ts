// What a node's OS reports in status.nodeInfo: osImage and kernelVersion per Windows build.

import type { ResolvedNodeSpec } from './nodeSpec.ts';

/** Windows Server release per build number (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Facts every probe needs"). */
const WINDOWS_RELEASES: Record<string, string> = {
  '14393': 'Windows Server 2016 Datacenter',
  '17763': 'Windows Server 2019 Datacenter',
  '20348': 'Windows Server 2022 Datacenter',
  '26100': 'Windows Server 2025 Datacenter',
};

const LINUX_OS_IMAGE = 'Ubuntu 22.04.4 LTS';
const LINUX_KERNEL = '5.15.0-119-generic';

export function osImageOf(spec: ResolvedNodeSpec): string {
  if (spec.osImage) return spec.osImage;
  if (spec.os === 'linux') return LINUX_OS_IMAGE;
  const build = spec.windowsBuild!.split('.')[2];
  return WINDOWS_RELEASES[build] ?? `Windows Server Datacenter (build ${build})`;
}

/** Windows kubelets report the full build as the kernel version. */
export function kernelVersionOf(spec: ResolvedNodeSpec): string {
  return spec.kernelVersion ?? (spec.os === 'windows' ? spec.windowsBuild! : LINUX_KERNEL);
}
