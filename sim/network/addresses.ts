// The address plan of the simulated cluster, all inside 127.0.0.0/8 and never
// 127.0.0.1 (the API server). Every address here can really be bound on loopback,
// so each node, pod, service and load balancer owns distinct sockets.
//
// Instance 0 (k = 0, the usual case):
//   nodes            127.10.k.N            (N = 1-based index in the profile, up to 254; then
//                                          127.11.k.1-254 for N = 255-508, and so on)
//   pods of node N   127.P(N).(16k+x).y    (a /20 per node, first pod .0.2; P(N) = 20+N for
//                                          N <= 75, then 21+N up to N = 178: the second octets
//                                          127.97-127.199 continue the plan past the services)
//   pods of node N   127.Q(N).(16k+j).y    (N > 178: a /24 each, 16 nodes per second octet
//                                          127.201-127.249, j = (N - 179) mod 16: 962 nodes in all)
//   services         127.96.(16k).0/20     (kubernetes .1, kube-dns .10: 127.96.0.1, 127.96.0.10)
//   load balancers   127.200.(16k).N
//   external host    127.250.k.1           (egress target, "egress.wincheck.test")
//   outside client   127.250.k.2           (a client outside the cluster: NodePort/LB)
//   upstream DNS     127.250.k.53          (the nodes' own resolver: external names only)
//   black hole       127.254.k.1           (nothing ever listens: a real RST)
// Several sims on one machine (parallel test runs) take instances k = 1..15, so their
// fixed-port listeners (DNS :53, SSH :22, external :80) never collide.
//
// Dual-stack: sockets only ever carry the IPv4-mapped form (::ffff:a.b.c.d), the only
// IPv6 addresses loopback can deliver to the same sockets. What a client only READS (node
// spec.podCIDRs, pod status.podIPs, Service clusterIPs, AAAA records) is a real-looking
// ULA instead: fd00:10:244:N::/64 for node N's pods, fd00:10:96::/108 for Services,
// fd00:10:B:: for the rest of 127.B/16, each with the IPv4 twin in its last 32 bits
// (127.21.0.3 -> fd00:10:244:1::7f15:3). The twin translates such an address back to its
// IPv4 twin (toIPv4) before any socket sees it, the way a NAT64-style mapping would: a
// client dialing [fd00:10:244:1::7f15:3]:8080 reaches the same listener as 127.21.0.3:8080.
// Honest about: which pods/Services have IPv6 and whether IPv6 paths are allowed (policy).
// Not modelled: a separate IPv6 socket (a server bound to the IPv4 address serves both).

import type { Profile } from '../profiles/types.ts';

export const API_SERVER_ADDRESS = '127.0.0.1';
export const KUBERNETES_SERVICE_IP = '127.96.0.1';
export const KUBE_DNS_IP = '127.96.0.10';
export const EXTERNAL_HOST_IP = '127.250.0.1';
export const EXTERNAL_HOST_NAME = 'egress.wincheck.test';
export const OUTSIDE_CLIENT_IP = '127.250.0.2';
export const BLACK_HOLE_IP = '127.254.0.1';
export const SERVICE_CIDR = '127.96.0.0/20';
/** How many sims can share one machine. */
export const MAX_INSTANCES = 16;
/** Third-octet values per instance: each node's pod range, the service range and the LB range are /20s. */
const BLOCK = 16;
export const NODE_PORT_RANGE = { min: 30000, max: 32767 } as const;

/** Nodes whose pod ranges sit below the service CIDR (127.21–127.95). */
const LOW_NODES = 75;
/** Nodes with a /20 pod range: the rest of those ranges take 127.97–127.199, below the load balancers (127.200). */
const WIDE_NODES = 178;
/** Second octets of the /24 pod ranges of nodes past WIDE_NODES (between the load balancers and the external hosts). */
const NARROW_OCTETS = { first: 201, last: 249 } as const;
/** Most nodes a plan can hold: the /20s, then a /24 per node for each instance's 16 third octets of 127.201–127.249. */
export const MAX_NODES = WIDE_NODES + (NARROW_OCTETS.last - NARROW_OCTETS.first + 1) * BLOCK;
/** Node addresses per second octet (127.10.k.1–254, then 127.11.k.1–254, ...). */
const NODES_PER_OCTET = 254;

/** Where node N's pods live in one instance: second octet, first third octet, host numbers, prefix length. */
function podRange(n: number, base: number): { octet: number; third: number; hosts: number; bits: number } {
  if (n <= WIDE_NODES) return { octet: podOctet(n), third: base, hosts: BLOCK * 256, bits: 20 };
  const j = n - WIDE_NODES - 1;
  return { octet: NARROW_OCTETS.first + Math.floor(j / BLOCK), third: base + (j % BLOCK), hosts: 256, bits: 24 };
}

/** Node N's address in instance k. */
function nodeAddressOf(n: number, k: number): string {
  return `127.${10 + Math.floor((n - 1) / NODES_PER_OCTET)}.${k}.${((n - 1) % NODES_PER_OCTET) + 1}`;
}

/** Second octet of node N's pod range (1-based), skipping the service range 127.96. */
function podOctet(n: number): number {
  return n <= LOW_NODES ? 20 + n : 21 + n;
}

/** The node index whose pod range holds an address with these second and third octets, or undefined. */
function nodeOfPodOctets(o: number, third: number): number | undefined {
  if (o > 20 && o <= 20 + LOW_NODES) return o - 20;
  if (o > 96 && o <= 21 + WIDE_NODES) return o - 21;
  if (o >= NARROW_OCTETS.first && o <= NARROW_OCTETS.last) return WIDE_NODES + 1 + (o - NARROW_OCTETS.first) * BLOCK + (third % BLOCK);
  return undefined;
}

const MAPPED = '::ffff:';
/** The ULA prefix of every IPv6 address the API shows (see the header). */
const ULA = 'fd00:10:';

/** The IPv6 twin of an IPv4 address of the plan, as the API shows it (ULA, IPv4 in the last 32 bits). */
export function ipv6Of(v4: string): string {
  const o = v4.split('.').map(Number);
  if (o.length !== 4 || o.some(x => !Number.isInteger(x))) return MAPPED + v4;
  const tail = `${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  // Pods of node N (127.P(N)/16) sit in that node's IPv6 pod range fd00:10:244:N::/64.
  const node = nodeOfPodOctets(o[1], o[2]);
  if (node !== undefined) return `${ULA}244:${node}::${tail}`;
  return `${ULA}${o[1]}::${tail}`;
}

/** A node's IPv6 pod range (spec.podCIDRs[1] on a dual-stack cluster). */
export function podCIDRv6(nodeIndex: number): string {
  return `${ULA}244:${nodeIndex}::/64`;
}

/** The 8 groups of an IPv6 address (no zone, no embedded dotted quad), or undefined. */
function groups6(a: string): number[] | undefined {
  const halves = a.split('::');
  if (halves.length > 2) return undefined;
  const parse = (h: string) => (h ? h.split(':') : []).map(g => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
  const head = parse(halves[0]);
  const tail = halves.length === 2 ? parse(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if ((halves.length === 2 ? fill < 1 : fill !== 0) || [...head, ...tail].some(Number.isNaN)) return undefined;
  return [...head, ...new Array<number>(fill).fill(0), ...tail];
}

/** The IPv4 address behind an address of either family (IPv4-mapped or the plan's ULA twin). */
export function toIPv4(addr: string): string {
  const a = addr.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (a.startsWith(ULA)) {
    const g = groups6(a);
    if (g) return `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
    return addr;
  }
  if (!a.startsWith(MAPPED)) return addr;
  const rest = a.slice(MAPPED.length);
  // Decoders may print the mapped address in hex groups: ::ffff:7f60:b = 127.96.0.11.
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(rest);
  if (!hex) return rest;
  const hi = parseInt(hex[1], 16),
    lo = parseInt(hex[2], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export function isIPv6(addr: string): boolean {
  return addr.includes(':');
}

export function isIPv4(addr: string): boolean {
  const p = addr.split('.');
  return p.length === 4 && p.every(x => /^\d{1,3}$/.test(x) && Number(x) <= 255);
}

export function isLoopback(addr: string): boolean {
  return isIPv4(toIPv4(addr)) && toIPv4(addr).startsWith('127.');
}

export interface PodRecord {
  namespace: string;
  name: string;
  node: string;
  address: string;
}

/** Node and pod addresses of one cluster. Pure bookkeeping: binds nothing. */
export class AddressPlan {
  private nodeIndex = new Map<string, number>();
  private pods = new Map<string, PodRecord>(); // "ns/name" -> record
  private byAddress = new Map<string, PodRecord>(); // pod address -> record
  private nextHost = new Map<string, number>(); // node -> next host number in its range
  private lbNext = 1;
  private lbUsed = new Set<string>();
  private lbOwners = new Map<string, string>(); // "ns/name" -> ingress address
  /** Third-octet base of this instance's blocks. */
  private readonly base: number;

  constructor(
    private profile: Profile,
    readonly instance = 0,
  ) {
    if (instance < 0 || instance >= MAX_INSTANCES) throw new Error(`network: instance ${instance} out of range 0-${MAX_INSTANCES - 1}`);
    this.base = instance * BLOCK;
    profile.nodes.forEach((n, i) => this.nodeIndex.set(n.name, i + 1));
  }

  /** The node's address; known for every profile node before any pod exists. */
  nodeAddress(node: string): string {
    return nodeAddressOf(this.indexOf(node), this.instance);
  }

  /** The node's pod range, e.g. "127.21.0.0/20" (past the 178th node, a /24 such as "127.201.0.0/24"). */
  podCIDR(node: string): string {
    const r = podRange(this.indexOf(node), this.base);
    return `127.${r.octet}.${r.third}.0/${r.bits}`;
  }

  /**
   * spec.podCIDRs: the IPv4 range, plus the IPv6 one on a dual-stack cluster. Node CIDRs
   * come from the control plane's IPAM, so every node gets both families; whether a
   * Windows node's pods USE IPv6 is the CNI's affair (Policy.dualStackLimited).
   */
  podCIDRs(node: string): string[] {
    const v4 = this.podCIDR(node);
    return this.profile.network.dualStack ? [v4, podCIDRv6(this.indexOf(node))] : [v4];
  }

  serviceCIDR(): string {
    return `127.96.${this.base}.0/20`;
  }
  /** The n-th address of the service range (1 = kubernetes, 10 = kube-dns). */
  serviceIP(n: number): string {
    return `127.96.${this.base + (n >> 8)}.${n & 255}`;
  }
  kubernetesServiceIP(): string {
    return this.serviceIP(1);
  }
  kubeDnsIP(): string {
    return this.serviceIP(10);
  }
  externalHostIP(): string {
    return `127.250.${this.instance}.1`;
  }
  outsideClientIP(): string {
    return `127.250.${this.instance}.2`;
  }
  upstreamDnsIP(): string {
    return `127.250.${this.instance}.53`;
  }
  blackHoleIP(): string {
    return `127.254.${this.instance}.1`;
  }

  nodeNames(): string[] {
    return [...this.nodeIndex.keys()];
  }

  nodeByAddress(addr: string): string | undefined {
    const m = /^127\.(\d+)\.(\d+)\.(\d+)$/.exec(toIPv4(addr));
    if (!m || Number(m[1]) < 10 || Number(m[1]) > 20 || Number(m[2]) !== this.instance) return undefined;
    const n = (Number(m[1]) - 10) * NODES_PER_OCTET + Number(m[3]);
    for (const [name, i] of this.nodeIndex) if (i === n) return name;
    return undefined;
  }

  /**
   * A pod's address on its node, stable for the pod's life. Always distinct, also under
   * the `pod-ip` break: that break is what the pods are told (the runtime's adapter
   * address, podWorker.adapterIP); the twin still carries each pod's traffic to its own sockets.
   */
  allocatePodIP(namespace: string, name: string, node: string): string {
    const key = `${namespace}/${name}`;
    const have = this.pods.get(key);
    if (have && have.node === node) return have.address;
    if (have) this.releasePodIP(namespace, name);
    const r = podRange(this.indexOf(node), this.base);
    const at = (host: number) => `127.${r.octet}.${r.third + (host >> 8)}.${host & 255}`;
    let address: string;
    let host = this.nextHost.get(node) ?? 2;
    // Skip addresses still held (after wrap-around) and .0/.255 last octets, as a real IPAM would.
    for (let tries = 0; ; tries++) {
      if (tries > r.hosts) throw new Error(`network: node ${node} has no free pod address`);
      if (host >= r.hosts) host = 2;
      const h = host++;
      if ((h & 255) === 0 || (h & 255) === 255) continue;
      if (!this.byAddress.has(at(h))) {
        address = at(h);
        break;
      }
    }
    this.nextHost.set(node, host);
    const rec = { namespace, name, node, address };
    this.pods.set(key, rec);
    this.byAddress.set(address, rec);
    return address;
  }

  releasePodIP(namespace: string, name: string): void {
    const rec = this.pods.get(`${namespace}/${name}`);
    if (!rec) return;
    this.pods.delete(`${namespace}/${name}`);
    if (this.byAddress.get(rec.address) === rec) this.byAddress.delete(rec.address);
  }

  podByAddress(addr: string): PodRecord | undefined {
    return this.byAddress.get(toIPv4(addr));
  }
  podByName(namespace: string, name: string): PodRecord | undefined {
    return this.pods.get(`${namespace}/${name}`);
  }

  /** A load-balancer ingress address (127.200.(16k).N); the same one again for the same owner ("ns/name"). */
  allocateLoadBalancerIP(owner?: string): string {
    const have = owner ? this.lbOwners.get(owner) : undefined;
    if (have) return have;
    for (let tries = 0; tries < HOSTS_PER_NODE; tries++) {
      const n = this.lbNext++;
      if (this.lbNext >= HOSTS_PER_NODE) this.lbNext = 1;
      if ((n & 255) === 0 || (n & 255) === 255) continue;
      const ip = `127.200.${this.base + (n >> 8)}.${n & 255}`;
      if (!this.lbUsed.has(ip)) {
        this.lbUsed.add(ip);
        if (owner) this.lbOwners.set(owner, ip);
        return ip;
      }
    }
    throw new Error('network: no free load-balancer address');
  }
  markLoadBalancerIP(ip: string, owner?: string): void {
    this.lbUsed.add(ip);
    if (owner) this.lbOwners.set(owner, ip);
  }
  /** Frees an address, by address or by owner ("ns/name"). */
  releaseLoadBalancerIP(ipOrOwner: string): void {
    const ip = this.lbOwners.get(ipOrOwner) ?? ipOrOwner;
    this.lbUsed.delete(ip);
    for (const [o, a] of this.lbOwners) if (a === ip) this.lbOwners.delete(o);
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

/** Host numbers in one /20 (a load-balancer range). */
const HOSTS_PER_NODE = BLOCK * 256;

/** The address of a profile node in instance 0, usable without a running twin (the twin's nodeAddress() is authoritative). */
export function nodeAddress(profile: Profile, node: string): string {
  const i = profile.nodes.findIndex(n => n.name === node);
  if (i < 0) throw new Error(`network: node "${node}" is not in profile "${profile.name}"`);
  return nodeAddressOf(i + 1, 0);
}

/** Windows build number (third part of "10.0.20348.2582"), 0 when unknown. */
export function buildNumber(windowsBuild: string | undefined): number {
  return Number(windowsBuild?.split('.')[2] ?? 0) || 0;
}
