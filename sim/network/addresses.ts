// The address plan of the simulated cluster, all inside 127.0.0.0/8 and never
// 127.0.0.1 (the API server). Every address here can really be bound on loopback,
// so each node, pod, service and load balancer owns distinct sockets.
//
//   nodes            127.10.0.N            (N = 1-based index in the profile)
//   pods of node N   127.(20+N).x.y        (a /16 per node, first pod .0.2)
//   services         127.96.0.0/16         (kubernetes 127.96.0.1, kube-dns 127.96.0.10)
//   load balancers   127.200.0.N
//   external host    127.250.0.1           (egress target, "egress.wincheck.test")
//   outside client   127.250.0.2           (a client outside the cluster: NodePort/LB)
//   black hole       127.254.0.1           (nothing ever listens: a real RST)
//
// Dual-stack: the IPv6 address of anything is its IPv4-mapped form (::ffff:a.b.c.d),
// the only IPv6 addresses loopback can carry to the same sockets.

import type { Profile } from '../profiles/types.ts';

export const API_SERVER_ADDRESS = '127.0.0.1';
export const KUBERNETES_SERVICE_IP = '127.96.0.1';
export const KUBE_DNS_IP = '127.96.0.10';
export const EXTERNAL_HOST_IP = '127.250.0.1';
export const EXTERNAL_HOST_NAME = 'egress.wincheck.test';
export const OUTSIDE_CLIENT_IP = '127.250.0.2';
export const BLACK_HOLE_IP = '127.254.0.1';
export const SERVICE_CIDR = '127.96.0.0/16';
export const NODE_PORT_RANGE = { min: 30000, max: 32767 } as const;

/** Most nodes a plan can hold: pod ranges 127.21–127.95 must stay below the service CIDR. */
const MAX_NODES = 75;

const MAPPED = '::ffff:';

/** The IPv6 twin of an IPv4 address (IPv4-mapped, reachable on loopback). */
export function ipv6Of(v4: string): string { return MAPPED + v4; }

/** The IPv4 address behind an address of either family (strips the IPv4-mapped prefix). */
export function toIPv4(addr: string): string {
  return addr.toLowerCase().startsWith(MAPPED) ? addr.slice(MAPPED.length) : addr;
}

export function isIPv6(addr: string): boolean { return addr.includes(':'); }

export function isIPv4(addr: string): boolean {
  const p = addr.split('.');
  return p.length === 4 && p.every(x => /^\d{1,3}$/.test(x) && Number(x) <= 255);
}

export function isLoopback(addr: string): boolean { return isIPv4(toIPv4(addr)) && toIPv4(addr).startsWith('127.'); }

export interface PodRecord { namespace: string; name: string; node: string; address: string }

/** Node and pod addresses of one cluster. Pure bookkeeping: binds nothing. */
export class AddressPlan {
  private nodeIndex = new Map<string, number>();
  private pods = new Map<string, PodRecord>();          // "ns/name" -> record
  private byAddress = new Map<string, PodRecord>();     // pod address -> record
  private nextHost = new Map<string, number>();         // node -> next host number in its /16
  private lbNext = 1;
  private lbUsed = new Set<string>();

  constructor(private profile: Profile) {
    profile.nodes.forEach((n, i) => this.nodeIndex.set(n.name, i + 1));
  }

  /** The node's address; known for every profile node before any pod exists. */
  nodeAddress(node: string): string { return `127.10.0.${this.indexOf(node)}`; }

  /** The node's pod range, e.g. "127.21.0.0/16". */
  podCIDR(node: string): string { return `127.${20 + this.indexOf(node)}.0.0/16`; }

  nodeNames(): string[] { return [...this.nodeIndex.keys()]; }

  nodeByAddress(addr: string): string | undefined {
    const m = /^127\.10\.0\.(\d+)$/.exec(toIPv4(addr));
    if (!m) return undefined;
    for (const [name, i] of this.nodeIndex) if (i === Number(m[1])) return name;
    return undefined;
  }

  /**
   * A pod's address on its node, stable for the pod's life. With the `pod-ip` break,
   * every pod of a Windows node gets the same address (they share one endpoint).
   */
  allocatePodIP(namespace: string, name: string, node: string): string {
    const key = `${namespace}/${name}`;
    const have = this.pods.get(key);
    if (have && have.node === node) return have.address;
    if (have) this.releasePodIP(namespace, name);
    const n = this.indexOf(node);
    let address: string;
    if (this.sharesPodIP(node)) {
      address = `127.${20 + n}.0.2`;
    } else {
      let host = this.nextHost.get(node) ?? 2;
      // Skip addresses still held (after wrap-around) and .0/.255 last octets, as a real IPAM would.
      for (;;) {
        if (host > 65533) host = 2;
        const cand = `127.${20 + n}.${host >> 8}.${host & 255}`;
        host++;
        if ((host - 1 & 255) === 0 || (host - 1 & 255) === 255) continue;
        if (!this.byAddress.has(cand)) { address = cand; break; }
      }
      this.nextHost.set(node, host);
    }
    const rec = { namespace, name, node, address };
    this.pods.set(key, rec);
    if (!this.byAddress.has(address)) this.byAddress.set(address, rec);
    return address;
  }

  releasePodIP(namespace: string, name: string): void {
    const rec = this.pods.get(`${namespace}/${name}`);
    if (!rec) return;
    this.pods.delete(`${namespace}/${name}`);
    if (this.byAddress.get(rec.address) === rec) {
      this.byAddress.delete(rec.address);
      // A shared (pod-ip break) address stays known while another pod holds it.
      const other = [...this.pods.values()].find(p => p.address === rec.address);
      if (other) this.byAddress.set(rec.address, other);
    }
  }

  podByAddress(addr: string): PodRecord | undefined { return this.byAddress.get(toIPv4(addr)); }
  podByName(namespace: string, name: string): PodRecord | undefined { return this.pods.get(`${namespace}/${name}`); }

  /** A fresh load-balancer ingress address (127.200.0.N). */
  allocateLoadBalancerIP(): string {
    for (;;) {
      const ip = `127.200.${this.lbNext >> 8}.${this.lbNext & 255}`;
      this.lbNext++;
      if ((this.lbNext - 1 & 255) === 0) continue;
      if (!this.lbUsed.has(ip)) { this.lbUsed.add(ip); return ip; }
    }
  }
  markLoadBalancerIP(ip: string): void { this.lbUsed.add(ip); }
  releaseLoadBalancerIP(ip: string): void { this.lbUsed.delete(ip); }
  isLoadBalancerIP(addr: string): boolean { return toIPv4(addr).startsWith('127.200.'); }

  private sharesPodIP(node: string): boolean {
    const spec = this.profile.nodes.find(n => n.name === node);
    return spec?.os === 'windows' && (this.profile.breaks ?? []).includes('pod-ip');
  }

  private indexOf(node: string): number {
    let i = this.nodeIndex.get(node);
    if (i === undefined) {
      // A node the profile does not name (added later): next free index.
      i = this.nodeIndex.size + 1;
      this.nodeIndex.set(node, i);
    }
    if (i > MAX_NODES) throw new Error(`network: more than ${MAX_NODES} nodes do not fit the address plan`);
    return i;
  }
}

/** The address of a profile node, usable without a running twin (same rule as AddressPlan). */
export function nodeAddress(profile: Profile, node: string): string {
  const i = profile.nodes.findIndex(n => n.name === node);
  if (i < 0) throw new Error(`network: node "${node}" is not in profile "${profile.name}"`);
  return `127.10.0.${i + 1}`;
}

/** Windows build number (third part of "10.0.20348.2582"), 0 when unknown. */
export function buildNumber(windowsBuild: string | undefined): number {
  return Number(windowsBuild?.split('.')[2] ?? 0) || 0;
}
