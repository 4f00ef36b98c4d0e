// Networking expectations that depend on the discovered cluster (FEATURES.md "Networking").
// Pure functions of ClusterInfo, each naming the fact it used and its source.

import { targetWindowsNode } from '../../discovery/nodes.ts';
import type { ClusterInfo, NodeInfo } from '../../discovery/types.ts';
import { limited, notApplicable, supported } from '../expect.ts';
import type { Expectation } from '../types.ts';

/** Session affinity needs Windows build >= 19551 (seed 003's table: 2022 and 2025, not 2019). */
export const AFFINITY_MIN_BUILD = 19551;
/** IPv6 dual-stack on Windows: build >= 19041 (FEATURES.md net.dual-stack). */
export const DUAL_STACK_MIN_BUILD = 19041;
/** preserve-destination: Windows Server 1903 (build 18362) or later, with DSR. */
export const PRESERVE_DESTINATION_MIN_BUILD = 18362;

function target(c: ClusterInfo): NodeInfo | undefined {
  return targetWindowsNode(c.nodes);
}

function describe(n: NodeInfo): string {
  return `${n.name} runs Windows build ${n.windowsBuild ?? 'unknown'}`;
}

export function sessionAffinityExpectation(c: ClusterInfo): Expectation {
  const n = target(c);
  if (!n || n.buildNumber === undefined) return supported('session affinity is documented for Windows builds >= 19551; no build was discovered to say otherwise', 'seed 003 (session affinity table); FEATURES.md');
  return n.buildNumber >= AFFINITY_MIN_BUILD
    ? supported(`${describe(n)} >= ${AFFINITY_MIN_BUILD}: ClientIP session affinity is supported`, 'seed 003 (session affinity table); FEATURES.md')
    : limited(`${describe(n)} < ${AFFINITY_MIN_BUILD} (Windows Server 2019): ClientIP session affinity is not supported`, 'seed 003 (session affinity table); FEATURES.md');
}

export function affinityTimeoutExpectation(): Expectation {
  return limited('sessionAffinityConfig.clientIP.timeoutSeconds is not honoured by the Windows kube-proxy', 'seed 003; FEATURES.md');
}

export function preserveClientIpExpectation(c: ClusterInfo): Expectation {
  const dsr = c.network.dsr;
  if (dsr === undefined) return notApplicable('whether the Windows kube-proxy runs with DSR (--enable-dsr, WinDSR) could not be discovered, so the promise is unknown', 'FEATURES.md net.preserve-client-ip');
  return dsr
    ? supported('the Windows kube-proxy runs with DSR (discovered), so externalTrafficPolicy: Local keeps the client IP', 'FEATURES.md net.preserve-client-ip; upstream doc windows-networking')
    : limited('the Windows kube-proxy runs without DSR (discovered): external traffic is SNATed even with externalTrafficPolicy: Local', 'FEATURES.md net.preserve-client-ip; upstream doc windows-networking');
}

export function preserveDestinationExpectation(c: ClusterInfo): Expectation {
  const dsr = c.network.dsr;
  if (dsr === undefined) return notApplicable('whether the Windows kube-proxy runs with DSR could not be discovered, so the promise is unknown', 'FEATURES.md net.preserve-destination');
  const n = target(c);
  if (!dsr) return limited('the Windows kube-proxy runs without DSR (discovered): the destination is always DNATed', 'FEATURES.md net.preserve-destination');
  if (n?.buildNumber !== undefined && n.buildNumber < PRESERVE_DESTINATION_MIN_BUILD)
    return limited(`${describe(n)} < ${PRESERVE_DESTINATION_MIN_BUILD} (1903): preserve-destination is not available`, 'FEATURES.md net.preserve-destination');
  return supported('DSR is on (discovered) and the Windows build is 1903 or later: the preserve-destination annotation skips DNAT', 'FEATURES.md net.preserve-destination');
}

export function dualStackExpectation(c: ClusterInfo): Expectation {
  const source = 'FEATURES.md net.dual-stack; upstream doc windows-networking (IPv4/IPv6 dual-stack)';
  if (!c.dualStack) return notApplicable('the cluster is not dual-stack (no node has both IPv4 and IPv6 pod CIDRs)', source);
  const mode = c.network.networkMode;
  if (mode === 'overlay') return limited('the Windows network mode is overlay (VXLAN, discovered): dual-stack needs l2bridge or host-gw', source);
  const n = target(c);
  if (n?.buildNumber !== undefined && n.buildNumber < DUAL_STACK_MIN_BUILD) return limited(`${describe(n)} < ${DUAL_STACK_MIN_BUILD}: dual-stack needs Windows Server 2022 or later`, source);
  return supported(`the cluster is dual-stack, the network mode is ${mode ?? 'not discoverable (assumed not overlay)'} and the Windows build is >= ${DUAL_STACK_MIN_BUILD}`, source);
}

export function ipv6OnlyExpectation(c: ClusterInfo): Expectation {
  const source = 'FEATURES.md net.ipv6-only; upstream doc windows-networking';
  // seed 003: IPv6-only networking is not supported on Windows, but single-family IPv6
  // Services on dual-stack pods and nodes are (that case belongs to net.dual-stack). Only
  // an IPv6-only cluster can show the limitation.
  const seed = `seed 003; ${source}`;
  if (c.ipv6Only) return limited('IPv6-only (single-stack IPv6) networking is not supported on Windows nodes', seed);
  return notApplicable(c.dualStack
    ? 'the cluster is dual-stack, not IPv6-only: single-family IPv6 Services on dual-stack nodes are supported (net.dual-stack checks them); the limitation shows only on an IPv6-only cluster'
    : 'the cluster is not IPv6-only (its nodes have IPv4 pod CIDRs)', seed);
}
