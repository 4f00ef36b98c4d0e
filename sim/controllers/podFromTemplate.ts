// Creating one pod from a controller's pod template, as the ReplicaSet and Job controllers do
// (upstream: controller_utils.go CreatePodsWithGenerateName): generateName from the owner,
// a controller ownerReference, and the SuccessfulCreate / FailedCreate event.

import type { V1PodTemplateSpec, V1Pod } from '@kubernetes/client-node';
import { StoreError, type KubeObject, type Store } from '../api/store.ts';
import { recordEvent } from './events.ts';
import { ownerReferenceTo } from './objects.ts';

export function createPodFromTemplate(
  store: Store,
  owner: KubeObject,
  apiVersion: string,
  kind: string,
  template: V1PodTemplateSpec | undefined,
  source: string,
): KubeObject | undefined {
  const t = structuredClone(template ?? { spec: { containers: [] } });
  const pod: V1Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      ...t.metadata,
      name: undefined,
      generateName: `${owner.metadata.name}-`,
      namespace: owner.metadata.namespace,
      ownerReferences: [ownerReferenceTo(owner, apiVersion, kind)],
    },
    spec: t.spec,
  };
  try {
    const created = store.create('pods', pod as unknown as KubeObject);
    recordEvent(store, owner, 'Normal', 'SuccessfulCreate', `Created pod: ${created.metadata.name}`, source);
    return created;
  } catch (err) {
    if (!(err instanceof StoreError)) throw err;
    recordEvent(store, owner, 'Warning', 'FailedCreate', `Error creating: ${err.message}`, source);
    return undefined;
  }
}
