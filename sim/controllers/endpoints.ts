// The Endpoints controller: for each Service with a selector, an Endpoints object of the
// same name whose subsets group ready pods (addresses) and not-ready pods
// (notReadyAddresses) by their resolved port list. Terminating pods are left out.

import type { V1EndpointAddress, V1EndpointSubset, V1Endpoints } from '@kubernetes/client-node';
import { StoreError, type KubeObject } from '../api/store.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { stableJSON } from './objects.ts';
import { asService, backendHostname, podSelectedBy, podTargetRef, selectorOf, serviceBackends } from './serviceBackends.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

const ENDPOINTS = 'endpoints';

export function startEndpointsController({ store }: ControllerContext): Stoppable {
  const queue = new WorkQueue('endpoints-controller', key => sync(key));
  const sub = store.onAny(
    guarded('endpoints-controller', (bucket, e, old) => {
      if (bucket === 'services') queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name!));
      if (bucket === 'pods') enqueueServicesOf(e.object, old);
    }),
  );
  for (const s of store.list('services').items) queue.add(keyOf(s.metadata.namespace, s.metadata.name!));

  function enqueueServicesOf(pod: KubeObject, old?: KubeObject): void {
    // Read in place (store.scan, read-only): every pod event copied every Service of the namespace.
    for (const s of store.scan('services', pod.metadata.namespace))
      if (podSelectedBy(asService(s), pod) || (old && podSelectedBy(asService(s), old))) queue.add(keyOf(s.metadata.namespace, s.metadata.name!));
  }

  function sync(key: string): void {
    const [ns, name] = splitKey(key);
    const svcObj = store.tryGet('services', ns, name);
    const current = store.tryGet(ENDPOINTS, ns, name);
    if (!svcObj || svcObj.metadata.deletionTimestamp) {
      // Ours to remove only when it was ours: selectorless services have hand-made Endpoints.
      if (current && current.metadata.labels?.['endpoints.kubernetes.io/managed-by'] === 'endpoint-controller') tryDelete(ns, name);
      return;
    }
    const svc = asService(svcObj);
    if (!selectorOf(svc)) return;
    const groups = new Map<string, V1EndpointSubset>();
    for (const b of serviceBackends(store, svc)) {
      if (b.terminating || (!b.ports.length && svc.spec?.ports?.length)) continue;
      const portsKey = stableJSON(b.ports);
      const subset = groups.get(portsKey) ?? { ports: b.ports.length ? b.ports : undefined };
      groups.set(portsKey, subset);
      const hostname = backendHostname(b.pod, svc);
      const addr: V1EndpointAddress = { ip: b.ip, ...(hostname ? { hostname } : {}), nodeName: b.pod.spec?.nodeName, targetRef: podTargetRef(b.pod) };
      if (b.ready) (subset.addresses ??= []).push(addr);
      else (subset.notReadyAddresses ??= []).push(addr);
    }
    const subsets = [...groups.values()];
    const desired: V1Endpoints = {
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: {
        name,
        namespace: ns,
        labels: { ...svc.metadata?.labels, 'endpoints.kubernetes.io/managed-by': 'endpoint-controller' },
      },
      ...(subsets.length ? { subsets } : {}),
    };
    if (!current) {
      store.create(ENDPOINTS, desired as unknown as KubeObject);
      return;
    }
    const cur = current as unknown as V1Endpoints;
    if (stableJSON(cur.subsets ?? []) === stableJSON(desired.subsets ?? []) && stableJSON(current.metadata.labels) === stableJSON(desired.metadata?.labels))
      return;
    store.mutate(ENDPOINTS, ns, name, o => {
      o.metadata.labels = desired.metadata!.labels;
      if (desired.subsets) o.subsets = desired.subsets;
      else delete o.subsets;
    });
  }

  function tryDelete(ns: string | undefined, name: string): void {
    try {
      store.delete(ENDPOINTS, ns, name);
    } catch (err) {
      if (!(err instanceof StoreError && err.code === 404)) throw err;
    }
  }

  return {
    async stop() {
      sub.stop();
      await queue.stop();
    },
  };
}
