// Outbound TCP from an endpoint: resolve, apply the path policy, then a real socket
// bound to the endpoint's own address. A dropped path hangs until the caller's
// deadline (never answers early); a refused one is a real RST from the kernel.

import net, { type Socket } from 'node:net';
import type { ConnectOptions, DnsConfig, Endpoint } from './types.ts';
import { NetError } from './types.ts';
import { isIPv4, isIPv6, toIPv4, type AddressPlan } from './addresses.ts';
import type { Decision, Policy, Target } from './policy.ts';
import type { Topology } from './topology.ts';
import type { ServiceProxies } from './services.ts';
import type { Tracker } from './tracker.ts';
import type { NetworkPolicyEngine } from './netpol.ts';

export interface ConnectDeps {
  plan: AddressPlan;
  policy: Policy;
  topo: Topology;
  services: ServiceProxies;
  tracker: Tracker;
  /** NetworkPolicy, where the profile's engine enforces it (sim/network/netpol.ts). */
  netpol?: NetworkPolicyEngine;
  resolve(from: Endpoint, name: string, dns: DnsConfig, timeoutMs: number): Promise<string[]>;
  /** The resolver settings used when a caller gives a name without its own (cluster defaults). */
  defaultDns(from: Endpoint): DnsConfig;
}

export async function connect(deps: ConnectDeps, opts: ConnectOptions): Promise<Socket> {
  const { from, port, timeoutMs } = opts;
  const deadline = Date.now() + timeoutMs;
  let host = opts.host.replace(/^\[(.*)\]$/, '$1');
  if (!isIPv4(host) && !isIPv6(host)) {
    const addrs = await deps.resolve(from, host, opts.dns ?? deps.defaultDns(from), timeoutMs);
    host = addrs[0];
  }
  const target: Target = deps.topo.classify(host, port, from) ?? { kind: 'external', address: toIPv4(host), ipv6: isIPv6(host) };
  let d: Decision = deps.policy.decide(from, target, 'tcp');
  // A Service path can still be dropped or rejected by the proxy (no endpoints, Local policy).
  if (d.allowed && target.kind === 'service') {
    const r = deps.services.preflight(host, port, 'tcp', from);
    if (r && !r.ok) d = { allowed: false, mode: r.mode, reason: r.reason };
  }
  // NetworkPolicy on a direct path (a Service's backend hop is the proxy's: services.ts).
  if (d.allowed && deps.netpol && target.kind !== 'service' && !target.apiServer) d = deps.netpol.decide(from, host, port, 'tcp');
  if (!d.allowed) return blocked(deps, d, host, port, deadline);
  return dial(deps, toIPv4(host), port, egressSource(deps, from, target), deadline);
}

/**
 * The source address a packet leaves with: the endpoint's own, except pod traffic to
 * outside the cluster, which the node's outbound NAT rewrites to the node address.
 */
export function egressSource(deps: Pick<ConnectDeps, 'plan'>, from: Endpoint, target: Target): string {
  if (target.kind === 'external' && from.kind === 'pod' && !from.hostNetwork && from.node) return deps.plan.nodeAddress(from.node);
  return from.address;
}

function blocked(deps: ConnectDeps, d: Exclude<Decision, { allowed: true }>, host: string, port: number, deadline: number): Promise<Socket> {
  const what = `connect ${host}:${port}`;
  if (d.mode === 'unreachable') return Promise.reject(new NetError('EHOSTUNREACH', `${what}: no route to host (${d.reason})`));
  if (d.mode === 'refused') {
    // A real RST: dial an address nothing ever listens on.
    return dial(deps, deps.plan.blackHoleIP(), 9, undefined, deadline).then(
      s => {
        s.destroy();
        throw new NetError('ECONNREFUSED', `${what}: connection refused`);
      },
      () => {
        throw new NetError('ECONNREFUSED', `${what}: connection refused (${d.reason})`);
      },
    );
  }
  return new Promise((_, reject) => {
    deps.tracker.timer(() => reject(new NetError('ETIMEDOUT', `${what}: timed out (${d.reason})`)), Math.max(0, deadline - Date.now()));
  });
}

/** A real connect with a deadline; kernel errors become NetErrors. */
export function dial(deps: Pick<ConnectDeps, 'tracker'>, host: string, port: number, localAddress: string | undefined, deadline: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = deps.tracker.socket(net.connect({ host, port, localAddress }));
    const t = deps.tracker.timer(
      () => {
        s.destroy();
        reject(new NetError('ETIMEDOUT', `connect ${host}:${port}: timed out`));
      },
      Math.max(0, deadline - Date.now()),
    );
    s.once('connect', () => {
      deps.tracker.clearTimer(t);
      resolve(s);
    });
    s.once('error', (e: NodeJS.ErrnoException) => {
      deps.tracker.clearTimer(t);
      const code = e.code === 'ECONNREFUSED' ? 'ECONNREFUSED' : e.code === 'EHOSTUNREACH' ? 'EHOSTUNREACH' : 'ETIMEDOUT';
      reject(new NetError(code, `connect ${host}:${port}: ${e.message}`));
    });
  });
}
