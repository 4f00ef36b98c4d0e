// Creating fixture objects: one call per object, errors naming the object and the server's reason.

import type { KubernetesObject } from '@kubernetes/client-node';
import { apiErrorMessage } from './apiError.ts';
import type { KubeClients } from './types.ts';

export function objectRef(obj: KubernetesObject): string {
  return `${obj.kind} ${obj.metadata?.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata?.name}`;
}

export async function createObject<T extends KubernetesObject>(kube: KubeClients, obj: T): Promise<T> {
  try {
    return await kube.objects.create(obj);
  } catch (e) {
    throw new Error(`failed to create ${objectRef(obj)}: ${apiErrorMessage(e)}`, { cause: e });
  }
}
