// The node heartbeat Lease in kube-node-lease, renewed like the kubelet does (every 10 s).

import type { V1Lease } from '@kubernetes/client-node';
import type { KubeObject, Store } from '../api/store.ts';

export const LEASE_NAMESPACE = 'kube-node-lease';
export const LEASE_BUCKET = 'leases.coordination.k8s.io';
const LEASE_DURATION_SECONDS = 40;

/** MicroTime, as the API server serialises renewTime. */
export const microTime = (d = new Date()) => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export function ensureNodeLease(store: Store, node: KubeObject): void {
  const name = node.metadata.name!;
  if (store.tryGet(LEASE_BUCKET, LEASE_NAMESPACE, name)) return;
  const lease: V1Lease = {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name,
      namespace: LEASE_NAMESPACE,
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name, uid: node.metadata.uid! }],
    },
    spec: { holderIdentity: name, leaseDurationSeconds: LEASE_DURATION_SECONDS, renewTime: microTime() as unknown as Date },
  };
  store.create(LEASE_BUCKET, lease as unknown as KubeObject);
}

export function renewNodeLease(store: Store, name: string): void {
  if (!store.tryGet(LEASE_BUCKET, LEASE_NAMESPACE, name)) return;
  store.mutate(LEASE_BUCKET, LEASE_NAMESPACE, name, l => {
    (l.spec as { renewTime?: string }).renewTime = microTime();
  });
}
