// Copies of a declared fixture's pod, created at probe time.

import type { KubernetesObject, V1Pod } from '@kubernetes/client-node';
import type { CheckContext } from '../types.ts';
import { createObject } from '../../cluster/create.ts';

/**
 * Creates a copy of the pod of a declared, rendered fixture under a new name (run labels,
 * tolerations, placement and image mirror included), changed by `change`. For values only known
 * at probe time: another build's image tag, a server's pod IP.
 */
export async function createPodLike(ctx: CheckContext, fixtureId: string, name: string, change: (pod: V1Pod) => void): Promise<V1Pod> {
  const rendered = ctx.fixture(fixtureId);
  const base = rendered.objects.find((o: KubernetesObject) => o.kind === 'Pod') as V1Pod | undefined;
  if (!base) throw new Error(`fixture ${fixtureId} has no Pod to copy`);
  const pod = structuredClone(base);
  pod.metadata = { name, namespace: ctx.namespace, labels: { ...base.metadata?.labels, ...ctx.labels } };
  delete pod.status;
  change(pod);
  return createObject(ctx.kube, pod);
}
