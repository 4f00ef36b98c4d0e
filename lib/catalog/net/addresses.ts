// Addresses a networking probe targets: pod IPs, a Service's ClusterIP or nodePort, a node's
// InternalIP, and the URL over them.

import type { V1Pod, V1Service } from '@kubernetes/client-node';
import type { CheckContext } from '../types.ts';
import type { NodeInfo } from '../../discovery/types.ts';

export function podIP(pod: V1Pod): string {
  const ip = pod.status?.podIP;
  if (!ip) throw new Error(`pod ${pod.metadata?.name} is Ready but has no pod IP`);
  return ip;
}

export function podIPs(pod: V1Pod): string[] {
  const ips = (pod.status?.podIPs ?? []).map(p => p.ip).filter(Boolean);
  return ips.length ? ips : pod.status?.podIP ? [pod.status.podIP] : [];
}

export async function readService(ctx: CheckContext, name: string): Promise<V1Service> {
  ctx.fixture(name);
  return ctx.kube.core.readNamespacedService({ namespace: ctx.namespace, name });
}

export function clusterIPOf(svc: V1Service): string {
  const ip = svc.spec?.clusterIP;
  if (!ip || ip === 'None') throw new Error(`service ${svc.metadata?.name} has no ClusterIP`);
  return ip;
}

export function nodePortOf(svc: V1Service): number {
  const p = svc.spec?.ports?.[0]?.nodePort;
  if (!p) throw new Error(`service ${svc.metadata?.name} has no nodePort`);
  return p;
}

/** "http://host:port/path" with IPv6 literals in brackets. */
export function urlOf(host: string, port: number, path = '/hostname'): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;
}

/** The node's InternalIP, or an error naming the node. */
export function internalIP(n: NodeInfo): string {
  if (!n.internalIP) throw new Error(`node ${n.name} has no InternalIP address`);
  return n.internalIP;
}
