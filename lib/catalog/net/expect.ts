// Networking expectations that depend on the discovered cluster (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Networking").
// Pure functions of ClusterInfo, each naming the fact it used and its source.

import { schedulableWindowsNodes, targetWindowsNode } from '../../discovery/nodes.ts';
import type { ClusterInfo, NodeInfo } from '../../discovery/types.ts';
import { limited, notApplicable, supported } from '../expect.ts';
import type { Expectation } from '../types.ts';
import { NETWORK_MIN_BUILD } from '../../facts/windows.ts';
import { cite, sources, type Source } from '../../facts/sources.ts';

const {
  sessionAffinity: AFFINITY_MIN_BUILD,
  dualStack: DUAL_STACK_MIN_BUILD,
  preserveDestination: PRESERVE_DESTINATION_MIN_BUILD,
  dsr: DSR_MIN_BUILD,
} = NETWORK_MIN_BUILD;

function target(c: ClusterInfo): NodeInfo | undefined {
  return targetWindowsNode(c.nodes);
}

function describe(n: NodeInfo): string {
  return `${n.name} runs Windows build ${n.windowsBuild ?? 'unknown'}`;
}

/** The target node's build, or why it cannot be told (the expectation is then n/a, never a guess). */
function buildOrUnknown(c: ClusterInfo, what: string, source: Source): { n: NodeInfo & { buildNumber: number } } | { na: Expectation } {
  // targetWindowsNode skips nodes without a known build: name one of those if that is why.
  const n = target(c) ?? schedulableWindowsNodes(c.nodes)[0];
  if (!n) return { na: notApplicable(`could not tell the Windows build ${what} depends on: no Ready, schedulable Windows node`, source) };
  if (n.buildNumber === undefined)
    return {
      na: notApplicable(
        `could not tell the Windows build of ${n.name} (no windows-build label; kernelVersion "${n.kernelVersion}", osImage "${n.osImage}"), which ${what} depends on`,
        source,
      ),
    };
  return { n: n as NodeInfo & { buildNumber: number } };
}

export function sessionAffinityExpectation(c: ClusterInfo): Expectation {
  const b = buildOrUnknown(c, 'session affinity', sources(cite.v122Intro('session affinity table'), cite.intro()));
  if ('na' in b) return b.na;
  const n = b.n;
  return n.buildNumber >= AFFINITY_MIN_BUILD
    ? supported(
        `${describe(n)} >= ${AFFINITY_MIN_BUILD}: ClientIP session affinity is supported`,
        sources(cite.v122Intro('session affinity table'), cite.intro()),
      )
    : limited(
        `${describe(n)} < ${AFFINITY_MIN_BUILD} (Windows Server 2019): ClientIP session affinity is not supported`,
        sources(cite.v122Intro('session affinity table'), cite.intro()),
      );
}

export function affinityTimeoutExpectation(): Expectation {
  return limited('sessionAffinityConfig.clientIP.timeoutSeconds is not honoured by the Windows kube-proxy', sources(cite.v122Intro(), cite.intro()));
}

export function preserveClientIpExpectation(c: ClusterInfo): Expectation {
  const dsr = c.network.dsr;
  const source = sources(cite.intro(), cite.v122Intro('load balancing table'), cite.networking());
  if (dsr === undefined)
    return notApplicable('could not tell whether the Windows kube-proxy runs with DSR (--enable-dsr, WinDSR): not discoverable from kube-system', source);
  if (!dsr) return limited('the Windows kube-proxy runs without DSR (discovered): external traffic is SNATed even with externalTrafficPolicy: Local', source);
  const b = buildOrUnknown(c, 'DSR', source);
  if ('na' in b) return b.na;
  if (b.n.buildNumber < DSR_MIN_BUILD)
    return limited(`${describe(b.n)} < ${DSR_MIN_BUILD} (Windows Server 2019): DSR, and with it the client IP, is not available`, source);
  return supported(
    `the Windows kube-proxy runs with DSR (discovered) and ${describe(b.n)} >= ${DSR_MIN_BUILD}: externalTrafficPolicy: Local keeps the client IP`,
    source,
  );
}

export function preserveDestinationExpectation(c: ClusterInfo): Expectation {
  const dsr = c.network.dsr;
  if (dsr === undefined) return notApplicable('could not tell whether the Windows kube-proxy runs with DSR: not discoverable from kube-system', [cite.intro()]);
  if (!dsr) return limited('the Windows kube-proxy runs without DSR (discovered): the destination is always DNATed', [cite.intro()]);
  const b = buildOrUnknown(c, 'preserve-destination', sources(cite.intro(), cite.v122Intro('load balancing table')));
  if ('na' in b) return b.na;
  const n = b.n;
  if (n.buildNumber < PRESERVE_DESTINATION_MIN_BUILD)
    return limited(`${describe(n)} < ${PRESERVE_DESTINATION_MIN_BUILD} (1903): preserve-destination is not available`, [cite.intro()]);
  return supported('DSR is on (discovered) and the Windows build is 1903 or later: the preserve-destination annotation skips DNAT', [cite.intro()]);
}

export function dualStackExpectation(c: ClusterInfo): Expectation {
  const source = sources(cite.intro(), cite.networking('IPv4/IPv6 dual-stack'));
  if (!c.dualStack) return notApplicable('the cluster is not dual-stack (no node has both IPv4 and IPv6 pod CIDRs)', source);
  const mode = c.network.networkMode;
  if (mode === 'overlay') return limited('the Windows network mode is overlay (VXLAN, discovered): dual-stack needs l2bridge or host-gw', source);
  const b = buildOrUnknown(c, 'dual-stack', source);
  if ('na' in b) return b.na;
  const n = b.n;
  if (n.buildNumber < DUAL_STACK_MIN_BUILD)
    return limited(`${describe(n)} < ${DUAL_STACK_MIN_BUILD}: dual-stack needs Windows Server 2004 (2022 LTSC) or later`, source);
  // Overlay (VXLAN) has no dual-stack: an unknown mode could be overlay, so nothing is promised.
  if (!mode)
    return notApplicable(
      `could not tell the Windows network mode (${c.network.cni ? `CNI ${c.network.cni}` : 'CNI unknown'}; no flannel backend or win-overlay/win-bridge CNI config seen in kube-system): dual-stack is limited on overlay, supported on l2bridge/host-gw`,
      source,
    );
  return supported(`the cluster is dual-stack, the network mode is ${mode} (discovered) and ${describe(n)} >= ${DUAL_STACK_MIN_BUILD}`, source);
}

export function ipv6OnlyExpectation(c: ClusterInfo): Expectation {
  const source = sources(cite.intro(), cite.networking());
  // the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): IPv6-only networking is not supported on Windows, but single-family IPv6
  // Services on dual-stack pods and nodes are (that case belongs to net.dual-stack). Only
  // an IPv6-only cluster can show the limitation.
  const seed = sources(cite.v122Intro(), source);
  if (c.ipv6Only) return limited('IPv6-only (single-stack IPv6) networking is not supported on Windows nodes', seed);
  return notApplicable(
    c.dualStack
      ? 'the cluster is dual-stack, not IPv6-only: single-family IPv6 Services on dual-stack nodes are supported (net.dual-stack checks them); the limitation shows only on an IPv6-only cluster'
      : 'the cluster is not IPv6-only (its nodes have IPv4 pod CIDRs)',
    seed,
  );
}

/** The discovered facts a Windows data path rests on, for an expectation's reason. */
function pathFacts(c: ClusterInfo): string {
  const n = target(c);
  const proxies = c.network.kubeProxyDaemonSets;
  return [
    `cluster ${c.version.gitVersion}`,
    n ? describe(n) : 'Windows build unknown',
    c.network.cni ? `CNI ${c.network.cni}` : 'CNI unknown',
    c.network.networkMode ? `network mode ${c.network.networkMode}` : 'network mode unknown',
    proxies.length ? `kube-proxy DaemonSets ${proxies.join(', ')}` : 'no kube-proxy DaemonSet seen (it may run as a node service)',
  ].join('; ');
}

/**
 * UDP by pod IP: the Windows pod network carries TCP and UDP on every supported build and CNI
 * (only SCTP is missing), and upstream's Windows networking.go dials UDP 8081 of agnhost netexec
 * from a pod and from the node with no exception for any CNI.
 */
export function udpExpectation(c: ClusterInfo, spec: string): Expectation {
  return supported(
    `Windows pods exchange UDP datagrams by pod IP like TCP (${pathFacts(c)})`,
    sources(cite.e2eTest('networking.go', spec), cite.networking('limitations: SCTP is not supported; TCP and UDP are'), cite.intro()),
  );
}

/** A Windows pod → a node's NodePort: the Windows kube-proxy programs NodePort load balancers that pods' traffic takes too. */
export function podToNodePortExpectation(c: ClusterInfo): Expectation {
  return supported(
    `a Windows pod reaches a NodePort Service on a node's address (${pathFacts(c)})`,
    sources(cite.e2eTest('service.go', 'should be able to create a functioning NodePort service for Windows'), cite.networking(), cite.intro()),
  );
}

/**
 * A Service deleted and created again: kube-proxy (winkernel on Windows, its only mode) removes
 * the HNS load balancer with the Service and programs one for the new ClusterIP. Upstream's
 * Windows service.go has only the NodePort spec; the churn specs are sig-network's service.go
 * ("should work after the service has been recreated": up, delete, gone, recreate, up at the new
 * ClusterIP; "should be able to up and down services": a deleted Service's IP stops answering).
 */
export function serviceChurnExpectation(c: ClusterInfo): Expectation {
  return supported(
    `a Windows pod stops reaching a deleted Service and reaches it again at its new ClusterIP once recreated (${pathFacts(c)})`,
    sources(
      cite.k8s('test/e2e/network/service.go', 'Services should work after the service has been recreated'),
      cite.k8s('test/e2e/network/service.go', 'Services should be able to up and down services (verifyServeHostnameServiceDown)'),
      cite.networking(),
      cite.intro(),
    ),
  );
}

/** Azure NPM's Windows support starts with Windows Server 2022 (Azure/azure-container-networking docs/npm.md). */
const AZURE_NPM_MIN_BUILD = 20348;

/** Engines that program NetworkPolicy on Windows nodes (Calico for Windows, Antrea on Windows, Azure NPM on 2022+). */
const WINDOWS_POLICY_ENGINES = ['calico', 'antrea', 'azure-npm'];

/**
 * NetworkPolicy on a Windows pod: enforced by the network plugin's engine, so promised only where
 * discovery saw an engine that runs on Windows. Upstream's readiness spec Extend.NetworkPolicy runs
 * "should deny ingress from pods on other namespaces" of test/e2e/network/netpol.
 */
export function networkPolicyExpectation(c: ClusterInfo): Expectation {
  const source = sources(
    cite.readiness(
      'ext-network-policies/spec.yaml',
      'Ability to protect IPv4 pods from accessing other pods when TCP NetworkPolicys are present that block specific namespace connectability',
    ),
    cite.doc('concepts/services-networking/network-policies', 'creating a NetworkPolicy resource without a controller that implements it will have no effect'),
  );
  const engine = c.network.policyEngine;
  const cni = c.network.cni ? `CNI ${c.network.cni}` : 'CNI unknown';
  if (!engine)
    return notApplicable(
      `no NetworkPolicy engine seen in kube-system (${cni}; no calico-node, antrea-agent or azure-npm DaemonSet): a NetworkPolicy has no effect without a controller that implements it`,
      source,
    );
  if (!WINDOWS_POLICY_ENGINES.includes(engine))
    return notApplicable(`the NetworkPolicy engine ${engine} (discovered) does not run on Windows nodes: Windows pods are not policed`, source);
  if (engine === 'azure-npm') {
    const b = buildOrUnknown(c, 'Azure NPM on Windows', source);
    if ('na' in b) return b.na;
    if (b.n.buildNumber < AZURE_NPM_MIN_BUILD)
      return notApplicable(`${describe(b.n)} < ${AZURE_NPM_MIN_BUILD}: Azure NPM enforces NetworkPolicy on Windows Server 2022 and later only`, source);
  }
  return supported(
    `the NetworkPolicy engine ${engine} (discovered, ${cni}) enforces on Windows nodes: deny-all ingress blocks, allow by pod label, namespace label and port admits only what it names`,
    source,
  );
}
