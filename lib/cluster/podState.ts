// Reading a pod's state: readiness, fail-fast reasons, a one-line description for timeouts.

import type { V1Pod } from '@kubernetes/client-node';
import { isPermanentPullFailure, pullsWaiting } from './podFailures.ts';

/**
 * Waiting reasons that will not fix themselves within a run. A pull (ErrImagePull, then
 * ImagePullBackOff) is not one of them: the kubelet retries it, and it ends a wait only when its
 * words say it cannot pass (failFastReason) or on its repeats (PodEvidence, podFailures.ts).
 */
export const FAIL_FAST_REASONS = new Set(['CrashLoopBackOff', 'CreateContainerConfigError', 'InvalidImageName', 'CreateContainerError', 'RunContainerError']);

export function isPodReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some(c => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** A container's waiting state that will not fix itself (FAIL_FAST_REASONS, a pull whose words say it cannot pass), or undefined. */
export function containerFailFastReason(pod: V1Pod): string | undefined {
  for (const cs of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
    const reason = cs.state?.waiting?.reason;
    if (reason && FAIL_FAST_REASONS.has(reason)) return reason;
  }
  return pullsWaiting(pod).find(w => isPermanentPullFailure(w.message))?.reason;
}

/** Why the pod will not become Ready, or undefined while it still may. */
export function failFastReason(pod: V1Pod): string | undefined {
  const container = containerFailFastReason(pod);
  if (container) return container;
  const scheduled = pod.status?.conditions?.find(c => c.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') return 'FailedScheduling';
  // The kubelet refused a pod bound past the scheduler's view (OutOfcpu, OutOfpods...): no room, not the pod failing.
  if (pod.status?.phase === 'Failed' && /^OutOf/.test(pod.status.reason ?? '')) return pod.status.reason;
  if (pod.status?.phase === 'Failed') return 'Failed';
  if (pod.status?.phase === 'Succeeded') return 'Succeeded';
  return undefined;
}

/** What the pod waits on, final or not: failFastReason, else a pull that is failing (for explaining a wait that timed out). */
export function stuckReason(pod: V1Pod): string | undefined {
  return failFastReason(pod) ?? pullsWaiting(pod)[0]?.reason;
}

export function describePod(pod: V1Pod | undefined): string {
  if (!pod) return 'pod not seen';
  const s = pod.status;
  const containers = (s?.containerStatuses ?? []).map(cs => {
    const st = cs.state?.waiting
      ? `waiting ${cs.state.waiting.reason ?? ''}${cs.state.waiting.message ? `: ${cs.state.waiting.message}` : ''}`
      : cs.state?.terminated
        ? `terminated ${cs.state.terminated.reason ?? ''} exit ${cs.state.terminated.exitCode}`
        : cs.state?.running
          ? 'running'
          : 'unknown';
    return `${cs.name} ${st}${cs.ready ? ' ready' : ''} (restarts ${cs.restartCount})`;
  });
  const conds = (s?.conditions ?? [])
    .filter(c => c.status !== 'True')
    .map(c => `${c.type}=${c.status}${c.reason ? ` ${c.reason}` : ''}${c.message ? `: ${c.message}` : ''}`);
  const refused = s?.reason ? [`${s.reason}${s.message ? `: ${s.message}` : ''}`] : [];
  return [`phase ${s?.phase ?? 'unknown'}`, ...refused, pod.spec?.nodeName ? `node ${pod.spec.nodeName}` : 'not scheduled', ...containers, ...conds].join('; ');
}
