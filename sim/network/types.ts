// The contract between the network twin (sim/network) and its users: the runtime
// (pod addresses, servers inside pods, probe commands run by the interpreter) and
// the SSH servers of Windows nodes. All addresses are in 127.0.0.0/8.

import type { Socket, Server } from 'node:net';
import type { RemoteInfo, Socket as UdpSocket } from 'node:dgram';

/** Who is opening a connection: decides the source address and which limitations apply. */
export interface Endpoint {
  kind: 'pod' | 'node' | 'external';
  /** pod: "namespace/name"; node: node name; external: "outside". */
  id: string;
  os: 'linux' | 'windows';
  /** The node the endpoint is on (pods and nodes). */
  node?: string;
  /** The source address connections are bound to. */
  address: string;
  hostNetwork?: boolean;
}

export interface ConnectOptions {
  from: Endpoint;
  host: string; // an IP in 127/8 or a name resolved with the source's DNS settings
  port: number;
  timeoutMs: number;
  /** The source's resolver settings for a name (default: ClusterFirst of the pod's namespace). */
  dns?: DnsConfig;
}

export interface DnsConfig {
  nameservers: string[];
  searches: string[];
  ndots: number;
}

export type NetErrorCode = 'ECONNREFUSED' | 'ETIMEDOUT' | 'ENOTFOUND' | 'EHOSTUNREACH' | 'SERVFAIL';

/** Errors of the twin carry the code a real socket would give. */
export class NetError extends Error {
  constructor(
    readonly code: NetErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** One row of a socket table (netstat): a listener, or an established TCP connection. */
export interface SocketEntry {
  proto: 'TCP' | 'UDP';
  /** IPv4 as the owner's stack reports it ("0.0.0.0" for a wildcard listener). */
  local: { address: string; port: number };
  /** ESTABLISHED only: the peer. */
  foreign?: { address: string; port: number };
  /** TCP only. */
  state?: 'LISTENING' | 'ESTABLISHED';
}

export interface NetworkTwin {
  /** Allocates (or returns) the pod's address on its node. */
  allocatePodIP(namespace: string, pod: string, node: string): string;
  releasePodIP(namespace: string, pod: string): void;
  nodeAddress(node: string): string;
  /** The cluster DNS service address (kube-dns ClusterIP) and port 53 listener. */
  dnsServer(): { address: string; port: number };
  /** The address of the host "outside the cluster" (egress target), serving HTTP on 80. */
  externalHost(): { address: string; name: string };
  /** Opens a real TCP connection from the endpoint's own address, after the path policy. */
  connect(opts: ConnectOptions): Promise<Socket>;
  /** Resolves a name as the endpoint's resolver would (Windows: dotted names are FQDNs). */
  resolve(from: Endpoint, name: string, dns: DnsConfig): Promise<string[]>;
  /** ICMP echo: true when a reply would come back (no real ICMP is sent). */
  ping(from: Endpoint, host: string): Promise<boolean>;
  /** Starts a TCP server on a pod's address (a server inside a container); closed on pod stop. */
  listen(podAddress: string, port: number, onConnection: (s: Socket) => void): Promise<Server>;
  stop(): Promise<void>;
  // Optional extras (sim/network/index.ts implements them all; see SimNetwork there).
  /** The nodes' own resolver (external names only): for host-network pods without cluster DNS and dnsPolicy Default. */
  upstreamDnsServer?(): { address: string; port: number };
  /** status.podIPs for a pod address: IPv4, plus its IPv6 twin where the node is dual-stack. */
  podIPs?(address: string, node: string): string[];
  /** A UDP server in a pod (netexec --udp-port); reply() answers the sender from the bound socket. */
  listenUdp?(podAddress: string, port: number, onMessage: (msg: Buffer, rinfo: RemoteInfo, reply: (b: Buffer) => void) => void): Promise<UdpSocket>;
  /**
   * The socket table of the compartment owning `address` (netstat): listeners opened with
   * listen/listenUdp, the connections they accepted (local address = the Service VIP where
   * preserve-destination skipped DNAT), and connections opened from it with connect().
   */
  socketTable?(address: string): SocketEntry[];
  /**
   * One UDP datagram from the endpoint's own address after the path policy and NetworkPolicy,
   * and the first reply (ETIMEDOUT when none comes by the deadline: a drop is silence).
   */
  exchangeUdp?(o: {
    from: Endpoint;
    host: string;
    port: number;
    payload: Buffer;
    timeoutMs: number;
  }): Promise<{ reply: Buffer; local: { address: string; port: number } }>;
}
