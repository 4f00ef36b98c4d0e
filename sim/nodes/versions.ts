// What a node's Kubernetes version and container runtime allow, as the docs give it
// (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/), the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/)): the one place the sim's version-dependent behaviour is decided.
//  - dockershim: the kubelet's built-in Docker support, removed in 1.24 (docker:// after that
//    is cri-dockerd); neither runs HostProcess or Hyper-V containers.
//  - HostProcess (WindowsHostProcessContainers): alpha 1.22 (off by default), beta 1.23 (on),
//    GA 1.26; needs containerd >= 1.6 (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) iso.hostprocess). An older containerd does
//    not know the field and starts an ordinary container.
//  - Hyper-V isolation through a RuntimeClass handler runhcs-wcow-hypervisor: containerd >= 1.7.
//  - spec.os (IdentifyPodOS): alpha 1.23 (off by default), beta 1.24 (on), GA 1.25.
//  - subPath handles on Windows: leaked before 1.37 (kubernetes#112630, fixed by #138367).

/** 1.23 -> 1023, for comparisons; 0 when it cannot be read. */
export function minorVersion(v: string | undefined): number {
  const m = /^v?(\d+)\.(\d+)/.exec(v ?? '');
  return m ? Number(m[1]) * 1000 + Number(m[2]) : 0;
}

export interface RuntimeVersion {
  name: string;
  major: number;
  minor: number;
}

/** "containerd://1.7.17+azure" -> containerd 1.7; "docker://Unknown" -> docker, version 0.0. */
export function runtimeVersion(s: string): RuntimeVersion {
  const [name, rest = ''] = s.split('://');
  const m = /^v?(\d+)\.(\d+)/.exec(rest);
  return { name, major: m ? Number(m[1]) : 0, minor: m ? Number(m[2]) : 0 };
}

const atLeast = (r: RuntimeVersion, major: number, minor: number) => r.major > major || (r.major === major && r.minor >= minor);

/** The API server keeps spec.os (IdentifyPodOS on by default from 1.24). */
export const podOSFieldServed = (apiVersion: string) => minorVersion(apiVersion) >= 1024;
/**
 * WindowsHostProcessContainers: alpha 1.22 (off by default), beta 1.23 (on), GA 1.26; the
 * profile's featureGates turn it on at 1.22 (the documented way to use the alpha,
 * https://v1-22.docs.kubernetes.io/docs/tasks/configure-pod-container/create-hostprocess-pod/).
 */
function hostProcessGate(version: string, gates: Record<string, boolean> = {}): boolean {
  const v = minorVersion(version);
  return v >= 1022 && (gates['WindowsHostProcessContainers'] ?? v >= 1023);
}

/** The API server keeps windowsOptions.hostProcess (WindowsHostProcessContainers on: by default from 1.23, or by featureGates at 1.22). */
export const hostProcessFieldServed = (apiVersion: string, gates?: Record<string, boolean>) => hostProcessGate(apiVersion, gates);

/**
 * How this node runs a pod asking for HostProcess: on the host ('host'), as an ordinary
 * container because the kubelet gate is off or containerd predates the field ('ignored'),
 * or not at all: dockershim/cri-dockerd refuse it ('refused').
 */
export function hostProcessOn(node: { kubeletVersion: string; containerRuntime: string }, gates?: Record<string, boolean>): 'host' | 'ignored' | 'refused' {
  const rt = runtimeVersion(node.containerRuntime);
  if (rt.name === 'docker') return 'refused';
  if (!hostProcessGate(node.kubeletVersion, gates)) return 'ignored';
  return rt.name === 'containerd' && atLeast(rt, 1, 6) ? 'host' : 'ignored';
}

/**
 * containerd >= 1.7 (hcsshim 0.10) bind-mounts a HostProcess container's volumes at their
 * mountPath and its image at C:\\hpc, keeping the 1.6 paths under $CONTAINER_SANDBOX_MOUNT_POINT;
 * 1.6 only links them under the container's volume (KEP 1981 "Compatibility",
 * https://github.com/kubernetes/enhancements/tree/master/keps/sig-windows/1981-windows-privileged-container-support#compatibility;
 * https://github.com/microsoft/hcsshim/issues/1699). Local-group accounts need it too.
 */
export function hostProcessBindMounts(node: { containerRuntime: string }): boolean {
  const rt = runtimeVersion(node.containerRuntime);
  return rt.name === 'containerd' && atLeast(rt, 1, 7);
}

/** containerd >= 1.7 configures the runhcs-wcow-hypervisor runtime handler. */
export function hypervIsolationOn(node: { containerRuntime: string }): boolean {
  const rt = runtimeVersion(node.containerRuntime);
  return rt.name === 'containerd' && atLeast(rt, 1, 7);
}

/**
 * The kubelet's Windows runAsNonRoot check compares the user name with ContainerAdministrator
 * case-insensitively from v1.22.14, v1.23.11, v1.24.5 and v1.25.0 (CVE-2021-25749,
 * https://github.com/kubernetes/kubernetes/issues/112192); before, "CONTAINERADMINISTRATOR" passed.
 */
export function runAsNonRootAnyCase(kubeletVersion: string): boolean {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(kubeletVersion);
  if (!m) return true;
  const [minor, patch] = [Number(m[1]) * 1000 + Number(m[2]), Number(m[3])];
  const fixed: Record<number, number> = { 1022: 14, 1023: 11, 1024: 5 };
  if (minor >= 1025) return true;
  return fixed[minor] !== undefined && patch >= fixed[minor];
}

/**
 * lifecycle.stopSignal is served (ContainerStopSignals, KEP-4960): alpha from 1.33, off by
 * default, so only where the profile turns the gate on.
 */
export const stopSignalServed = (apiVersion: string, gates: Record<string, boolean> | undefined) =>
  minorVersion(apiVersion) >= 1033 && gates?.ContainerStopSignals === true;

/**
 * The Windows kubelet's graceful node shutdown gate, WindowsGracefulNodeShutdown: alpha 1.32 (off
 * by default), beta 1.34 (on) (pkg/features/kube_features.go); before 1.32 the Windows kubelet has
 * no shutdown manager. The profile's featureGates set it apart from its default.
 */
export function windowsGracefulShutdownGate(kubeletVersion: string, featureGates: Record<string, boolean> = {}): boolean {
  const v = minorVersion(kubeletVersion);
  if (v < 1032) return false;
  return featureGates['WindowsGracefulNodeShutdown'] ?? v >= 1034;
}

/**
 * The kubelet's makeMounts kept only the last subPath's cleanup action per container, so on Windows
 * the handles PrepareSafeSubpath holds on the other subPaths' directories were never closed: the
 * pod's volumes could not be torn down and a deleted pod with several subPath mounts in one
 * container stayed Terminating (https://github.com/kubernetes/kubernetes/issues/112630). Fixed by
 * https://github.com/kubernetes/kubernetes/pull/138367, first released in v1.37.0 (CHANGELOG-1.37.md,
 * v1.37.0-alpha.1, "Changelog since v1.36.0"; no backport to an older branch is listed).
 */
export const subPathHandlesLeak = (kubeletVersion: string) => minorVersion(kubeletVersion) < 1037;
