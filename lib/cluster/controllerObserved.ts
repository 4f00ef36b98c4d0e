// A workload's controller has to observe it before anything else happens: the Deployment,
// DaemonSet and StatefulSet controllers write status.observedGeneration on their first sync,
// within seconds of a create or an update. A workload that has no status (or an older
// observedGeneration) long after that has no controller acting on it, and its rollout will not
// come by waiting: the wait ends on that evidence, naming the controller, instead of at the
// rollout deadline.

import type { KubernetesObject } from '@kubernetes/client-node';
import { listAll, type PagedList } from './list.ts';
import { MeansError, type Means } from './meansError.ts';
import type { KubeClients } from './types.ts';
import { WaitTimeoutError, watchUntil } from './watch.ts';

export type ControlledKind = 'Deployment' | 'DaemonSet' | 'StatefulSet' | 'ReplicaSet';

/** The controller (kube-controller-manager's name for it) that writes each kind's status. */
export const CONTROLLER_OF: Record<ControlledKind, Means & `${string}-controller`> = {
  Deployment: 'deployment-controller',
  DaemonSet: 'daemonset-controller',
  StatefulSet: 'statefulset-controller',
  ReplicaSet: 'replicaset-controller',
};

const PLURAL: Record<ControlledKind, string> = { Deployment: 'deployments', DaemonSet: 'daemonsets', StatefulSet: 'statefulsets', ReplicaSet: 'replicasets' };

type Controlled = KubernetesObject & { status?: { observedGeneration?: number } };

/** The controller has seen the object's current spec (observedGeneration caught up with generation). */
export function controllerObserved(o: Controlled): boolean {
  const observed = o.status?.observedGeneration;
  return observed !== undefined && observed >= (o.metadata?.generation ?? 1);
}

function describeObserved(o: Controlled | undefined): string {
  if (!o) return 'not seen';
  if (!o.status || o.status.observedGeneration === undefined) return `generation ${o.metadata?.generation ?? 1}, no status.observedGeneration`;
  return `generation ${o.metadata?.generation ?? 1}, observedGeneration ${o.status.observedGeneration}`;
}

/** The workload's controller did not observe it within the bound: a MeansError naming that controller. */
export class ControllerNotActingError extends MeansError {
  constructor(
    readonly kind: ControlledKind,
    message: string,
  ) {
    super(CONTROLLER_OF[kind], message);
  }
}

/**
 * Rejects with ControllerNotActingError when the workload's controller has not observed its
 * current generation within boundMs; once it has, stays pending (it never resolves). Stop it with
 * `signal` when the wait it guards ends.
 */
export function failWhenNotObserved(
  kube: KubeClients,
  namespace: string,
  kind: ControlledKind,
  name: string,
  boundMs: number,
  signal: AbortSignal,
): Promise<never> {
  const fieldSelector = `metadata.name=${name}`;
  const list = () =>
    listAll<PagedList<Controlled>>(q =>
      kind === 'Deployment'
        ? kube.apps.listNamespacedDeployment({ namespace, fieldSelector, ...q })
        : kind === 'DaemonSet'
          ? kube.apps.listNamespacedDaemonSet({ namespace, fieldSelector, ...q })
          : kind === 'StatefulSet'
            ? kube.apps.listNamespacedStatefulSet({ namespace, fieldSelector, ...q })
            : kube.apps.listNamespacedReplicaSet({ namespace, fieldSelector, ...q }),
    );
  const controller = CONTROLLER_OF[kind];
  return watchUntil<Controlled, true>({
    kube,
    path: `/apis/apps/v1/namespaces/${namespace}/${PLURAL[kind]}`,
    fieldSelector,
    list,
    check: o => (o.metadata?.name === name && controllerObserved(o)) || undefined,
    what: `the ${controller} to observe ${kind.toLowerCase()} ${namespace}/${name}`,
    describe: describeObserved,
    timeoutMs: boundMs,
    signal,
  }).then(
    () => new Promise<never>(() => undefined),
    (e: unknown) => {
      if (signal.aborted || !(e instanceof WaitTimeoutError)) return new Promise<never>(() => undefined);
      const last = /last state seen: (.*)$/.exec(e.message)?.[1] ?? '';
      throw new ControllerNotActingError(
        kind,
        `${kind.toLowerCase()} ${namespace}/${name}: its controller (${controller}) has not observed it in ${Math.round(boundMs / 1000)}s (${last}), so nothing of it will roll out`,
      );
    },
  );
}

/** Runs `wait`, failing early with ControllerNotActingError when the workload's controller does not observe it within boundMs. */
export async function whileControllerActs<T>(
  kube: KubeClients,
  workload: { namespace: string; kind: ControlledKind; name: string },
  boundMs: number | undefined,
  signal: AbortSignal | undefined,
  wait: () => Promise<T>,
): Promise<T> {
  if (!boundMs) return wait();
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await Promise.race([wait(), failWhenNotObserved(kube, workload.namespace, workload.kind, workload.name, boundMs, stop.signal)]);
  } finally {
    stop.abort();
    signal?.removeEventListener('abort', onAbort);
  }
}
