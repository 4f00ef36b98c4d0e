// Service IP and port allocation, as the API server's service registry does it:
// a Service gets spec.clusterIP(s) and nodePorts on create when unset, keeps them
// on update (immutable), and a requested address or port already in use is a 422.
// The lead registers serviceAdmission() on the store.

import type { V1Service, V1ServicePort } from '@kubernetes/client-node';
import { StoreError, type Admission, type KubeObject, type Store } from '../api/store.ts';
import type { Profile } from '../profiles/types.ts';
import { ipv6Of, NODE_PORT_RANGE, toIPv4, type AddressPlan } from './addresses.ts';

/** Well-known services get the addresses clients expect (kubernetes = .1, kube-dns = .10 of the range). */
const WELL_KNOWN: Record<string, number> = { 'default/kubernetes': 1, 'kube-system/kube-dns': 10 };
/** Service range size: one /20 (see addresses.ts). */
const SERVICE_HOSTS = 16 * 256;

export class ServiceAllocator {
  private ips = new Map<string, string>(); // clusterIP -> "ns/name"
  private ports = new Map<number, string>(); // nodePort -> "ns/name"
  private nextIP = 11;
  private nextPort: number = NODE_PORT_RANGE.min;

  constructor(
    private profile: Profile,
    private plan: AddressPlan,
  ) {}

  /**
   * Rebuilds the holdings from the stored Services. Run on every Service event, so
   * deletions free their addresses and dry-run creates (admitted, never stored) leak nothing.
   */
  sync(store: Store): void {
    this.ips.clear();
    this.ports.clear();
    for (const o of store.list('services').items) this.hold(o as unknown as V1Service);
  }

  /** A free ClusterIP in the service range, or the requested one when free. */
  allocateClusterIP(owner: string, requested?: string): string {
    const known = WELL_KNOWN[owner];
    const want = requested ?? (known ? this.plan.serviceIP(known) : undefined);
    if (want) {
      const holder = this.ips.get(want);
      if (holder && holder !== owner) {
        if (requested) throw invalid(owner, 'spec.clusterIPs', want, 'failed to allocate IP ' + want + ': provided IP is already allocated');
      } else {
        this.ips.set(want, owner);
        return want;
      }
    }
    for (let tries = 0; tries < SERVICE_HOSTS; tries++) {
      const n = this.nextIP++;
      if (this.nextIP >= SERVICE_HOSTS) this.nextIP = 11;
      const ip = this.plan.serviceIP(n);
      if ((n & 255) === 0 || (n & 255) === 255 || n === 1 || n === 10) continue;
      if (!this.ips.has(ip)) {
        this.ips.set(ip, owner);
        return ip;
      }
    }
    throw new StoreError(500, 'InternalError', 'failed to allocate a service IP: range is full');
  }

  allocateNodePort(owner: string, requested?: number): number {
    if (requested) {
      if (requested < NODE_PORT_RANGE.min || requested > NODE_PORT_RANGE.max)
        throw invalid(
          owner,
          'spec.ports[].nodePort',
          String(requested),
          `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_RANGE.min}-${NODE_PORT_RANGE.max}`,
        );
      const holder = this.ports.get(requested);
      if (holder && holder !== owner) throw invalid(owner, 'spec.ports[].nodePort', String(requested), 'provided port is already allocated');
      this.ports.set(requested, owner);
      return requested;
    }
    const span = NODE_PORT_RANGE.max - NODE_PORT_RANGE.min + 1;
    for (let tries = 0; tries < span; tries++) {
      const p = this.nextPort++;
      if (this.nextPort > NODE_PORT_RANGE.max) this.nextPort = NODE_PORT_RANGE.min;
      if (!this.ports.has(p)) {
        this.ports.set(p, owner);
        return p;
      }
    }
    throw new StoreError(500, 'InternalError', 'failed to allocate a node port: range is full');
  }

  /** Frees everything a Service held (on delete). */
  release(owner: string): void {
    for (const [ip, o] of this.ips) if (o === owner) this.ips.delete(ip);
    for (const [p, o] of this.ports) if (o === owner) this.ports.delete(p);
  }

  private hold(svc: V1Service): void {
    const owner = `${svc.metadata?.namespace}/${svc.metadata?.name}`;
    for (const ip of svc.spec?.clusterIPs ?? (svc.spec?.clusterIP ? [svc.spec.clusterIP] : [])) if (ip !== 'None') this.ips.set(toIPv4(ip), owner);
    for (const p of svc.spec?.ports ?? []) if (p.nodePort) this.ports.set(p.nodePort, owner);
  }

  /** Fills clusterIP(s), ipFamilies and nodePorts of a Service being created or updated. */
  admit(svc: V1Service, old: V1Service | undefined): V1Service {
    const owner = `${svc.metadata?.namespace}/${svc.metadata?.name}`;
    const spec = svc.spec ?? (svc.spec = {});
    const type = spec.type ?? (spec.type = 'ClusterIP');
    if (type === 'ExternalName') return svc;
    // ClusterIP is immutable: an update without it keeps the old one.
    if (old?.spec?.clusterIP && !spec.clusterIP) {
      spec.clusterIP = old.spec.clusterIP;
      spec.clusterIPs = old.spec.clusterIPs;
      spec.ipFamilies = old.spec.ipFamilies;
      spec.ipFamilyPolicy = old.spec.ipFamilyPolicy;
    }
    if (!spec.clusterIP && spec.clusterIPs?.length) spec.clusterIP = spec.clusterIPs[0];
    const families = this.families(owner, spec);
    if (spec.clusterIP !== 'None') {
      // One slot of the (IPv4) service range per Service; its IPv6 address is the slot's
      // twin (addresses.ts ipv6Of), so both families of a Service stay one allocation.
      const requested = spec.clusterIP ? toIPv4(spec.clusterIP) : undefined;
      const v4 = requested && !old?.spec?.clusterIP ? this.allocateClusterIP(owner, requested) : (requested ?? this.allocateClusterIP(owner));
      spec.clusterIPs = families.map(f => (f === 'IPv4' ? v4 : ipv6Of(v4)));
      spec.clusterIP = spec.clusterIPs[0];
      spec.ipFamilies = families;
    } else {
      spec.clusterIPs = ['None'];
      spec.ipFamilies = families;
    }
    spec.ipFamilyPolicy ??= 'SingleStack';
    spec.sessionAffinity ??= 'None';
    if (type === 'NodePort' || type === 'LoadBalancer') {
      spec.externalTrafficPolicy ??= 'Cluster';
      for (const p of spec.ports ?? []) this.admitNodePort(owner, p, old);
      if (type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local' && !spec.healthCheckNodePort)
        spec.healthCheckNodePort = old?.spec?.healthCheckNodePort ?? this.allocateNodePort(owner);
    }
    spec.internalTrafficPolicy ??= 'Cluster';
    for (const p of spec.ports ?? []) {
      p.protocol ??= 'TCP';
      p.targetPort ??= p.port;
    }
    return svc;
  }

  private admitNodePort(owner: string, p: V1ServicePort, old: V1Service | undefined): void {
    const before = old?.spec?.ports?.find(o => o.port === p.port && (o.protocol ?? 'TCP') === (p.protocol ?? 'TCP'))?.nodePort;
    if (p.nodePort && p.nodePort === before) return;
    p.nodePort = this.allocateNodePort(owner, p.nodePort ?? before);
  }

  /**
   * spec.ipFamilies as the API server settles them: the requested primary family (IPv4 by
   * default), plus the other one for PreferDualStack / RequireDualStack on a dual-stack
   * cluster. A family or policy the cluster is not configured for is a 422, as upstream.
   */
  private families(owner: string, spec: NonNullable<V1Service['spec']>): ('IPv4' | 'IPv6')[] {
    const dual = !!this.profile.network.dualStack;
    const policy = spec.ipFamilyPolicy ?? 'SingleStack';
    const asked = (spec.ipFamilies ?? []).filter((f): f is 'IPv4' | 'IPv6' => f === 'IPv4' || f === 'IPv6');
    if (!dual) {
      const i = asked.indexOf('IPv6');
      if (i >= 0) throw invalid(owner, `spec.ipFamilies[${i}]`, 'IPv6', 'not configured on this cluster');
      if (policy === 'RequireDualStack') throw invalid(owner, 'spec.ipFamilyPolicy', policy, 'this cluster is not configured for dual-stack services');
      return ['IPv4'];
    }
    const primary = asked[0] ?? 'IPv4';
    if (policy === 'SingleStack') return [primary];
    return [primary, primary === 'IPv4' ? 'IPv6' : 'IPv4'];
  }
}

/** The store admission that allocates Service addresses and ports. */
export function makeServiceAdmission(alloc: ServiceAllocator): Admission {
  return (bucket: string, op, obj: KubeObject, old: KubeObject | undefined): KubeObject => {
    if (bucket !== 'services' || op === 'delete') return obj;
    return alloc.admit(obj as unknown as V1Service, old as unknown as V1Service | undefined) as unknown as KubeObject;
  };
}

function invalid(owner: string, field: string, value: string, detail: string): StoreError {
  const name = owner.split('/')[1];
  return new StoreError(422, 'Invalid', `Service "${name}" is invalid: ${field}: Invalid value: "${value}": ${detail}`, {
    name,
    kind: 'Service',
    causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: "${value}": ${detail}`, field }],
  });
}
