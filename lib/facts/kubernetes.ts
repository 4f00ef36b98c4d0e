// When a Kubernetes feature reached each stage, and what that means for a cluster's version:
// the facts expectations cite (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/), the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/), the KEPs and upstream docs named in `source`).
// Pure; tested without a cluster.

import { versionAtLeast } from '../../util/version.ts';
import { cite, sources, type Source } from './sources.ts';

export type MinorVersion = [major: number, minor: number];

/** The API server's version as GET /version gives it. */
export interface ServerVersion {
  gitVersion: string;
  major: number;
  minor: number;
}

/** A node's container runtime as its status names it ("containerd", "1.7.22"). */
export interface NodeRuntime {
  name: string;
  runtimeName: string;
  runtimeVersion: string;
}

/** Kubernetes version >= major.minor. */
export function k8sAtLeast(v: { major: number; minor: number }, major: number, minor: number): boolean {
  return v.major > major || (v.major === major && v.minor >= minor);
}

export interface FeatureStages {
  /** Human name, with the feature gate. */
  name: string;
  alpha: MinorVersion;
  beta: MinorVersion;
  ga: MinorVersion;
  source: Source;
}

export type Stage = 'absent' | 'alpha' | 'beta' | 'ga';

/** spec.os (IdentifyPodOS): alpha 1.23 (off by default), beta 1.24 (on), GA 1.25. */
export const POD_OS_FIELD: FeatureStages = {
  name: 'the pod OS field spec.os (IdentifyPodOS)',
  alpha: [1, 23],
  beta: [1, 24],
  ga: [1, 25],
  source: sources(cite.kep(2802), cite.pods('pod OS')),
};

/** HostProcess containers (WindowsHostProcessContainers): alpha 1.22, beta 1.23 (on by default), GA 1.26. */
export const HOST_PROCESS: FeatureStages = {
  name: 'HostProcess containers (WindowsHostProcessContainers)',
  alpha: [1, 22],
  beta: [1, 23],
  ga: [1, 26],
  source: sources(cite.kep(1981), cite.hostProcessPod()),
};

/**
 * Several subPath mounts in one Windows container leaked file handles (makeMounts kept only the
 * last subPath's cleanup), so the pod's volumes could not be torn down and it stayed Terminating
 * (https://github.com/kubernetes/kubernetes/issues/112630). Fixed by
 * https://github.com/kubernetes/kubernetes/pull/138367, listed in CHANGELOG-1.37.md under
 * v1.37.0-alpha.1 ("Changelog since v1.36.0", Bug or Regression); no 1.36 or older patch release
 * lists a backport, so the first release with the fix is v1.37.0.
 */
export const SUBPATH_HANDLE_LEAK_FIXED: MinorVersion = [1, 37];
export const SUBPATH_HANDLE_LEAK_SOURCE = sources(
  cite.k8sIssue(112630, 'EmptyDir not being cleaned up after pod terminated with open file handles', 'v1.36'),
  cite.k8sPull(138367, 'fix: accumulate subpath cleanup actions in makeMounts to prevent handle leak', 'v1.37'),
  cite.changelog(
    '1.37',
    'v1.37.0-alpha.1, Bug or Regression: "Fixed a bug where pods with multiple subPath volume mounts on Windows would get stuck in Terminating state because file handles from subPath preparation were leaked, preventing volume cleanup. (#138367)"',
  ),
);

/** dockershim was removed from the kubelet in 1.24. */
export const DOCKERSHIM_REMOVED: MinorVersion = [1, 24];
export const DOCKERSHIM_SOURCE = sources(cite.v122Intro('container runtimes: Docker EE-basic 19.03+ through dockershim'), cite.dockershimRemoval('1.24'));

const fmt = (v: MinorVersion) => `${v[0]}.${v[1]}`;

export function stageAt(f: FeatureStages, v: ServerVersion): Stage {
  if (k8sAtLeast(v, ...f.ga)) return 'ga';
  if (k8sAtLeast(v, ...f.beta)) return 'beta';
  if (k8sAtLeast(v, ...f.alpha)) return 'alpha';
  return 'absent';
}

/** Beta and GA gates are on by default; alpha ones are off, and before alpha the API has no such thing. */
export function onByDefault(f: FeatureStages, v: ServerVersion): boolean {
  const s = stageAt(f, v);
  return s === 'beta' || s === 'ga';
}

/** "HostProcess containers (...) are beta in Kubernetes v1.24 (alpha 1.22, beta 1.23, GA 1.26), on by default". */
export function describeStage(f: FeatureStages, v: ServerVersion): string {
  const s = stageAt(f, v);
  const history = `alpha ${fmt(f.alpha)}, beta ${fmt(f.beta)}, GA ${fmt(f.ga)}`;
  const state = s === 'absent' ? `not in Kubernetes ${v.gitVersion}` : `${s === 'ga' ? 'GA' : s} in Kubernetes ${v.gitVersion}`;
  const gate = s === 'alpha' ? ', off by default' : s === 'beta' ? ', on by default' : '';
  return `${f.name}: ${state} (${history})${gate}`;
}

export interface RuntimeVerdict {
  /** undefined: the runtime's version could not be read, so support cannot be told. */
  ok: boolean | undefined;
  why: string;
}

/**
 * Whether the node's container runtime is one the control plane's version supports on Windows:
 * before 1.24 Docker EE 19.03+ (dockershim) or containerd 1.4+ (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/)); from 1.24 containerd
 * 1.6+ (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) node.runtime; dockershim removed).
 */
export function runtimeSupport(n: NodeRuntime, v: ServerVersion): RuntimeVerdict {
  const shim = k8sAtLeast(v, ...DOCKERSHIM_REMOVED) ? undefined : 'dockershim';
  const readable = /^\d+(\.\d+)*/.test(n.runtimeVersion);
  const what = `${n.name} runs ${n.runtimeName}://${n.runtimeVersion || '?'}`;
  if (n.runtimeName === 'docker') {
    if (!shim) return { ok: false, why: `${what}: dockershim was removed in Kubernetes ${fmt(DOCKERSHIM_REMOVED)} (cluster ${v.gitVersion})` };
    if (!readable)
      return {
        ok: undefined,
        why: `could not tell the Docker version of ${n.name} ("${n.runtimeVersion}"): Kubernetes ${v.gitVersion} supports Docker EE 19.03+ through dockershim`,
      };
    return versionAtLeast(n.runtimeVersion, '19.3')
      ? { ok: true, why: `${what}: Docker EE 19.03+ through dockershim is supported before Kubernetes ${fmt(DOCKERSHIM_REMOVED)} (cluster ${v.gitVersion})` }
      : { ok: false, why: `${what}: Kubernetes ${v.gitVersion} supports Docker EE 19.03+ (dockershim)` };
  }
  if (n.runtimeName === 'containerd') {
    const min = shim ? '1.4' : '1.6';
    if (!readable)
      return {
        ok: undefined,
        why: `could not tell the containerd version of ${n.name} ("${n.runtimeVersion}"): Kubernetes ${v.gitVersion} needs containerd ${min}+`,
      };
    return versionAtLeast(n.runtimeVersion, min)
      ? { ok: true, why: `${what}: containerd ${min}+ is supported with Kubernetes ${v.gitVersion}` }
      : { ok: false, why: `${what}: Kubernetes ${v.gitVersion} needs containerd ${min}+ on Windows` };
  }
  return { ok: false, why: `${what}: Windows nodes run containerd${shim ? ' or Docker EE (dockershim)' : ''}` };
}

/** Hyper-V isolation: a runhcs-wcow-hypervisor RuntimeClass, which only containerd 1.7+ serves (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/)). */
export const HYPERV_CONTAINERD_MIN = '1.7';

/**
 * containerd from which a HostProcess container's volumes are bind-mounted at their mountPath (and
 * local-group accounts run); before, they are linked under $CONTAINER_SANDBOX_MOUNT_POINT only
 * (KEP-1981 "Compatibility"; upstream host_process.go skips in-cluster config and local groups below it).
 */
export const HOST_PROCESS_BIND_MIN = '1.7';

export function hostProcessBindMounts(n: Omit<NodeRuntime, 'name'>): boolean {
  return n.runtimeName === 'containerd' && /^\d/.test(n.runtimeVersion) && versionAtLeast(n.runtimeVersion, HOST_PROCESS_BIND_MIN);
}

export function hypervCapable(n: Omit<NodeRuntime, 'name'>): boolean {
  return n.runtimeName === 'containerd' && /^\d/.test(n.runtimeVersion) && versionAtLeast(n.runtimeVersion, HYPERV_CONTAINERD_MIN);
}

/**
 * runAsNonRoot on Windows: the kubelet refuses a container whose user is ContainerAdministrator
 * (verifyRunAsNonRoot, pkg/kubelet/kuberuntime/security_context_windows.go). Before these patch
 * releases it compared the name case-sensitively, so "CONTAINERADMINISTRATOR" ran anyway
 * (CVE-2021-25749, https://github.com/kubernetes/kubernetes/issues/112192).
 */
export const RUN_AS_NONROOT_ANY_CASE = {
  fixedIn: ['1.22.14', '1.23.11', '1.24.5', '1.25.0'],
  source: sources(
    cite.k8s('pkg/kubelet/kuberuntime/security_context_windows.go', 'verifyRunAsNonRoot: strings.EqualFold with ContainerAdministrator, CVE-2021-25749'),
  ),
};

/** Whether a kubelet of this version refuses ContainerAdministrator under runAsNonRoot in any letter case; undefined when unreadable. */
export function kubeletRefusesAdminAnyCase(kubeletVersion: string): boolean | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(kubeletVersion);
  if (!m) return undefined;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  const line = RUN_AS_NONROOT_ANY_CASE.fixedIn.find(f => f.startsWith(`${major}.${minor}.`));
  if (line) return versionAtLeast(kubeletVersion, line);
  const last = RUN_AS_NONROOT_ANY_CASE.fixedIn[RUN_AS_NONROOT_ANY_CASE.fixedIn.length - 1];
  return versionAtLeast(kubeletVersion, last);
}

/**
 * lifecycle.stopSignal (ContainerStopSignals, KEP-4960): alpha in 1.33, off by default. With
 * spec.os.name=windows only SIGTERM and SIGKILL validate; with the gate off the API server drops
 * the field on write.
 */
export const CONTAINER_STOP_SIGNALS = {
  name: 'lifecycle.stopSignal (ContainerStopSignals)',
  alpha: [1, 33] as MinorVersion,
  windowsSignals: ['SIGTERM', 'SIGKILL'],
  source: sources(
    cite.kep(4960, 'Windows Pods: only SIGTERM and SIGKILL'),
    cite.e2eTest('container_stop_signals.go', '"should validate stop signals for Windows pods"'),
  ),
};
