// The cluster DNS zone (what CoreDNS's kubernetes plugin answers) plus the
// upstream view of a few external names. Pure lookups against the store; the
// server (dns.ts) and ping use them.
//
//   <svc>.<ns>.svc.<domain>                  ClusterIP(s), or Ready pod addresses when headless
//   <hostname>.<svc>.<ns>.svc.<domain>       a pod of a headless Service (StatefulSet pods)
//   <a-b-c-d>.<ns>.pod.<domain>              that address ("pods insecure")
//   egress.wincheck.test, example.com, ...   the external host
//   anything else                            NXDOMAIN

import type { V1Pod, V1Service } from '@kubernetes/client-node';
import type { Store } from '../api/store.ts';
import type { Policy } from './policy.ts';
import type { Topology } from './topology.ts';
import { EXTERNAL_HOST_NAME, ipv6Of, isIPv4, isIPv6, toIPv4, type AddressPlan } from './addresses.ts';

/** Names the "upstream" resolver maps to the external host (the only host outside the cluster). */
export const DEFAULT_EXTERNAL_NAMES = [
  EXTERNAL_HOST_NAME,
  'example.com',
  'www.example.com',
  'example.org',
  'www.example.org',
  'example.net',
  'google.com',
  'www.google.com',
  'bing.com',
  'www.bing.com',
  'microsoft.com',
  'www.microsoft.com',
  'kubernetes.io',
  'www.kubernetes.io',
];

export type QType = 'A' | 'AAAA' | 'CNAME' | 'SRV' | 'PTR' | 'TXT' | 'ANY' | string;

export interface Rr {
  type: 'A' | 'AAAA' | 'CNAME';
  name: string;
  data: string;
}
export interface Lookup {
  rcode: 'NOERROR' | 'NXDOMAIN';
  answers: Rr[];
}

const NX: Lookup = { rcode: 'NXDOMAIN', answers: [] };

export class DnsZone {
  readonly domain: string;
  private external: Set<string>;

  constructor(
    private store: Store,
    private plan: AddressPlan,
    private topo: Topology,
    private policy: Policy,
    domain: string,
    externalNames: string[],
    private dualStack: boolean,
  ) {
    this.domain = domain.toLowerCase().replace(/\.$/, '');
    this.external = new Set(externalNames.map(n => n.toLowerCase().replace(/\.$/, '')));
  }

  /**
   * Answers a query. `upstream`: the view of a resolver outside the cluster (a node's
   * own DNS): external names only, the cluster domain does not exist there.
   */
  lookup(qname: string, qtype: QType, upstream = false): Lookup {
    const name = qname.toLowerCase().replace(/\.$/, '');
    const addrs = upstream ? this.externalAddresses(name) : this.addresses(name);
    if (addrs === undefined) return NX;
    if (typeof addrs === 'string') {
      // ExternalName: a CNAME, followed when the target is a name we know.
      const target = this.addresses(addrs);
      const follow = Array.isArray(target) ? this.pick(addrs, target, qtype) : [];
      return { rcode: 'NOERROR', answers: [{ type: 'CNAME', name, data: addrs }, ...follow] };
    }
    return { rcode: 'NOERROR', answers: this.pick(name, addrs, qtype) };
  }

  private pick(name: string, addrs: string[], qtype: QType): Rr[] {
    const out: Rr[] = [];
    if (qtype === 'A' || qtype === 'ANY') for (const a of addrs) if (isIPv4(a)) out.push({ type: 'A', name, data: a });
    if ((qtype === 'AAAA' || qtype === 'ANY') && this.dualStack) for (const a of addrs) if (isIPv6(a)) out.push({ type: 'AAAA', name, data: a });
    return out;
  }

  /** The upstream view: names outside the cluster that resolve to the external host. */
  externalAddresses(name: string): string[] | undefined {
    return this.external.has(name) || name.endsWith('.wincheck.test') ? [this.plan.externalHostIP()] : undefined;
  }

  /** Addresses of a name (both families), a CNAME target (string), or undefined (no such name). */
  addresses(name: string): string[] | string | undefined {
    const ext = this.externalAddresses(name);
    if (ext) return ext;
    const suffix = `.${this.domain}`;
    if (!name.endsWith(suffix)) return undefined;
    const labels = name.slice(0, -suffix.length).split('.');
    const kind = labels[labels.length - 1];
    if (kind === 'svc') return this.serviceName(labels.slice(0, -1));
    if (kind === 'pod' && labels.length === 3) {
      const ip = labels[0].replace(/-/g, '.');
      return isIPv4(ip) ? [ip] : undefined;
    }
    return undefined;
  }

  private serviceName(labels: string[]): string[] | string | undefined {
    if (labels.length === 2) {
      const [name, ns] = labels;
      const svc = this.topo.service(ns, name);
      if (!svc) return undefined;
      if (svc.spec?.type === 'ExternalName') return svc.spec.externalName?.toLowerCase().replace(/\.$/, '');
      if (svc.spec?.clusterIP && svc.spec.clusterIP !== 'None') return svc.spec.clusterIPs ?? [svc.spec.clusterIP];
      return this.headless(svc);
    }
    if (labels.length === 3) {
      const [host, name, ns] = labels;
      if (this.policy.broken('statefulset-dns')) return undefined;
      const svc = this.topo.service(ns, name);
      if (!svc || svc.spec?.clusterIP !== 'None') return undefined;
      const found = this.hostAddresses(svc, host);
      return found.length ? found : undefined;
    }
    return undefined;
  }

  /** A headless Service answers with its Ready endpoints' addresses. */
  private headless(svc: V1Service): string[] | undefined {
    const out = new Set<string>();
    for (const s of this.topo.slicesOf(svc.metadata?.namespace ?? '', svc.metadata?.name ?? ''))
      for (const e of s.endpoints ?? []) if (e.conditions?.ready !== false) for (const a of e.addresses) this.addBoth(out, a, svc);
    return out.size ? [...out] : undefined;
  }

  /** <hostname>.<svc>: endpoints carrying that hostname, else pods with hostname+subdomain (publishNotReadyAddresses-like). */
  private hostAddresses(svc: V1Service, host: string): string[] {
    const ns = svc.metadata?.namespace ?? '',
      name = svc.metadata?.name ?? '';
    const out = new Set<string>();
    for (const s of this.topo.slicesOf(ns, name))
      for (const e of s.endpoints ?? []) if (e.hostname?.toLowerCase() === host) for (const a of e.addresses) this.addBoth(out, a, svc);
    if (!out.size) {
      for (const o of this.store.list('pods', { namespace: ns }).items) {
        const pod = o as unknown as V1Pod;
        if (pod.spec?.hostname?.toLowerCase() === host && pod.spec?.subdomain === name && pod.status?.podIP) this.addBoth(out, pod.status.podIP, svc);
      }
    }
    return [...out];
  }

  /** A pod address, plus its IPv6 twin when the headless Service is dual-stack. */
  private addBoth(out: Set<string>, addr: string, svc: V1Service): void {
    out.add(toIPv4(addr));
    if (this.dualStack && svc.spec?.ipFamilies?.includes('IPv6')) out.add(ipv6Of(toIPv4(addr)));
  }
}
