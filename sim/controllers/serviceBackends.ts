// Which pods back a Service and on which ports: shared by the Endpoints and
// EndpointSlice controllers, which only differ in how they write the answer.

import type { V1Pod, V1Service, V1ServicePort } from '@kubernetes/client-node';
import type { KubeObject, Store } from '../api/store.ts';
import { matchesLabels, parseLabelSelector, type Requirement } from '../api/selectors.ts';
import { asPod, isPodReady, isPodTerminal } from './objects.ts';

export interface ResolvedPort {
  name?: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

export interface Backend {
  pod: V1Pod;
  ip: string;
  ready: boolean;
  terminating: boolean;
  /** The service's ports resolved against this pod's container ports (named targetPorts). */
  ports: ResolvedPort[];
}

export function selectorOf(svc: V1Service): Requirement[] | undefined {
  const sel = svc.spec?.selector;
  if (!sel || !Object.keys(sel).length) return undefined;
  return parseLabelSelector(
    Object.entries(sel)
      .map(([k, v]) => `${k}=${v}`)
      .join(','),
  );
}

/** Whether the pod could back any service in its namespace (for reacting to pod events). */
export function podSelectedBy(svc: V1Service, pod: KubeObject): boolean {
  const sel = selectorOf(svc);
  return !!sel && matchesLabels(sel, pod.metadata.labels);
}

function resolvePort(pod: V1Pod, sp: V1ServicePort): ResolvedPort | undefined {
  const target = sp.targetPort ?? sp.port;
  const protocol = sp.protocol ?? 'TCP';
  let port: number | undefined;
  if (typeof target === 'number') port = target;
  else if (/^[0-9]+$/.test(target)) port = Number(target);
  else {
    for (const c of pod.spec?.containers ?? [])
      for (const cp of c.ports ?? []) if (cp.name === target && (cp.protocol ?? 'TCP') === protocol) port = cp.containerPort;
  }
  if (port === undefined) return undefined;
  return { ...(sp.name ? { name: sp.name } : {}), port, protocol, ...(sp.appProtocol ? { appProtocol: sp.appProtocol } : {}) };
}

export function serviceBackends(store: Store, svc: V1Service): Backend[] {
  const sel = selectorOf(svc);
  if (!sel) return [];
  const publishNotReady = !!svc.spec?.publishNotReadyAddresses;
  const out: Backend[] = [];
  // Read in place (store.scan, read-only): a list copied every pod of the namespace per sync.
  for (const o of store.scan('pods', svc.metadata!.namespace)) {
    const pod = asPod(o);
    if (!matchesLabels(sel, o.metadata.labels) || isPodTerminal(pod)) continue;
    const ip = pod.status?.podIP;
    if (!ip) continue;
    const ports = (svc.spec?.ports ?? []).map(sp => resolvePort(pod, sp)).filter((p): p is ResolvedPort => !!p);
    out.push({
      pod,
      ip,
      ready: publishNotReady || (isPodReady(pod) && !pod.metadata?.deletionTimestamp),
      terminating: !!pod.metadata?.deletionTimestamp,
      ports,
    });
  }
  return out.sort((a, b) => a.pod.metadata!.name!.localeCompare(b.pod.metadata!.name!));
}

export function podTargetRef(pod: V1Pod) {
  return { kind: 'Pod', namespace: pod.metadata!.namespace, name: pod.metadata!.name!, uid: pod.metadata!.uid };
}

/** A pod's DNS hostname in the service's domain: only when its subdomain names the service. */
export function backendHostname(pod: V1Pod, svc: V1Service): string | undefined {
  return pod.spec?.hostname && pod.spec.subdomain === svc.metadata?.name ? pod.spec.hostname : undefined;
}

export const asService = (o: KubeObject) => o as unknown as V1Service;
