// Pod Security admission and the harness: the run namespace asks for privileged at every
// mode, and workload fixtures are checked (a server dry-run of their pod template) before
// creation, because admission only warns about a Deployment whose pods it will refuse.

import type { KubernetesObject, V1Pod, V1PodTemplateSpec } from '@kubernetes/client-node';
import type { KubeClients } from './types.ts';

export const POD_SECURITY_PRIVILEGED: Record<string, string> = {
  'pod-security.kubernetes.io/enforce': 'privileged',
  'pod-security.kubernetes.io/audit': 'privileged',
  'pod-security.kubernetes.io/warn': 'privileged',
};

const WORKLOAD_KINDS = new Set(['Deployment', 'DaemonSet', 'StatefulSet', 'ReplicaSet', 'Job']);

/**
 * For a workload, a dry-run create of a pod with its template, which the cluster's Pod
 * Security admission evaluates as it will the real pods: throws its rejection.
 */
export async function dryRunPodTemplate(kube: KubeClients, obj: KubernetesObject): Promise<void> {
  if (!WORKLOAD_KINDS.has(obj.kind ?? '')) return;
  const template = (obj as { spec?: { template?: V1PodTemplateSpec } }).spec?.template;
  const namespace = obj.metadata?.namespace;
  if (!template?.spec || !namespace) return;
  const pod: V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${obj.metadata?.name}-template`, namespace, labels: template.metadata?.labels },
    spec: template.spec,
  };
  await kube.core.createNamespacedPod({ namespace, body: pod, dryRun: 'All' });
}
