// The network twin: wires the address plan, path policy, service proxies, cluster
// DNS, external host and node SSH servers into one NetworkTwin. See ./types.ts for
// the contract and ./addresses.ts for the address plan.

import net, { type Server, type Socket } from 'node:net';
import dgram from 'node:dgram';
import type { Admission, Store } from '../api/store.ts';
import type { Profile } from '../profiles/types.ts';
import type { ConnectOptions, DnsConfig, Endpoint, NetworkTwin, SocketEntry } from './types.ts';
import { NetError } from './types.ts';
import { AddressPlan, EXTERNAL_HOST_NAME, ipv6Of, isIPv4, isIPv6, MAX_INSTANCES, toIPv4 } from './addresses.ts';
import { makeServiceAdmission, ServiceAllocator } from './serviceAllocation.ts';
import { connect, type ConnectDeps } from './connect.ts';
import { exchangeUdp, type UdpExchange } from './udp.ts';
import { DnsServer } from './dns.ts';
import { DEFAULT_EXTERNAL_NAMES, DnsZone } from './dnsRecords.ts';
import { startExternalHost } from './external.ts';
import { startLoadBalancerProvisioner } from './loadbalancer.ts';
import { Policy, type Decision, type Proto, type Target } from './policy.ts';
import { NETPOL_BUCKET, NetworkPolicyEngine } from './netpol.ts';
import { resolveName, type ResolveOptions } from './resolver.ts';
import { ServiceProxies } from './services.ts';
import { SocketTable } from './sockets.ts';
import { SshServers, type HostKeyInfo, type NodeExecHandler, type SshOptions } from './ssh.ts';
import { Topology } from './topology.ts';
import { Tracker } from './tracker.ts';

export type { NodeExecHandler, HostKeyInfo, SshOptions } from './ssh.ts';
export type { Target, Decision, Proto } from './policy.ts';
export { NetError } from './types.ts';

export interface StartNetworkOptions {
  store: Store;
  profile: Profile;
  /** The real API server, backend of the `kubernetes` Service (127.96.0.1:443 in instance 0) when it has no EndpointSlice. */
  apiServer?: { host: string; port: number };
  /** SSH on Windows nodes with `ssh: true`. The sim's own client key (sshClientKey()) is always authorized. */
  ssh?: SshOptions;
  /** Extra names the upstream resolver maps to the external host (default list in dnsRecords.ts). */
  externalNames?: string[];
  /**
   * Assign LoadBalancer ingress addresses itself (when profile.addons.loadBalancer). Default
   * false: the controllers' service-controller does it through allocateLoadBalancerIP().
   */
  provisionLoadBalancers?: boolean;
  /** Register serviceAdmission() on the store here. Default false (the lead registers it). */
  registerAdmission?: boolean;
  /**
   * Address block (0-15, see addresses.ts). Default: the first free one, so sims started
   * in parallel on one machine (test runs) do not fight over :53, :22 and :80.
   */
  instance?: number;
}

/** The twin plus what the runtime, the API layer and tests need beyond the contract. */
export interface SimNetwork extends NetworkTwin {
  /** Store admission filling Service clusterIP(s), ipFamilies and nodePorts. */
  serviceAdmission(): Admission;
  /** A free ClusterIP (owner "ns/name"; held until that Service is gone from the store). */
  allocateClusterIP(owner: string): string;
  /** An ingress address for a LoadBalancer Service (the same one again for the same Service). */
  allocateLoadBalancerIP(namespace?: string, service?: string): string;
  releaseLoadBalancerIP(namespace: string, service: string): void;
  // podIPs, listenUdp, upstreamDnsServer, socketTable: optional in NetworkTwin, always present here.
  podIPs(address: string, node: string): string[];
  socketTable(address: string): SocketEntry[];
  /** The pod's resolver settings under dnsPolicy ClusterFirst. */
  clusterDnsConfig(namespace: string): DnsConfig;
  clusterDomain(): string;
  /** A client outside the cluster (127.250.0.2 in instance 0), for NodePort/LoadBalancer probes. */
  outsideClient(): Endpoint;
  nodeEndpoint(node: string): Endpoint;
  /** The path policy, for callers that need the reason of a drop. */
  decide(from: Endpoint, to: Target, proto: Proto): Decision;
  /** Resolve with a deadline or AAAA (the contract's resolve uses 5 s and A). */
  resolveWith(from: Endpoint, name: string, dns: DnsConfig, opts: ResolveOptions): Promise<string[]>;
  /** Same as connect() (kept for callers written against the earlier name). */
  connectWith(opts: ConnectOptions): Promise<Socket>;
  listenUdp(podAddress: string, port: number, onMessage: (msg: Buffer, rinfo: dgram.RemoteInfo, reply: (b: Buffer) => void) => void): Promise<dgram.Socket>;
  exchangeUdp(o: UdpExchange): Promise<{ reply: Buffer; local: { address: string; port: number } }>;
  /** preserve-destination side channel: the Service address a proxied connection was sent to. */
  originalDestination(peerAddress: string, peerPort: number): string | undefined;
  hostKeys(): Record<string, HostKeyInfo>;
  knownHosts(): string;
  sshClientKey(): { privateKey: string; publicKey: string };
  /** The account the node SSH servers accept (default "Administrator"). */
  sshUser: string;
  /** The nodes' own resolver: external names only, NXDOMAIN for the cluster domain (FEATURES net.dns-hostnet). */
  upstreamDnsServer(): { address: string; port: number };
  /** The address plan in use (instance, node and pod ranges, service CIDR). */
  plan: AddressPlan;
  setNodeExecHandler(fn: NodeExecHandler | undefined): void;
}

export async function startNetwork(opts: StartNetworkOptions): Promise<SimNetwork> {
  const first = opts.instance ?? 0;
  const last = opts.instance ?? MAX_INSTANCES - 1;
  for (let k = first; ; k++) {
    try {
      return await startInstance(opts, k);
    } catch (e) {
      const inUse = (e as { cause?: NodeJS.ErrnoException }).cause?.code === 'EADDRINUSE';
      if (!inUse) throw e;
      if (k >= last) {
        // The bind error reworded, with it as the cause.
        throw new Error(
          opts.instance === undefined
            ? `network: all ${MAX_INSTANCES} address blocks are in use (other sims running on this machine?): ${(e as Error).message}`
            : (e as Error).message,
          { cause: e },
        );
      }
    }
  }
}

async function startInstance(opts: StartNetworkOptions, instance: number): Promise<SimNetwork> {
  const { store, profile } = opts;
  for (const b of ['pods', 'services', 'endpointslices.discovery.k8s.io', NETPOL_BUCKET]) store.registerNamespaced(b);
  const tracker = new Tracker();
  const plan = new AddressPlan(profile, instance);
  const policy = new Policy(profile);
  const topo = new Topology(store, plan, policy);
  const netpol = new NetworkPolicyEngine(store, plan, profile);
  const domain = profile.network.clusterDomain ?? 'cluster.local';
  const dualStack = !!profile.network.dualStack;
  const dnsIP = plan.kubeDnsIP();
  const dnsPort = 53;

  const alloc = new ServiceAllocator(profile, plan);
  alloc.sync(store);
  const admission = makeServiceAdmission(alloc);
  const svcWatch = store.onAny((bucket, e) => {
    if (bucket === 'services') alloc.sync(store);
    // A pod gone from the store runs nowhere: its address goes back to the node's range.
    if (bucket === 'pods' && e.type === 'DELETED' && e.object.metadata.namespace && e.object.metadata.name)
      plan.releasePodIP(e.object.metadata.namespace, e.object.metadata.name);
  });
  tracker.onStop(() => svcWatch.stop());

  const zone = new DnsZone(store, plan, topo, policy, domain, [...DEFAULT_EXTERNAL_NAMES, ...(opts.externalNames ?? [])], dualStack);
  const services = new ServiceProxies(store, plan, policy, topo, tracker, {
    apiServer: opts.apiServer,
    reserved: new Set([`tcp:${dnsIP}:${dnsPort}`, `udp:${dnsIP}:${dnsPort}`]),
    netpol,
  });
  const ssh = new SshServers(tracker, opts.ssh);
  const table = new SocketTable((a, p) => services.originalDestination(a, p));

  try {
    // The DNS server binds first: a taken :53 means another sim holds this instance.
    await new DnsServer(zone, policy, topo, tracker).start(dnsIP, dnsPort);
    await startExternalHost(tracker, plan.externalHostIP());
    await new DnsServer(zone, policy, topo, tracker, true).start(plan.upstreamDnsIP(), dnsPort);
    for (const n of profile.nodes) if (n.os === 'windows' && n.ssh) await ssh.start(n.name, plan.nodeAddress(n.name));
    services.start();
    if (profile.addons.loadBalancer && opts.provisionLoadBalancers) startLoadBalancerProvisioner(store, plan, tracker);
  } catch (e) {
    await tracker.closeAll();
    throw new Error(`network: failed to start the network twin (instance ${instance}): ${(e as Error).message}`, { cause: e });
  }
  if (opts.registerAdmission) store.addAdmission(admission);

  const clusterDnsConfig = (namespace: string): DnsConfig => ({
    nameservers: [dnsIP],
    searches: [`${namespace}.svc.${domain}`, `svc.${domain}`, domain],
    ndots: 5,
  });
  const defaultDns = (from: Endpoint): DnsConfig => clusterDnsConfig(from.kind === 'pod' ? from.id.split('/')[0] : 'default');
  const resolveWith = (from: Endpoint, name: string, dns: DnsConfig, ro: ResolveOptions) =>
    resolveName(from, name, dns, policy.dottedNamesAreFQDN(from.os, from.node), ro);
  const connectDeps: ConnectDeps = {
    plan,
    policy,
    topo,
    services,
    tracker,
    netpol,
    defaultDns,
    resolve: (from, name, dns, timeoutMs) => resolveWith(from, name, dns, { timeoutMs }),
  };
  const connectWith = async (o: ConnectOptions) => {
    const s = await connect(connectDeps, o);
    table.dialed(s, o.from.address);
    return s;
  };

  return {
    allocatePodIP: (ns, pod, node) => plan.allocatePodIP(ns, pod, node),
    releasePodIP: (ns, pod) => plan.releasePodIP(ns, pod),
    nodeAddress: node => plan.nodeAddress(node),
    dnsServer: () => ({ address: dnsIP, port: dnsPort }),
    upstreamDnsServer: () => ({ address: plan.upstreamDnsIP(), port: dnsPort }),
    externalHost: () => ({ address: plan.externalHostIP(), name: EXTERNAL_HOST_NAME }),
    connect: o => connectWith(o),
    connectWith,
    resolve: (from, name, dns) => resolveWith(from, name, dns, {}),
    resolveWith,

    async ping(from, host) {
      let addr = host;
      if (!isIPv4(host) && !isIPv6(host)) {
        const a = zone.addresses(host.toLowerCase().replace(/\.$/, ''));
        if (!Array.isArray(a) || !a.length) throw new NetError('ENOTFOUND', `Ping request could not find host ${host}. Please check the name and try again.`);
        addr = a[0];
      }
      const target = topo.classify(addr, 0, from);
      if (!target) return false; // nothing lives there
      return policy.decide(from, target, 'icmp').allowed;
    },

    async listen(podAddress, port, onConnection): Promise<Server> {
      const server = tracker.server(net.createServer(onConnection));
      await new Promise<void>((res, rej) => {
        server.once('error', rej);
        server.listen({ host: toIPv4(podAddress), port, exclusive: true }, () => {
          server.off('error', rej);
          res();
        });
      });
      table.tcpServer(server, podAddress, port);
      return server;
    },

    async listenUdp(podAddress, port, onMessage) {
      const sock = tracker.udpSocket(dgram.createSocket('udp4'));
      sock.on('message', (msg, rinfo) => onMessage(msg, rinfo, b => sock.send(b, rinfo.port, rinfo.address)));
      await new Promise<void>((res, rej) => {
        sock.once('error', rej);
        sock.bind({ address: toIPv4(podAddress), port, exclusive: true }, () => {
          sock.off('error', rej);
          res();
        });
      });
      table.udpSocket(sock, podAddress, port);
      return sock;
    },

    exchangeUdp: o => exchangeUdp(connectDeps, o),

    stop: () => tracker.closeAll(),

    serviceAdmission: () => admission,
    allocateClusterIP: owner => alloc.allocateClusterIP(owner),
    allocateLoadBalancerIP: (ns, name) => plan.allocateLoadBalancerIP(ns && name ? `${ns}/${name}` : undefined),
    releaseLoadBalancerIP: (ns, name) => plan.releaseLoadBalancerIP(`${ns}/${name}`),
    podIPs(address, node) {
      const v4 = toIPv4(address);
      return dualStack && !policy.dualStackLimited(node) && !policy.broken('dual-stack', node) ? [v4, ipv6Of(v4)] : [v4];
    },
    socketTable: address => table.of(address),
    clusterDnsConfig,
    clusterDomain: () => domain,
    outsideClient: () => ({ kind: 'external', id: 'outside', os: 'linux', address: plan.outsideClientIP() }),
    nodeEndpoint: node => ({ kind: 'node', id: node, os: policy.nodeOS(node), node, address: plan.nodeAddress(node) }),
    decide: (from, to, proto) => policy.decide(from, to, proto),
    originalDestination: (a, p) => services.originalDestination(a, p),
    hostKeys: () => ssh.hostKeys(),
    knownHosts: () => ssh.knownHosts(),
    sshClientKey: () => ({ ...ssh.clientKey }),
    sshUser: opts.ssh?.user ?? 'Administrator',
    plan,
    setNodeExecHandler: fn => ssh.setHandler(fn),
  };
}
