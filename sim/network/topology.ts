// Who owns an address: the reverse of the address plan plus the Services in the
// store. The dataplane uses it to apply the policy to a destination (connect) and
// to recognise the source of a connection it received (service proxies, DNS).

import type { V1EndpointSlice, V1Service } from '@kubernetes/client-node';
import type { Store } from '../api/store.ts';
import type { Endpoint } from './types.ts';
import type { Target } from './policy.ts';
import type { Policy } from './policy.ts';
import { API_SERVER_ADDRESS, isIPv6, toIPv4, type AddressPlan } from './addresses.ts';

export const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

export class Topology {
  constructor(
    private store: Store,
    private plan: AddressPlan,
    private policy: Policy,
  ) {}

  services(): V1Service[] {
    return this.store.list('services').items as unknown as V1Service[];
  }

  service(namespace: string, name: string): V1Service | undefined {
    return this.store.tryGet('services', namespace, name) as unknown as V1Service | undefined;
  }

  slicesOf(namespace: string, name: string): V1EndpointSlice[] {
    return this.store.list('endpointslices.discovery.k8s.io', { namespace, labelSelector: `${SERVICE_NAME_LABEL}=${name}` })
      .items as unknown as V1EndpointSlice[];
  }

  /** What the destination address:port is, for the policy. undefined: nobody owns it. */
  classify(address: string, port: number, from?: Endpoint): Target | undefined {
    const ipv6 = isIPv6(address);
    const v4 = toIPv4(address);
    if (v4 === API_SERVER_ADDRESS) return { kind: 'node', address: v4, apiServer: true, ipv6 };
    if (v4 === this.plan.externalHostIP() || v4 === this.plan.upstreamDnsIP()) return { kind: 'external', address: v4, ipv6 };
    const pod = this.plan.podByAddress(v4);
    if (pod) return { kind: 'pod', address: v4, node: pod.node, os: this.policy.nodeOS(pod.node), ipv6 };
    const node = this.plan.nodeByAddress(v4);
    if (node) {
      const svc = this.services().find(s => s.spec?.ports?.some(p => p.nodePort === port));
      const base = { address: v4, node, os: this.policy.nodeOS(node), ipv6 };
      return svc ? { ...base, kind: 'service', via: 'nodePort', service: ref(svc) } : { ...base, kind: 'node' };
    }
    for (const svc of this.services()) {
      const ips = (svc.spec?.clusterIPs ?? [svc.spec?.clusterIP]).map(ip => ip && toIPv4(ip));
      if (ips.includes(v4)) {
        return { kind: 'service', address: v4, via: 'clusterIP', service: ref(svc), ipv6, hairpin: this.isBackend(svc, from) };
      }
      if (svc.status?.loadBalancer?.ingress?.some(i => i.ip === v4))
        return { kind: 'service', address: v4, via: 'loadBalancer', service: ref(svc), ipv6, hairpin: this.isBackend(svc, from) };
    }
    return undefined;
  }

  /** The endpoint a source address belongs to (a connection's peer), for server-side checks. */
  endpointOf(address: string): Endpoint {
    const v4 = toIPv4(address);
    const pod = this.plan.podByAddress(v4);
    if (pod) {
      return { kind: 'pod', id: `${pod.namespace}/${pod.name}`, os: this.policy.nodeOS(pod.node), node: pod.node, address: v4 };
    }
    const node = this.plan.nodeByAddress(v4);
    if (node) return { kind: 'node', id: node, os: this.policy.nodeOS(node), node, address: v4 };
    return { kind: 'external', id: v4 === this.plan.outsideClientIP() ? 'outside' : v4, os: 'linux', address: v4 };
  }

  /** Whether a source pod is itself a backend of the Service (a hairpin connection). */
  private isBackend(svc: V1Service, from: Endpoint | undefined): boolean {
    if (!from || from.kind !== 'pod') return false;
    const ns = svc.metadata?.namespace ?? '';
    return this.slicesOf(ns, svc.metadata?.name ?? '').some(s => s.endpoints?.some(e => e.addresses.map(toIPv4).includes(toIPv4(from.address))));
  }
}

function ref(svc: V1Service): { namespace: string; name: string } {
  return { namespace: svc.metadata?.namespace ?? '', name: svc.metadata?.name ?? '' };
}
