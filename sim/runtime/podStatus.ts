// The pod status the kubelet writes: phase, conditions with stable transition
// times, IPs, containerStatuses, qosClass.

import type { V1ContainerStatus, V1Pod, V1PodCondition, V1PodStatus } from '@kubernetes/client-node';
import type { ContainerRunner } from './container.ts';
import { parseQuantity } from '../../util/quantity.ts';

export type Phase = 'Pending' | 'Running' | 'Succeeded' | 'Failed';

export interface StatusInput {
  pod: V1Pod;
  phase: Phase;
  hostIP: string;
  podIPs: string[];
  startTime?: Date;
  sandboxReady: boolean;
  initialized: boolean;
  init: ContainerRunner[];
  containers: ContainerRunner[];
  reason?: string;
  message?: string;
  /** A DisruptionTarget condition the kubelet added (True), e.g. the shutdown manager's TerminationByKubelet. */
  disruption?: { reason: string; message: string };
}

export function qosClass(pod: V1Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const cs = [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])];
  const any = cs.some(c => Object.keys(c.resources?.limits ?? {}).length || Object.keys(c.resources?.requests ?? {}).length);
  if (!any) return 'BestEffort';
  const guaranteed = (pod.spec?.containers ?? []).every(c =>
    ['cpu', 'memory'].every(r => {
      const l = parseQuantity(c.resources?.limits?.[r] as string | undefined);
      const q = parseQuantity((c.resources?.requests?.[r] ?? c.resources?.limits?.[r]) as string | undefined);
      return l !== undefined && l === q;
    }),
  );
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

function containerStatus(c: ContainerRunner): V1ContainerStatus {
  return {
    name: c.name,
    state: c.state,
    lastState: c.lastState,
    ready: c.ready,
    restartCount: c.restartCount,
    image: c.pulled?.image ?? c.spec.image ?? '',
    imageID: c.pulled?.imageID ?? '',
    ...(c.containerID ? { containerID: `containerd://${c.containerID}` } : {}),
    started: c.running && c.startupPassed,
  };
}

/** Builds status; conditions keep their lastTransitionTime while their status is unchanged. */
export function buildStatus(s: StatusInput, prev: V1PodStatus | undefined): V1PodStatus {
  const now = new Date();
  const prevCond = new Map((prev?.conditions ?? []).map(c => [c.type, c]));
  const cond = (type: string, ok: boolean, reason?: string, message?: string): V1PodCondition => {
    const status = ok ? 'True' : 'False';
    const p = prevCond.get(type);
    return {
      type,
      status,
      lastProbeTime: null as unknown as undefined,
      lastTransitionTime: p && p.status === status ? p.lastTransitionTime : now,
      ...(reason ? { reason } : {}),
      ...(message ? { message } : {}),
    };
  };
  const unready = s.containers.filter(c => !c.ready).map(c => c.name);
  const incompleteInit = s.init.filter(c => !(c.state.terminated?.exitCode === 0) && !(c.spec.restartPolicy === 'Always' && c.running)).map(c => c.name);
  const done = s.phase === 'Succeeded' || s.phase === 'Failed';
  const ready = !done && s.initialized && unready.length === 0;
  const notReadyReason = done ? 'PodCompleted' : 'ContainersNotReady';
  const notReadyMsg = done ? undefined : `containers with unready status: [${unready.join(' ')}]`;
  const conditions: V1PodCondition[] = [
    cond('PodReadyToStartContainers', s.sandboxReady),
    cond(
      'Initialized',
      s.initialized,
      s.initialized ? (done && s.init.length ? 'PodCompleted' : undefined) : 'ContainersNotInitialized',
      s.initialized ? undefined : `containers with incomplete status: [${incompleteInit.join(' ')}]`,
    ),
    cond('Ready', ready, ready ? undefined : notReadyReason, ready ? undefined : notReadyMsg),
    cond('ContainersReady', ready, ready ? undefined : notReadyReason, ready ? undefined : notReadyMsg),
    prevCond.get('PodScheduled') ?? cond('PodScheduled', true),
    ...(s.disruption ? [cond('DisruptionTarget', true, s.disruption.reason, s.disruption.message)] : []),
  ];
  return rfc3339({
    phase: s.phase,
    conditions,
    ...(s.reason ? { reason: s.reason } : {}),
    ...(s.message ? { message: s.message } : {}),
    hostIP: s.hostIP,
    hostIPs: [{ ip: s.hostIP }],
    ...(s.podIPs.length ? { podIP: s.podIPs[0], podIPs: s.podIPs.map(ip => ({ ip })) } : {}),
    ...(s.startTime ? { startTime: s.startTime } : {}),
    ...(s.init.length ? { initContainerStatuses: s.init.map(containerStatus) } : {}),
    containerStatuses: s.containers.map(containerStatus),
    qosClass: qosClass(s.pod),
  });
}

/** Dates as the API server serializes them: RFC 3339 with whole seconds. */
function rfc3339<T>(o: T): T {
  const walk = (v: unknown): unknown => {
    if (v instanceof Date) return v.toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(o) as T;
}
