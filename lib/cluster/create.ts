// Creating fixture objects: one call per object, errors naming the object and the server's reason.

import type { KubernetesObject } from '@kubernetes/client-node';
import { RUN_LABEL } from '../labels.ts';
import { apiErrorMessage, apiStatusCode } from './apiError.ts';
import type { KubeClients } from './types.ts';

export function objectRef(obj: KubernetesObject): string {
  return `${obj.kind} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name}`;
}

export async function createObject<T extends KubernetesObject>(kube: KubeClients, obj: T): Promise<T> {
  try {
    return await kube.objects.create(obj);
  } catch (e) {
    // A create retried after a reset or a 5xx may have landed the first time: a 409 for an object
    // that carries this run's label is ours, created; anyone else's is a real conflict.
    const own = apiStatusCode(e) === 409 ? await ownExisting(kube, obj) : undefined;
    if (own) return own;
    throw new Error(`failed to create ${objectRef(obj)}: ${apiErrorMessage(e)}`, { cause: e });
  }
}

async function ownExisting<T extends KubernetesObject>(kube: KubeClients, obj: T): Promise<T | undefined> {
  const runId = obj.metadata?.labels?.[RUN_LABEL];
  if (!runId || !obj.metadata?.name) return undefined;
  try {
    const existing = (await kube.objects.read(obj as T & { metadata: { name: string } })) as T;
    return existing.metadata?.labels?.[RUN_LABEL] === runId ? existing : undefined;
  } catch {
    return undefined;
  }
}
