// The EndpointSlice controller: for each Service with a selector, one slice per distinct
// port set (generateName "<service>-", labelled kubernetes.io/service-name, owned by the
// Service), with ready / serving / terminating conditions per endpoint.

import type { V1Endpoint, V1EndpointSlice } from '@kubernetes/client-node';
import { StoreError, type KubeObject } from '../api/store.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { isPodReady, ownerReferenceTo, stableJSON } from './objects.ts';
import { asService, backendHostname, podSelectedBy, podTargetRef, selectorOf, serviceBackends, type ResolvedPort } from './serviceBackends.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

export const ENDPOINT_SLICES = 'endpointslices.discovery.k8s.io';
const SERVICE_NAME = 'kubernetes.io/service-name';
const MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
const CONTROLLER = 'endpointslice-controller.k8s.io';

export function startEndpointSliceController({ store, profile }: ControllerContext): Stoppable {
  const broken = profile.breaks?.includes('endpointslice-windows') ?? false;
  const brokenForWindows = (pod: KubeObject | { spec?: { nodeName?: string } }) => {
    const node = (pod as { spec?: { nodeName?: string } }).spec?.nodeName;
    return broken && !!node && store.tryGet('nodes', undefined, node)?.metadata.labels?.['kubernetes.io/os'] === 'windows';
  };
  const queue = new WorkQueue('endpointslice-controller', key => sync(key));
  const sub = store.onAny(
    guarded('endpointslice-controller', (bucket, e, old) => {
      if (bucket === 'services') queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name!));
      if (bucket === 'pods') {
        // Read in place (store.scan, read-only): every pod event copied every Service of the namespace.
        for (const s of store.scan('services', e.object.metadata.namespace))
          if (podSelectedBy(asService(s), e.object) || (old && podSelectedBy(asService(s), old))) queue.add(keyOf(s.metadata.namespace, s.metadata.name!));
      }
    }),
  );
  for (const s of store.list('services').items) queue.add(keyOf(s.metadata.namespace, s.metadata.name!));

  function sync(key: string): void {
    const [ns, name] = splitKey(key);
    const svcObj = store.tryGet('services', ns, name);
    const existing = store.list(ENDPOINT_SLICES, { namespace: ns, labelSelector: `${SERVICE_NAME}=${name},${MANAGED_BY}=${CONTROLLER}` }).items;
    if (!svcObj || svcObj.metadata.deletionTimestamp || !selectorOf(asService(svcObj))) {
      for (const s of existing) tryDelete(ns, s.metadata.name!);
      return;
    }
    const svc = asService(svcObj);
    const groups = new Map<string, { ports: ResolvedPort[]; endpoints: V1Endpoint[] }>();
    for (const b of serviceBackends(store, svc)) {
      if (!b.ports.length && svc.spec?.ports?.length) continue;
      const k = stableJSON(b.ports);
      const g = groups.get(k) ?? { ports: b.ports, endpoints: [] };
      groups.set(k, g);
      const hostname = backendHostname(b.pod, svc);
      // breaks: endpointslice-windows: Windows pods' endpoints lose nodeName (routing still finds them by address).
      const off = brokenForWindows(b.pod);
      g.endpoints.push({
        addresses: [b.ip],
        conditions: { ready: b.ready, serving: b.terminating ? isPodReady(b.pod) : b.ready, terminating: b.terminating },
        ...(hostname ? { hostname } : {}),
        ...(off ? {} : { nodeName: b.pod.spec?.nodeName }),
        targetRef: podTargetRef(b.pod),
      });
    }
    // A service with no backends still has one empty slice, as upstream.
    if (!groups.size) groups.set('[]', { ports: [], endpoints: [] });
    const unused = [...existing];
    for (const [portsKey, g] of groups) {
      const labels = { ...svc.metadata?.labels, [SERVICE_NAME]: name, [MANAGED_BY]: CONTROLLER };
      const body = { addressType: 'IPv4', endpoints: g.endpoints, ports: g.ports.length ? g.ports : undefined };
      const i = unused.findIndex(s => stableJSON((s as unknown as V1EndpointSlice).ports ?? []) === portsKey);
      const reuse = i >= 0 ? unused.splice(i, 1)[0] : unused.shift();
      if (!reuse) {
        const slice: V1EndpointSlice = {
          apiVersion: 'discovery.k8s.io/v1',
          kind: 'EndpointSlice',
          metadata: { generateName: `${name}-`, namespace: ns, labels, ownerReferences: [ownerReferenceTo(svcObj, 'v1', 'Service')] },
          ...body,
        };
        store.create(ENDPOINT_SLICES, slice as unknown as KubeObject);
        continue;
      }
      const cur = reuse as unknown as V1EndpointSlice;
      if (stableJSON([cur.endpoints, cur.ports, reuse.metadata.labels]) === stableJSON([body.endpoints, body.ports, labels])) continue;
      store.mutate(ENDPOINT_SLICES, ns, reuse.metadata.name!, o => {
        o.metadata.labels = labels;
        o.endpoints = body.endpoints;
        if (body.ports) o.ports = body.ports;
        else delete o.ports;
      });
    }
    for (const s of unused) tryDelete(ns, s.metadata.name!);
  }

  function tryDelete(ns: string | undefined, name: string): void {
    try {
      store.delete(ENDPOINT_SLICES, ns, name);
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
