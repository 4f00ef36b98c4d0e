// Service proxies: the simulated kube-proxy. For every Service, real listeners on
// clusterIP:port, on every node address at nodePort, and on the load balancer's
// ingress address, each forwarding to a Ready backend. The proxy's outbound socket
// is bound to the client's address when the client IP is preserved (loopback lets
// any 127.x source be bound), else to the proxy node's address (SNAT).

import net, { type Socket } from 'node:net';
import dgram from 'node:dgram';
import type { V1Service, V1ServicePort } from '@kubernetes/client-node';
import type { Store } from '../api/store.ts';
import type { AddressPlan } from './addresses.ts';
import { toIPv4 } from './addresses.ts';
import type { Decision, Policy, Target } from './policy.ts';
import type { Topology } from './topology.ts';
import type { Endpoint } from './types.ts';
import { BackendPicker, readyBackends, type Backend } from './backends.ts';
import { hold, type Tracker } from './tracker.ts';
import type { NetworkPolicyEngine } from './netpol.ts';

type Via = 'clusterIP' | 'nodePort' | 'loadBalancer';

interface ListenSpec {
  key: string; // "tcp:addr:port"
  proto: 'tcp' | 'udp';
  address: string;
  port: number;
  via: Via;
  node?: string; // nodePort: whose node address
  svc: { namespace: string; name: string };
}

interface Listener extends ListenSpec {
  close(): void;
}

/** The outcome of routing one new flow. */
type Route =
  { ok: true; backend: Backend; localAddress: string; originalDst?: string } | { ok: false; mode: 'timeout' | 'refused' | 'unreachable'; reason: string };

const UDP_IDLE_MS = 30_000;
/** How long a preflight pick waits for its connection (a dial that never came is forgotten). */
const PICK_TTL_MS = 5_000;

export interface ServiceProxyOptions {
  apiServer?: { host: string; port: number };
  /** address:port pairs something else serves (the DNS server on kube-dns). */
  reserved: Set<string>;
  /** NetworkPolicy on the hop to the backend pod (after DNAT, as the engines see it). */
  netpol?: NetworkPolicyEngine;
}

export class ServiceProxies {
  private listeners = new Map<string, Listener>();
  private picker = new BackendPicker();
  /** Proxied outbound sockets -> original service destination (preserve-destination). */
  private originalDst = new Map<Socket, string>();
  private pending = false;
  private failed = new Set<string>();
  /** Backends picked by preflight, per "listener|client", consumed by the connection that follows. */
  private picked = new Map<string, { backend: Backend; at: number }[]>();
  /** The uid each Service name was first seen with: a later uid is the Service created again. */
  private firstUid = new Map<string, string>();

  constructor(
    private store: Store,
    private plan: AddressPlan,
    private policy: Policy,
    private topo: Topology,
    private tracker: Tracker,
    private opts: ServiceProxyOptions,
  ) {}

  start(): void {
    const w = this.store.onAny(bucket => {
      if (bucket === 'services' || bucket === 'endpointslices.discovery.k8s.io' || bucket === 'nodes') this.schedule();
    });
    this.tracker.onStop(() => w.stop());
    this.reconcile();
  }

  /** The original Service destination of a connection a backend received (preserve-destination side channel). */
  originalDestination(peerAddress: string, peerPort: number): string | undefined {
    // Matched by the outbound socket's own address: the backend may see the connection
    // before the proxy sees its 'connect' event, but the port is bound by then.
    for (const [s, dst] of this.originalDst) if (s.localPort === peerPort && s.localAddress === toIPv4(peerAddress)) return dst;
    return undefined;
  }

  /**
   * What a new flow from `client` to a listener gets; connect() asks before dialing. The
   * backend is picked here (the client's kube-proxy DNATs the SYN), kept for the
   * connection that follows, so a path dropped after DNAT times out like a lost SYN.
   */
  preflight(address: string, port: number, proto: 'tcp' | 'udp', client: Endpoint): Route | undefined {
    const l = this.listeners.get(`${proto}:${toIPv4(address)}:${port}`);
    if (!l) return undefined;
    const r = this.route(l, client);
    if (r.ok) {
      const key = `${l.key}|${toIPv4(client.address)}`;
      this.picked.set(key, [...(this.picked.get(key) ?? []).filter(p => Date.now() - p.at < PICK_TTL_MS), { backend: r.backend, at: Date.now() }]);
    }
    return r;
  }

  /** The backend preflight picked for this client's next connection to the listener. */
  private takePick(l: Listener, clientAddress: string): Backend | undefined {
    const key = `${l.key}|${toIPv4(clientAddress)}`;
    const q = (this.picked.get(key) ?? []).filter(p => Date.now() - p.at < PICK_TTL_MS);
    const next = q.shift();
    if (q.length) this.picked.set(key, q);
    else this.picked.delete(key);
    return next?.backend;
  }

  // Store events arrive synchronously inside writes: batch them into one reconcile.
  private schedule(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      this.pending = false;
      if (!this.tracker.stopped) this.reconcile();
    });
  }

  private reconcile(): void {
    const want = new Map<string, ListenSpec>();
    for (const svc of this.topo.services()) {
      const name = `${svc.metadata?.namespace}/${svc.metadata?.name}`;
      if (!this.firstUid.has(name) && svc.metadata?.uid) this.firstUid.set(name, svc.metadata.uid);
      for (const s of this.specsOf(svc)) if (!this.opts.reserved.has(`${s.proto}:${s.address}:${s.port}`)) want.set(s.key, s);
    }
    for (const [key, l] of this.listeners) {
      const w = want.get(key);
      if (!w || w.svc.namespace !== l.svc.namespace || w.svc.name !== l.svc.name) {
        l.close();
        this.listeners.delete(key);
      }
    }
    for (const [key, s] of want) {
      const have = this.listeners.get(key);
      if (have) Object.assign(have, { via: s.via, node: s.node });
      else this.open(s);
    }
  }

  private specsOf(svc: V1Service): ListenSpec[] {
    const spec = svc.spec ?? {};
    const ref = { namespace: svc.metadata?.namespace ?? '', name: svc.metadata?.name ?? '' };
    const out: ListenSpec[] = [];
    const add = (address: string, port: number, proto: string, via: Via, node?: string) => {
      const p = proto === 'UDP' ? 'udp' : proto === 'TCP' ? 'tcp' : undefined;
      if (!p) return; // SCTP: not carried by the twin
      address = toIPv4(address);
      out.push({ key: `${p}:${address}:${port}`, proto: p, address, port, via, node, svc: ref });
    };
    if (spec.type === 'ExternalName') return out;
    for (const p of spec.ports ?? []) {
      const proto = p.protocol ?? 'TCP';
      if (spec.clusterIP && spec.clusterIP !== 'None') add(spec.clusterIP, p.port, proto, 'clusterIP');
      if (p.nodePort && (spec.type === 'NodePort' || spec.type === 'LoadBalancer'))
        for (const node of this.nodeNames()) add(this.plan.nodeAddress(node), p.nodePort, proto, 'nodePort', node);
      const lb = svc.status?.loadBalancer?.ingress?.[0]?.ip;
      if (spec.type === 'LoadBalancer' && lb) add(lb, p.port, proto, 'loadBalancer');
    }
    return out;
  }

  /** Profile nodes plus any Node object added later (a node joining gets the NodePorts too). */
  private nodeNames(): string[] {
    const names = new Set(this.plan.nodeNames());
    for (const n of this.store.list('nodes').items) if (n.metadata.name) names.add(n.metadata.name);
    return [...names];
  }

  private open(s: ListenSpec): void {
    let closed = false;
    if (s.proto === 'tcp') {
      const server = this.tracker.server(net.createServer({ pauseOnConnect: true }, c => this.onTcp(l, c)));
      const l: Listener = {
        ...s,
        close: () => {
          closed = true;
          server.close();
        },
      };
      this.listeners.set(s.key, l);
      server.on('error', e => {
        this.drop(l, e);
      });
      server.listen({ host: s.address, port: s.port, exclusive: true }, () => {
        if (closed) server.close();
      });
    } else {
      const sock = this.tracker.udpSocket(dgram.createSocket('udp4'));
      const flows = new Map<string, UdpFlow>();
      const l: Listener = {
        ...s,
        close: () => {
          closed = true;
          for (const f of flows.values()) f.up.close();
          try {
            sock.close();
          } catch {
            /* already closed */
          }
        },
      };
      this.listeners.set(s.key, l);
      sock.on('error', e => this.drop(l, e));
      sock.on('message', (msg, rinfo) => this.onUdp(l, sock, flows, msg, rinfo));
      sock.bind({ address: s.address, port: s.port, exclusive: true });
    }
  }

  private drop(l: Listener, e: Error): void {
    // Retried on the next reconcile; said once per address so a taken port does not flood the log.
    if (this.listeners.get(l.key) === l) this.listeners.delete(l.key);
    if (this.failed.has(l.key)) return;
    this.failed.add(l.key);
    console.error(`sim network: service ${l.svc.namespace}/${l.svc.name} cannot listen on ${l.address}:${l.port} (${l.proto}): ${e.message}`);
  }

  private route(l: Listener, client: Endpoint, pinned?: Backend): Route {
    const svc = this.topo.service(l.svc.namespace, l.svc.name);
    const sp = svc && findPort(svc, l);
    if (!svc || !sp) return { ok: false, mode: 'refused', reason: 'no such service port' };
    const target: Target = {
      kind: 'service',
      address: l.address,
      via: l.via,
      node: l.node,
      os: l.node ? this.policy.nodeOS(l.node) : undefined,
      service: l.svc,
      hairpin: client.kind === 'pod' && this.isBackend(svc, sp, client.address),
      recreated: !!svc.metadata?.uid && this.firstUid.get(`${l.svc.namespace}/${l.svc.name}`) !== svc.metadata.uid,
    };
    const d = this.policy.decide(client, target, l.proto);
    if (!d.allowed) return { ok: false, mode: d.mode, reason: d.reason };
    let backends = readyBackends(this.topo, this.plan, svc, sp);
    if (!backends.length && this.opts.apiServer && l.svc.namespace === 'default' && l.svc.name === 'kubernetes')
      backends = [{ address: this.opts.apiServer.host, port: this.opts.apiServer.port }];
    const local = l.via !== 'clusterIP' && svc.spec?.externalTrafficPolicy === 'Local';
    // The kube-proxy handling the flow: the client's node for ClusterIP, the receiving node otherwise.
    const proxyNode = l.via === 'clusterIP' ? client.node : l.via === 'nodePort' ? l.node : backends[0]?.node;
    if (local) backends = backends.filter(b => b.node === proxyNode);
    if (!backends.length) {
      // kube-proxy REJECTs a Service without endpoints, and DROPs external traffic with no local one.
      return local ? { ok: false, mode: 'timeout', reason: 'no node-local endpoint' } : { ok: false, mode: 'refused', reason: 'no endpoints' };
    }
    const rule = this.policy.affinity(proxyNode);
    const flow = `${l.svc.namespace}/${l.svc.name}/${sp.port}/${sp.protocol ?? 'TCP'}`;
    const backend =
      (pinned && backends.find(b => b.address === pinned.address && b.port === pinned.port)) ?? this.picker.pick(flow, svc, backends, client.address, rule);
    // After DNAT the packet still crosses the pod-to-pod path from the ORIGINAL client
    // (a Windows pod's kube-proxy DNATs on its own node): W → ClusterIP → L backend is a
    // W → L packet, so the path breaks (w2l, l2w, w2w-*) apply to the proxied hop too.
    const hop = this.backendHop(client, backend, l.proto);
    if (!hop.allowed) return { ok: false, mode: hop.mode, reason: `${hop.reason} (after DNAT to ${backend.address}:${backend.port})` };
    const proxyAddr = proxyNode ? this.plan.nodeAddress(proxyNode) : client.address;
    const preserve = l.via === 'clusterIP' || this.policy.preservesClientIP(proxyNode, local);
    const annotated = svc.metadata?.annotations?.['preserve-destination'] === 'true';
    return {
      ok: true,
      backend,
      localAddress: preserve ? client.address : proxyAddr,
      originalDst: this.policy.preservesDestination(proxyNode, annotated) ? `${l.address}:${l.port}` : undefined,
    };
  }

  /** The policy on the hop from the client pod to the backend pod it was DNATed to (hairpin excluded: its own rule). */
  private backendHop(client: Endpoint, backend: Backend, proto: 'tcp' | 'udp'): Decision {
    const pod = this.plan.podByAddress(backend.address);
    if (!pod || toIPv4(client.address) === backend.address) return { allowed: true };
    const path: Decision =
      client.kind !== 'pod' || client.hostNetwork
        ? { allowed: true }
        : this.policy.decide(client, { kind: 'pod', address: backend.address, node: pod.node, os: this.policy.nodeOS(pod.node) }, proto);
    return path.allowed && this.opts.netpol ? this.opts.netpol.decide(client, backend.address, backend.port, proto) : path;
  }

  private isBackend(svc: V1Service, sp: V1ServicePort, address: string): boolean {
    return readyBackends(this.topo, this.plan, svc, sp).some(b => b.address === toIPv4(address));
  }

  private onTcp(l: Listener, c: Socket): void {
    c.on('error', () => undefined);
    const client = this.topo.endpointOf(c.remoteAddress ?? '');
    const r = this.route(l, client, this.takePick(l, client.address));
    if (!r.ok) {
      if (r.mode === 'timeout') hold(c);
      else c.resetAndDestroy();
      return;
    }
    const up = this.tracker.socket(net.connect({ host: r.backend.address, port: r.backend.port, localAddress: r.localAddress }));
    if (r.originalDst) this.originalDst.set(up, r.originalDst);
    up.on('connect', () => {
      c.pipe(up);
      up.pipe(c);
      c.resume();
    });
    up.on('error', () => {
      if (!c.destroyed) c.resetAndDestroy();
    });
    up.on('close', () => {
      this.originalDst.delete(up);
      c.end();
    });
    c.on('close', () => up.destroy());
  }

  private onUdp(l: Listener, sock: dgram.Socket, flows: Map<string, UdpFlow>, msg: Buffer, rinfo: dgram.RemoteInfo): void {
    const fkey = `${rinfo.address}:${rinfo.port}`;
    const existing = flows.get(fkey);
    if (existing) {
      existing.up.send(msg, existing.backend.port, existing.backend.address);
      return;
    }
    const r = this.route(l, this.topo.endpointOf(rinfo.address));
    if (!r.ok) return; // dropped or rejected: the client's read times out
    const up = this.tracker.udpSocket(dgram.createSocket('udp4'));
    flows.set(fkey, { up, backend: r.backend });
    let idle = this.tracker.timer(() => up.close(), UDP_IDLE_MS);
    up.on('error', () => up.close());
    up.on('close', () => {
      flows.delete(fkey);
      this.tracker.clearTimer(idle);
    });
    up.on('message', (reply, from) => {
      if (from.address !== r.backend.address || from.port !== r.backend.port) return;
      this.tracker.clearTimer(idle);
      idle = this.tracker.timer(() => up.close(), UDP_IDLE_MS);
      sock.send(reply, rinfo.port, rinfo.address);
    });
    // Sends issued while the bind is in progress are queued by dgram.
    up.bind({ address: r.localAddress, port: 0 });
    up.send(msg, r.backend.port, r.backend.address);
  }
}

interface UdpFlow {
  up: dgram.Socket;
  backend: Backend;
}

/** The Service port a listener serves (by nodePort for NodePort listeners). */
function findPort(svc: V1Service, l: ListenSpec): V1ServicePort | undefined {
  const proto = l.proto.toUpperCase();
  return svc.spec?.ports?.find(p => (p.protocol ?? 'TCP') === proto && (l.via === 'nodePort' ? p.nodePort === l.port : p.port === l.port));
}
