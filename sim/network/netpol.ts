// NetworkPolicy in the dataplane: what the profile's policy engine would enforce on a
// connection between two endpoints, read from the store at connect time (a policy takes
// effect on the next connection, as an engine that programmed its ACLs at once would).
// Semantics from https://kubernetes.io/docs/concepts/services-networking/network-policies/:
// a pod is isolated for a direction once a policy selecting it has that policyType; an
// isolated pod accepts a connection only if some policy's rule allows it (rules are
// additive); both the source's egress and the destination's ingress must allow it; traffic
// from the node a pod runs on is always allowed.
//
// Which nodes enforce is the profile's: NetworkPolicy is implemented by the network plugin
// ("creating a NetworkPolicy resource without a controller that implements it will have no
// effect"). Calico for Windows and Antrea enforce on Windows nodes
// (https://docs.tigera.io/calico/latest/getting-started/kubernetes/windows-calico/,
// https://antrea.io/docs/main/docs/windows/); Azure NPM on Windows Server 2022 and later
// (https://github.com/Azure/azure-container-networking/blob/master/docs/npm.md); flannel has no
// policy engine (https://github.com/flannel-io/flannel#networking-details). The break
// `network-policy` stops enforcement on Windows nodes (or on the nodes that name it).

import type { V1NetworkPolicyPeer, V1NetworkPolicyPort, V1ObjectMeta, V1Pod } from '@kubernetes/client-node';
import type { Store } from '../api/store.ts';
import { matchesLabels, structuredToRequirements, type StructuredSelector } from '../api/selectors.ts';
import type { NodeSpec, Profile } from '../profiles/types.ts';
import { isBroken } from '../profiles/load.ts';
import { buildNumber, toIPv4, type AddressPlan } from './addresses.ts';
import type { Decision } from './policy.ts';
import type { Endpoint } from './types.ts';

export const NETPOL_BUCKET = 'networkpolicies.networking.k8s.io';

/** Azure NPM's Windows support starts with Windows Server 2022 (build 20348). */
const AZURE_NPM_MIN_BUILD = 20348;

export type PolicyEngine = 'calico' | 'antrea' | 'azure-npm' | 'none';

/** The engine a profile runs: its own setting, else the one its CNI brings (Calico and Antrea bring theirs). */
export function policyEngineOf(profile: Profile): PolicyEngine {
  if (profile.network.networkPolicy) return profile.network.networkPolicy;
  if (profile.network.cni === 'calico') return 'calico';
  if (profile.network.cni === 'antrea') return 'antrea';
  return 'none';
}

/** Whether the profile's engine enforces NetworkPolicy for pods on this node. */
export function enforcesOn(profile: Profile, node: NodeSpec | undefined): boolean {
  if (!node) return false;
  const engine = policyEngineOf(profile);
  if (engine === 'none') return false;
  if (node.os !== 'windows') return true;
  if (isBroken(profile, 'network-policy', node.name)) return false;
  if (engine === 'azure-npm') return buildNumber(node.windowsBuild) >= AZURE_NPM_MIN_BUILD;
  return true;
}

/** A pod as a policy sees it: where it is, its labels and its namespace's. */
interface PolicyPod {
  namespace: string;
  name: string;
  node?: string;
  labels: Record<string, string>;
  nsLabels: Record<string, string>;
  pod?: V1Pod;
}

/** A policy as stored (the wire form: an ingress rule's peers are `from`, not the client's `_from`). */
interface StoredPolicy {
  metadata?: V1ObjectMeta;
  spec?: {
    podSelector?: StructuredSelector;
    policyTypes?: string[];
    ingress?: { from?: V1NetworkPolicyPeer[]; ports?: V1NetworkPolicyPort[] }[];
    egress?: { to?: V1NetworkPolicyPeer[]; ports?: V1NetworkPolicyPort[] }[];
  };
}

const ALLOW: Decision = { allowed: true };

export class NetworkPolicyEngine {
  constructor(
    private store: Store,
    private plan: AddressPlan,
    private profile: Profile,
  ) {}

  /** The engine's verdict on a connection from `from` to address:port (after any DNAT). */
  decide(from: Endpoint, toAddress: string, port: number, proto: 'tcp' | 'udp'): Decision {
    const src = this.sourcePod(from);
    const dst = this.podAt(toAddress);
    if (src && dst && src.namespace === dst.namespace && src.name === dst.name) return ALLOW;
    if (src && this.enforced(src.node)) {
      const egress = this.selecting(src, 'Egress');
      if (
        egress.length &&
        !egress.some(p => (p.spec?.egress ?? []).some(r => this.portsMatch(r.ports, port, proto, dst) && this.peersMatch(r.to, p, dst, toAddress)))
      )
        return drop(`egress of ${src.namespace}/${src.name} to ${toAddress}:${port}`, egress);
    }
    if (dst && this.enforced(dst.node)) {
      // https://kubernetes.io/docs/concepts/services-networking/network-policies/: traffic to and from the node where a Pod is running is always allowed.
      if ((from.kind === 'node' || from.hostNetwork) && from.node === dst.node) return ALLOW;
      const ingress = this.selecting(dst, 'Ingress');
      if (
        ingress.length &&
        !ingress.some(p => (p.spec?.ingress ?? []).some(r => this.portsMatch(r.ports, port, proto, dst) && this.peersMatch(r.from, p, src, from.address)))
      )
        return drop(`ingress of ${dst.namespace}/${dst.name} from ${from.address} on ${port}/${proto.toUpperCase()}`, ingress);
    }
    return ALLOW;
  }

  private enforced(node: string | undefined): boolean {
    return enforcesOn(
      this.profile,
      this.profile.nodes.find(n => n.name === node),
    );
  }

  private sourcePod(from: Endpoint): PolicyPod | undefined {
    if (from.kind !== 'pod' || from.hostNetwork) return undefined;
    const [namespace, name] = from.id.split('/');
    return this.policyPod(namespace, name, from.node);
  }

  private podAt(address: string): PolicyPod | undefined {
    const rec = this.plan.podByAddress(toIPv4(address));
    return rec ? this.policyPod(rec.namespace, rec.name, rec.node) : undefined;
  }

  private policyPod(namespace: string, name: string, node: string | undefined): PolicyPod | undefined {
    const pod = this.store.tryGet('pods', namespace, name) as unknown as V1Pod | undefined;
    if (pod?.spec?.hostNetwork) return undefined;
    const ns = this.store.tryGet('namespaces', undefined, namespace);
    return { namespace, name, node, labels: pod?.metadata?.labels ?? {}, nsLabels: ns?.metadata?.labels ?? {}, pod };
  }

  /** The policies of the pod's namespace that select it for this direction. */
  private selecting(pod: PolicyPod, type: 'Ingress' | 'Egress'): StoredPolicy[] {
    const all = this.store.list(NETPOL_BUCKET, { namespace: pod.namespace }).items as unknown as StoredPolicy[];
    return all.filter(p => typesOf(p).includes(type) && selects(p.spec?.podSelector, pod.labels));
  }

  /** No ports: every port. A named port resolves against the destination pod's container ports. */
  private portsMatch(ports: V1NetworkPolicyPort[] | undefined, port: number, proto: 'tcp' | 'udp', dst: PolicyPod | undefined): boolean {
    if (!ports?.length) return true;
    return ports.some(p => {
      if ((p.protocol ?? 'TCP').toLowerCase() !== proto) return false;
      if (p.port === undefined) return true;
      if (typeof p.port === 'number' || /^\d+$/.test(String(p.port))) {
        const first = Number(p.port);
        return p.endPort !== undefined ? port >= first && port <= p.endPort : port === first;
      }
      const named = dst?.pod?.spec?.containers.flatMap(c => c.ports ?? []).find(cp => cp.name === p.port && (cp.protocol ?? 'TCP').toLowerCase() === proto);
      return named?.containerPort === port;
    });
  }

  /** No peers: every source (ingress) or destination (egress). */
  private peersMatch(peers: V1NetworkPolicyPeer[] | undefined, policy: StoredPolicy, pod: PolicyPod | undefined, address: string): boolean {
    if (!peers?.length) return true;
    return peers.some(peer => {
      if (peer.ipBlock) return inCidr(address, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some(c => inCidr(address, c));
      if (!pod) return false;
      const nsOk = peer.namespaceSelector ? selects(peer.namespaceSelector, pod.nsLabels) : pod.namespace === policy.metadata?.namespace;
      const podOk = peer.podSelector ? selects(peer.podSelector, pod.labels) : true;
      return nsOk && podOk;
    });
  }
}

/** spec.policyTypes, defaulted as the API server does: Ingress always, Egress when egress rules exist. */
function typesOf(p: StoredPolicy): string[] {
  if (p.spec?.policyTypes?.length) return p.spec.policyTypes;
  return ['Ingress', ...(p.spec?.egress?.length ? ['Egress'] : [])];
}

/** An empty (or absent) selector selects everything. */
function selects(sel: StructuredSelector | undefined, labels: Record<string, string>): boolean {
  return matchesLabels(structuredToRequirements(sel), labels);
}

function inCidr(address: string, cidr: string): boolean {
  const [net, bits] = cidr.split('/');
  const v4 = toIPv4(address);
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(v4) || !/^\d+\.\d+\.\d+\.\d+$/.test(net ?? '')) return false;
  const n = Number(bits ?? 32);
  const toInt = (a: string) => a.split('.').reduce((acc, o) => (acc << 8) + Number(o), 0) >>> 0;
  const mask = n === 0 ? 0 : (~0 << (32 - n)) >>> 0;
  return (toInt(v4) & mask) === (toInt(net) & mask);
}

function drop(what: string, policies: StoredPolicy[]): Decision {
  const names = policies.map(p => p.metadata?.name).join(', ');
  return { allowed: false, mode: 'timeout', reason: `NetworkPolicy: ${what} is not allowed by ${names}` };
}
