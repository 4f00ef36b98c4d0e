// What kubeadm and the API server create in a new cluster: the four system namespaces
// and the default/kubernetes Service (with Endpoints pointing at the API server).

import type { V1Endpoints, V1Namespace, V1Service } from '@kubernetes/client-node';
import type { Store } from '../api/store.ts';
import { ensureObject } from './addons/index.ts';

export const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
const DEFAULT_KUBERNETES_IP = '127.96.0.1';

export function createSystemNamespaces(store: Store): void {
  for (const name of SYSTEM_NAMESPACES) {
    const ns: V1Namespace = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
      spec: { finalizers: ['kubernetes'] },
    };
    ensureObject(store, 'namespaces', ns);
    if (!store.tryGet('namespaces', undefined, name)?.status)
      store.mutate(
        'namespaces',
        undefined,
        name,
        o => {
          o.status = { phase: 'Active' };
        },
        { skipAdmission: true },
      );
  }
}

/**
 * The kubernetes Service. Its ClusterIP is left to the network twin's service admission
 * when there is one; without it, 127.96.0.1.
 */
export function createKubernetesService(store: Store, opts: { allocateIPs: boolean; apiServer?: { host: string; port: number } }): void {
  const svc: V1Service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: opts.apiServer?.port ?? 6443 }],
      sessionAffinity: 'None',
      ...(opts.allocateIPs ? {} : { clusterIP: DEFAULT_KUBERNETES_IP, clusterIPs: [DEFAULT_KUBERNETES_IP] }),
    },
  };
  ensureObject(store, 'services', svc);
  if (!opts.apiServer) return;
  const ep: V1Endpoints = {
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { 'endpointslice.kubernetes.io/skip-mirror': 'true' } },
    subsets: [{ addresses: [{ ip: opts.apiServer.host }], ports: [{ name: 'https', port: opts.apiServer.port, protocol: 'TCP' }] }],
  };
  ensureObject(store, 'endpoints', ep);
}
