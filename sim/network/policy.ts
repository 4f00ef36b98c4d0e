// Path policy: which packets the simulated dataplane delivers. Pure functions of the
// profile: documented Windows limitations (each lifted by setting it false) and
// supported paths broken on purpose (profile.breaks). Every rule names its source.

import type { BreakKey, Limitations, NodeSpec, Profile } from '../profiles/types.ts';
import type { Endpoint } from './types.ts';
import { buildNumber } from './addresses.ts';
import { isBroken, limitationHolds } from '../profiles/load.ts';

export type Proto = 'tcp' | 'udp' | 'icmp';

/** Where a packet is going, as the dataplane sees its destination address. */
export interface Target {
  kind: 'pod' | 'node' | 'service' | 'external';
  address: string;
  /** pod/node: the OS and node it lives on. service via nodePort: the node owning the port. */
  os?: 'linux' | 'windows';
  node?: string;
  /** service: which address of the Service was used. */
  via?: 'clusterIP' | 'nodePort' | 'loadBalancer';
  service?: { namespace: string; name: string };
  /** service: the source pod is one of the Service's own backends (hairpin). */
  hairpin?: boolean;
  /** service: created again under the name of one deleted before (a new uid). */
  recreated?: boolean;
  /** The destination was written as IPv6 (dual-stack path). */
  ipv6?: boolean;
  /** The API server (kubernetes Service backend): always reachable. */
  apiServer?: boolean;
}

export type Decision = { allowed: true } | { allowed: false; mode: 'refused' | 'timeout' | 'unreachable'; reason: string };

const ALLOW: Decision = { allowed: true };
const drop = (reason: string): Decision => ({ allowed: false, mode: 'timeout', reason });

/** Session-affinity behaviour of the kube-proxy handling a connection. */
export interface AffinityRule {
  sticky: boolean;
  honourTimeout: boolean;
  reason?: string;
}

export class Policy {
  constructor(private profile: Profile) {}

  /** A documented limitation holds unless the profile (or the node named, its own setting) lifts it. */
  limited(key: keyof Limitations, node?: string): boolean {
    return limitationHolds(this.profile, key, node);
  }
  /** Broken cluster-wide, or on one of the nodes named (per-node breaks). */
  broken(key: BreakKey, ...nodes: (string | undefined)[]): boolean {
    return isBroken(this.profile, key) || nodes.some(n => n !== undefined && isBroken(this.profile, key, n));
  }
  node(name: string | undefined): NodeSpec | undefined {
    return this.profile.nodes.find(n => n.name === name);
  }
  nodeOS(name: string | undefined): 'linux' | 'windows' {
    return this.node(name)?.os ?? 'linux';
  }

  /** A pod's own traffic (not host-network) from a Windows node: the HNS/vSwitch rules apply. */
  private winPod(e: Endpoint): boolean {
    return e.kind === 'pod' && e.os === 'windows' && !e.hostNetwork;
  }
  /** The node itself, or a host-network pod on it (HostProcess): traffic from the host stack. */
  private hostStack(e: Endpoint): boolean {
    return e.kind === 'node' || (e.kind === 'pod' && !!e.hostNetwork);
  }

  /**
   * Dual-stack on a Windows node needs l2bridge/host-gw and build >= 19041 (FEATURES
   * net.dual-stack): limited on overlay (VXLAN) and on 2019.
   */
  dualStackLimited(node: string | undefined): boolean {
    const spec = this.node(node);
    if (spec?.os !== 'windows' || !this.limited('dualStackOverlay', node)) return false;
    return this.profile.network.mode === 'overlay' || buildNumber(spec.windowsBuild) < 19041;
  }

  decide(from: Endpoint, to: Target, proto: Proto): Decision {
    if (to.apiServer) return ALLOW;
    const winInvolved = from.os === 'windows' || to.os === 'windows';
    if (to.ipv6) {
      if (!this.profile.network.dualStack) return { allowed: false, mode: 'unreachable', reason: 'the cluster is not dual-stack' };
      if (this.dualStackLimited(from.node) || this.dualStackLimited(to.node))
        return { allowed: false, mode: 'unreachable', reason: 'IPv6 is not available on this Windows node (overlay or build < 19041)' };
      if (winInvolved && this.broken('dual-stack', from.node, to.node)) return drop('break dual-stack: IPv6 packets to/from Windows are dropped');
    }
    if (proto === 'icmp') return this.decideIcmp(from, to);

    // break udp: the datagrams to a Windows pod are dropped on its node; TCP to it still passes.
    if (proto === 'udp' && to.kind === 'pod' && to.os === 'windows' && from.address !== to.address && this.broken('udp', to.node))
      return drop('break udp: UDP to Windows pods is dropped');
    if (to.kind === 'pod') return this.podToPod(from, to);
    if (to.kind === 'external') {
      if (this.winPod(from) && this.broken('egress', from.node)) return drop('break egress: outbound NAT drops Windows pod traffic');
      return ALLOW;
    }
    if (to.kind === 'service') return this.toService(from, to);
    return ALLOW;
  }

  private podToPod(from: Endpoint, to: Target): Decision {
    if (this.hostStack(from) && from.os === 'windows' && this.broken('node-to-pod', from.node)) return drop('break node-to-pod');
    if (from.kind !== 'pod' || from.hostNetwork) return ALLOW;
    // A pod reaching its own address (localhost, its containers, a port-forward into it) never
    // takes a pod-to-pod path: the path breaks do not apply.
    if (from.address === to.address) return ALLOW;
    if (from.os === 'windows' && to.os === 'windows') {
      if (from.node === to.node && this.broken('w2w-same-node', from.node)) return drop('break w2w-same-node');
      if (from.node !== to.node && this.broken('w2w-cross-node', from.node, to.node)) return drop('break w2w-cross-node');
    }
    if (from.os === 'windows' && to.os === 'linux' && this.broken('w2l', from.node)) return drop('break w2l');
    if (from.os === 'linux' && to.os === 'windows' && this.broken('l2w', to.node)) return drop('break l2w');
    return ALLOW;
  }

  private toService(from: Endpoint, to: Target): Decision {
    if (to.via === 'clusterIP') {
      // ClusterIPs are virtual and only exist inside the cluster: nothing routes them from outside.
      if (from.kind === 'external') return drop('a ClusterIP is not reachable from outside the cluster');
      if (this.hostStack(from) && from.os === 'windows' && this.broken('node-to-service', from.node)) return drop('break node-to-service');
      if (this.winPod(from) && this.broken('clusterip', from.node)) return drop('break clusterip');
      if (this.winPod(from) && to.recreated && this.broken('service-churn', from.node))
        return drop('break service-churn: the Windows kube-proxy programmed no rules for the recreated Service');
      if (this.winPod(from) && to.hairpin && this.broken('hairpin', from.node))
        return drop('break hairpin: a Windows pod cannot reach itself through its Service');
      return ALLOW;
    }
    if (to.via === 'nodePort') {
      // the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): a Windows node cannot reach its own NodePort (the connection hangs).
      if (to.os === 'windows' && this.hostStack(from) && from.node === to.node && this.limited('localNodePort', to.node))
        return drop('limitation localNodePort: a Windows node cannot reach its own NodePort');
      if (to.os === 'windows' && from.kind === 'external' && this.broken('nodeport-external', to.node)) return drop('break nodeport-external');
      if (to.os === 'windows' && this.winPod(from) && this.broken('pod-to-nodeport', to.node, from.node)) return drop('break pod-to-nodeport');
      return ALLOW;
    }
    if (to.via === 'loadBalancer' && this.broken('loadbalancer', to.node)) return drop('break loadbalancer');
    return ALLOW;
  }

  /** the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): Windows pods have no outbound ICMP beyond the pod network; pod-to-pod ping works. */
  private decideIcmp(from: Endpoint, to: Target): Decision {
    if (to.kind === 'service') return drop('service addresses are virtual: nothing answers ICMP');
    if (this.winPod(from) && to.kind !== 'pod' && this.limited('icmpEgress', from.node))
      return drop('limitation icmpEgress: ICMP from a Windows pod outside its network gets no reply');
    if (to.kind === 'external' && this.winPod(from) && this.broken('egress', from.node)) return drop('break egress');
    return ALLOW;
  }

  /**
   * Session affinity of the kube-proxy on `proxyNode`: on Windows it needs build >= 19551
   * (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/) table; limited on 2019), and timeoutSeconds is ignored (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/)).
   */
  affinity(proxyNode: string | undefined): AffinityRule {
    const spec = this.node(proxyNode);
    if (spec?.os !== 'windows') return { sticky: true, honourTimeout: true };
    if (this.broken('session-affinity', proxyNode)) return { sticky: false, honourTimeout: false, reason: 'break session-affinity' };
    if (buildNumber(spec.windowsBuild) < 19551 && this.limited('sessionAffinityOld', proxyNode))
      return { sticky: false, honourTimeout: false, reason: 'limitation sessionAffinityOld: build < 19551' };
    return { sticky: true, honourTimeout: !this.limited('sessionAffinityTimeout', proxyNode) };
  }

  /**
   * kube-proxy's DSR on this Windows node: --enable-dsr with the WinDSR gate, and a build
   * that has it (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/) table: DSR needs Windows Server 2019, 10.0.17763).
   */
  private dsr(proxyNode: string | undefined): boolean {
    return !!this.profile.network.kubeProxyEnableDSR && buildNumber(this.node(proxyNode)?.windowsBuild) >= 17763;
  }

  /**
   * externalTrafficPolicy: Local keeps the client address; on Windows only with DSR
   * (kube-proxy --enable-dsr, FEATURES net.preserve-client-ip; WS 2019+). Otherwise the proxy SNATs.
   */
  preservesClientIP(proxyNode: string | undefined, local: boolean): boolean {
    if (!local) return false;
    if (this.nodeOS(proxyNode) !== 'windows') return true;
    return this.dsr(proxyNode) && !this.broken('preserve-client-ip', proxyNode);
  }

  /** Annotation preserve-destination: "true" skips DNAT on Windows with DSR (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): WS 1903, 10.0.18362, or later). */
  preservesDestination(proxyNode: string | undefined, annotated: boolean): boolean {
    if (!annotated || this.nodeOS(proxyNode) !== 'windows') return false;
    return this.dsr(proxyNode) && buildNumber(this.node(proxyNode)?.windowsBuild) >= 18362 && !this.broken('preserve-destination', proxyNode);
  }

  /** Windows resolvers treat any dotted name as an FQDN (no search-list devolution). */
  dottedNamesAreFQDN(os: 'linux' | 'windows', node?: string): boolean {
    return os === 'windows' && this.limited('dnsDottedName', node);
  }

  /** break dns: the DNS server drops queries from Windows pods. */
  dnsDrops(from: Endpoint): boolean {
    return from.os === 'windows' && from.kind === 'pod' && this.broken('dns', from.node);
  }
}

/** The policy's verdict for one path (a convenience over new Policy(profile).decide). */
export function decide(profile: Profile, from: Endpoint, to: Target, proto: Proto): Decision {
  return new Policy(profile).decide(from, to, proto);
}
