// Rollout waits for Deployments and DaemonSets, by watch, failing with the last status seen.

import type { V1DaemonSet, V1Deployment } from '@kubernetes/client-node';
import type { KubeClients } from './types.ts';
import { WaitTimeoutError, watchUntil } from './watch.ts';

/** Complete = the controller saw the latest spec and every wanted replica is updated and ready. */
export function deploymentComplete(d: V1Deployment): boolean {
  const want = d.spec?.replicas ?? 1;
  const s = d.status ?? {};
  return (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
    && (s.updatedReplicas ?? 0) === want && (s.readyReplicas ?? 0) === want
    && (s.availableReplicas ?? 0) === want && (s.replicas ?? 0) === want;
}

export function describeDeployment(d: V1Deployment | undefined): string {
  if (!d) return 'deployment not seen';
  const s = d.status ?? {};
  const cond = (s.conditions ?? []).filter(c => c.status !== 'True' || c.type === 'Progressing').map(c => `${c.type}=${c.status} ${c.reason ?? ''}${c.message ? `: ${c.message}` : ''}`);
  return [`want ${d.spec?.replicas ?? 1}`, `replicas ${s.replicas ?? 0}`, `updated ${s.updatedReplicas ?? 0}`, `ready ${s.readyReplicas ?? 0}`, `available ${s.availableReplicas ?? 0}`, `generation ${d.metadata?.generation}/${s.observedGeneration ?? 0}`, ...cond].join(', ');
}

export function waitForDeploymentComplete(kube: KubeClients, namespace: string, name: string, timeoutMs: number, signal?: AbortSignal): Promise<V1Deployment> {
  return watchUntil<V1Deployment, V1Deployment>({
    kube,
    path: `/apis/apps/v1/namespaces/${namespace}/deployments`,
    fieldSelector: `metadata.name=${name}`,
    list: () => kube.apps.listNamespacedDeployment({ namespace, fieldSelector: `metadata.name=${name}` }),
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
export function waitForDaemonSetReady(kube: KubeClients, namespace: string, name: string, minDesired: number, timeoutMs: number, signal?: AbortSignal): Promise<V1DaemonSet> {
  return watchUntil<V1DaemonSet, V1DaemonSet>({
    kube,
    path: `/apis/apps/v1/namespaces/${namespace}/daemonsets`,
    fieldSelector: `metadata.name=${name}`,
    list: () => kube.apps.listNamespacedDaemonSet({ namespace, fieldSelector: `metadata.name=${name}` }),
    check: d => {
      const s = d.status;
      const ok = s && (s.observedGeneration ?? 0) >= (d.metadata?.generation ?? 0)
        && s.desiredNumberScheduled >= minDesired && s.numberReady === s.desiredNumberScheduled;
      return ok ? d : undefined;
    },
    what: `daemonset ${namespace}/${name} to have ${minDesired} ready pod(s)`,
    describe: describeDaemonSet,
    timeoutMs,
    signal,
  });
}
