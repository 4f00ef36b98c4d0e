// Rollout waits for Deployments and DaemonSets, by watch, failing with the last status seen, and
// early when one of their pods stays Unschedulable (UnschedulableError) or fails for good
// (WorkloadPodFailedError), or their controller does not observe them (ControllerNotActingError).

import type { V1DaemonSet, V1Deployment, V1Pod } from '@kubernetes/client-node';
import { whileControllerActs } from './controllerObserved.ts';
import { MeansError, podStartMeans } from './meansError.ts';
import { containerFailFastReason, describePod } from './podState.ts';
import { PodEvidenceWatch } from './podWait.ts';
import type { KubeClients } from './types.ts';
import { WaitTimeoutError, watchUntil } from './watch.ts';
import { listAll } from './list.ts';
import type { FinalPodFailure } from './podFailures.ts';

/** Complete = the controller saw the latest spec and every wanted replica is updated and ready. */
export function deploymentComplete(d: V1Deployment): boolean {
  const want = d.spec?.replicas ?? 1;
  const s = d.status ?? {};
  return (
    (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
    (s.updatedReplicas ?? 0) === want &&
    (s.readyReplicas ?? 0) === want &&
    (s.availableReplicas ?? 0) === want &&
    (s.replicas ?? 0) === want
  );
}

export function describeDeployment(d: V1Deployment | undefined): string {
  if (!d) return 'deployment not seen';
  const s = d.status ?? {};
  const cond = (s.conditions ?? [])
    .filter(c => c.status !== 'True' || c.type === 'Progressing')
    .map(c => `${c.type}=${c.status} ${c.reason ?? ''}${c.message ? `: ${c.message}` : ''}`);
  return [
    `want ${d.spec?.replicas ?? 1}`,
    `replicas ${s.replicas ?? 0}`,
    `updated ${s.updatedReplicas ?? 0}`,
    `ready ${s.readyReplicas ?? 0}`,
    `available ${s.availableReplicas ?? 0}`,
    `generation ${d.metadata?.generation}/${s.observedGeneration ?? 0}`,
    ...cond,
  ].join(', ');
}

/**
 * A workload's pod stayed Unschedulable (FailedScheduling) for the whole grace period: the rollout
 * will not complete by waiting. Not a WaitTimeoutError: the harness could not place its pods,
 * which is an error of its own means, not an observation of the workload.
 */
export class UnschedulableError extends MeansError {
  constructor(
    message: string,
    readonly podName: string,
    readonly schedulerMessage: string,
    namespace: string,
  ) {
    // "Insufficient cpu", "Too many pods": no room (capacity); anything else: placement (scheduling).
    super(podStartMeans('FailedScheduling', schedulerMessage) ?? 'scheduling', message, { pod: { namespace, name: podName } });
  }
}

/** How long a pod may stay Unschedulable before a rollout wait gives up (a surge pod waits for an old one to go). */
export const UNSCHEDULABLE_GRACE_MS = 30_000;

/**
 * A pod of the workload reached a state that does not fix itself by waiting (the fail-fast states
 * of a single pod's wait: CrashLoopBackOff, CreateContainerConfigError, a pull that cannot pass...)
 * or its evidence says so (PodEvidence: a sandbox failing in the same words, a pull failing again
 * and again): the rollout will not complete. A WaitTimeoutError, so callers read it as a rollout that did not come
 * (lib/catalog/kit/observe.ts meansOfWorkload then names a means failure, such as a pull).
 */
export class WorkloadPodFailedError extends WaitTimeoutError {}

/**
 * Rejects with UnschedulableError once a pod matching the selector has stayed Unschedulable for
 * graceMs, and with WorkloadPodFailedError as soon as one is in a fail-fast state or its evidence
 * says it will not start (PodEvidenceWatch, the judgement of single pod waits); never resolves.
 * Stop it with `signal` when the wait it guards ends.
 */
export function failWhenUnschedulable(
  kube: KubeClients,
  namespace: string,
  labelSelector: string,
  what: string,
  graceMs: number,
  signal: AbortSignal,
): Promise<never> {
  return new Promise<never>((_, reject) => {
    const since = new Map<string, NodeJS.Timeout>();
    const clear = (name: string) => {
      clearTimeout(since.get(name));
      since.delete(name);
    };
    signal.addEventListener(
      'abort',
      () => {
        for (const name of [...since.keys()]) clear(name);
      },
      { once: true },
    );
    const last = new Map<string, V1Pod>();
    const final = (name: string, f: FinalPodFailure) => {
      const pod = last.get(name);
      if (pod && !signal.aborted)
        reject(
          new WorkloadPodFailedError(
            `${what}: pod ${namespace}/${name}: ${f.what} (${f.message}), so the rollout will not complete by waiting: ${describePod(pod)}`,
          ),
        );
    };
    // Only the selector's pods are fed to it: events of the namespace's other pods judge nothing.
    const evidence = new PodEvidenceWatch(kube, namespace, undefined, signal, { final, failed: reject });
    const seen = (pod: V1Pod, type: string) => {
      const name = pod.metadata?.name ?? '';
      const live = type !== 'DELETED' && !pod.metadata?.deletionTimestamp;
      if (live) last.set(name, pod);
      else last.delete(name);
      const failed = live ? containerFailFastReason(pod) : undefined;
      if (failed && !signal.aborted) {
        reject(new WorkloadPodFailedError(`${what}: pod ${namespace}/${name} is ${failed}, so the rollout will not complete by waiting: ${describePod(pod)}`));
        return;
      }
      const f = evidence.pod(pod, type);
      if (f) return final(name, f);
      const c = pod.status?.conditions?.find(x => x.type === 'PodScheduled');
      const stuck = type !== 'DELETED' && !pod.metadata?.deletionTimestamp && !pod.spec?.nodeName && c?.status === 'False' && c.reason === 'Unschedulable';
      if (!stuck) return clear(name);
      if (since.has(name)) return;
      const message = c?.message ?? 'Unschedulable';
      since.set(
        name,
        setTimeout(() => {
          if (!signal.aborted)
            reject(
              new UnschedulableError(
                `${what}: pod ${namespace}/${name} stayed Unschedulable for ${Math.round(graceMs / 1000)}s: ${message}`,
                name,
                message,
                namespace,
              ),
            );
        }, graceMs),
      );
    };
    watchUntil<V1Pod, never>({
      kube,
      path: `/api/v1/namespaces/${namespace}/pods`,
      labelSelector,
      list: () => listAll(q => kube.core.listNamespacedPod({ namespace, labelSelector, ...q })),
      check: (pod, type) => {
        seen(pod, type);
        return undefined;
      },
      what: `pods ${labelSelector} to stay schedulable`,
      describe: () => '',
      timeoutMs: 24 * 3600_000,
      signal,
    }).catch((e: unknown) => {
      if (!signal.aborted) reject(e);
    });
  });
}

/** Runs `wait`, failing early when a pod of the selector stays Unschedulable or fails for good (see failWhenUnschedulable). */
export async function withSchedulingGuard<T>(
  kube: KubeClients,
  namespace: string,
  selector: string | undefined,
  what: string,
  graceMs: number,
  signal: AbortSignal | undefined,
  wait: () => Promise<T>,
): Promise<T> {
  if (!selector) return wait();
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await Promise.race([wait(), failWhenUnschedulable(kube, namespace, selector, what, graceMs, stop.signal)]);
  } finally {
    stop.abort();
    signal?.removeEventListener('abort', onAbort);
  }
}

export function selectorOf(matchLabels: Record<string, string> | undefined): string | undefined {
  const entries = Object.entries(matchLabels ?? {});
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(',') : undefined;
}

export interface RolloutWaitOptions {
  /** How long a pod may stay Unschedulable before the wait fails with UnschedulableError. */
  unschedulableGraceMs?: number;
  /** How long the controller may take to observe the workload before the wait fails with ControllerNotActingError (unset: no bound). */
  controllerObserveMs?: number;
}

export async function waitForDeploymentComplete(
  kube: KubeClients,
  namespace: string,
  name: string,
  timeoutMs: number,
  signal?: AbortSignal,
  opts: RolloutWaitOptions = {},
): Promise<V1Deployment> {
  const d = await kube.apps.readNamespacedDeployment({ namespace, name });
  return withSchedulingGuard(
    kube,
    namespace,
    selectorOf(d.spec?.selector.matchLabels),
    `deployment ${namespace}/${name}`,
    opts.unschedulableGraceMs ?? UNSCHEDULABLE_GRACE_MS,
    signal,
    () =>
      whileControllerActs(kube, { namespace, kind: 'Deployment', name }, opts.controllerObserveMs, signal, () =>
        watchDeploymentComplete(kube, namespace, name, timeoutMs, signal),
      ),
  );
}

function watchDeploymentComplete(kube: KubeClients, namespace: string, name: string, timeoutMs: number, signal?: AbortSignal): Promise<V1Deployment> {
  return watchUntil<V1Deployment, V1Deployment>({
    kube,
    path: `/apis/apps/v1/namespaces/${namespace}/deployments`,
    fieldSelector: `metadata.name=${name}`,
    list: () => listAll(q => kube.apps.listNamespacedDeployment({ namespace, fieldSelector: `metadata.name=${name}`, ...q })),
    check: d => {
      if (deploymentComplete(d)) return d;
      // The controller gave up (progressDeadlineSeconds): waiting longer will not help.
      const progressing = d.status?.conditions?.find(c => c.type === 'Progressing');
      if (progressing?.status === 'False' && progressing.reason === 'ProgressDeadlineExceeded')
        throw new WaitTimeoutError(`deployment ${namespace}/${name} exceeded its progress deadline: ${describeDeployment(d)}`);
      return undefined;
    },
    what: `deployment ${namespace}/${name} to complete its rollout`,
    describe: describeDeployment,
    timeoutMs,
    signal,
  });
}

export function describeDaemonSet(d: V1DaemonSet | undefined): string {
  if (!d) return 'daemonset not seen';
  const s = d.status;
  return `desired ${s?.desiredNumberScheduled ?? 0}, scheduled ${s?.currentNumberScheduled ?? 0}, ready ${s?.numberReady ?? 0}, updated ${s?.updatedNumberScheduled ?? 0}, misscheduled ${s?.numberMisscheduled ?? 0}`;
}

/** Ready = every pod the controller wants is ready, and it wants at least `minDesired`. */
export async function waitForDaemonSetReady(
  kube: KubeClients,
  namespace: string,
  name: string,
  minDesired: number,
  timeoutMs: number,
  signal?: AbortSignal,
  opts: RolloutWaitOptions = {},
): Promise<V1DaemonSet> {
  const d = await kube.apps.readNamespacedDaemonSet({ namespace, name });
  return withSchedulingGuard(
    kube,
    namespace,
    selectorOf(d.spec?.selector.matchLabels),
    `daemonset ${namespace}/${name}`,
    opts.unschedulableGraceMs ?? UNSCHEDULABLE_GRACE_MS,
    signal,
    () =>
      whileControllerActs(kube, { namespace, kind: 'DaemonSet', name }, opts.controllerObserveMs, signal, () =>
        watchDaemonSetReady(kube, namespace, name, minDesired, timeoutMs, signal),
      ),
  );
}

function watchDaemonSetReady(
  kube: KubeClients,
  namespace: string,
  name: string,
  minDesired: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<V1DaemonSet> {
  return watchUntil<V1DaemonSet, V1DaemonSet>({
    kube,
    path: `/apis/apps/v1/namespaces/${namespace}/daemonsets`,
    fieldSelector: `metadata.name=${name}`,
    list: () => listAll(q => kube.apps.listNamespacedDaemonSet({ namespace, fieldSelector: `metadata.name=${name}`, ...q })),
    check: d => {
      const s = d.status;
      const ok =
        s &&
        (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0) &&
        s.desiredNumberScheduled >= minDesired &&
        s.numberReady === s.desiredNumberScheduled;
      return ok ? d : undefined;
    },
    what: `daemonset ${namespace}/${name} to have ${minDesired} ready pod(s)`,
    describe: describeDaemonSet,
    timeoutMs,
    signal,
  });
}
