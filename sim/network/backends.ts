// Backend choice for a Service port, as kube-proxy makes it: Ready endpoints from
// the EndpointSlices, optionally node-local (externalTrafficPolicy: Local), then
// ClientIP affinity (sticky per source address, with a timeout) or round-robin.

import type { V1Service, V1ServicePort } from '@kubernetes/client-node';
import type { Topology } from './topology.ts';
import type { AddressPlan } from './addresses.ts';
import { toIPv4 } from './addresses.ts';
import type { AffinityRule } from './policy.ts';

export interface Backend {
  address: string;
  port: number;
  node?: string;
}

/** kube-proxy's default affinity timeout (3 hours). */
const DEFAULT_AFFINITY_SECONDS = 10800;

export function readyBackends(topo: Topology, plan: AddressPlan, svc: V1Service, sp: V1ServicePort): Backend[] {
  const ns = svc.metadata?.namespace ?? '';
  const proto = sp.protocol ?? 'TCP';
  const seen = new Set<string>();
  const out: Backend[] = [];
  for (const slice of topo.slicesOf(ns, svc.metadata?.name ?? '')) {
    const port = slice.ports?.find(p => (p.name ?? '') === (sp.name ?? '') && (p.protocol ?? 'TCP') === proto)?.port;
    if (port === undefined) continue;
    for (const e of slice.endpoints ?? []) {
      if (e.conditions?.ready === false || !e.addresses.length) continue; // nil ready means ready (API docs)
      const address = toIPv4(e.addresses[0]);
      const key = `${address}:${port}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ address, port, node: e.nodeName ?? plan.podByAddress(address)?.node });
    }
  }
  return out.sort((a, b) => a.address.localeCompare(b.address, 'en', { numeric: true }) || a.port - b.port);
}

export class BackendPicker {
  private rr = new Map<string, number>();
  private sticky = new Map<string, Map<string, { backend: string; last: number }>>();

  /**
   * Picks one backend for a client. `flow` names the service port (one round-robin and
   * affinity table per service port, as kube-proxy keeps per service port).
   */
  pick(flow: string, svc: V1Service, backends: Backend[], client: string, rule: AffinityRule, now = Date.now()): Backend {
    const affinity = svc.spec?.sessionAffinity === 'ClientIP' && rule.sticky;
    if (affinity) {
      const table = this.sticky.get(flow) ?? new Map();
      this.sticky.set(flow, table);
      const timeout = rule.honourTimeout ? (svc.spec?.sessionAffinityConfig?.clientIP?.timeoutSeconds ?? DEFAULT_AFFINITY_SECONDS) : DEFAULT_AFFINITY_SECONDS;
      const entry = table.get(client);
      const still = entry && now - entry.last < timeout * 1000 && backends.find(b => `${b.address}:${b.port}` === entry.backend);
      if (entry && still) {
        entry.last = now;
        return still;
      }
      const b = this.roundRobin(flow, backends);
      table.set(client, { backend: `${b.address}:${b.port}`, last: now });
      return b;
    }
    return this.roundRobin(flow, backends);
  }

  private roundRobin(flow: string, backends: Backend[]): Backend {
    const i = this.rr.get(flow) ?? 0;
    this.rr.set(flow, i + 1);
    return backends[i % backends.length];
  }

  forget(flowPrefix: string): void {
    for (const k of [...this.rr.keys()]) if (k.startsWith(flowPrefix)) this.rr.delete(k);
    for (const k of [...this.sticky.keys()]) if (k.startsWith(flowPrefix)) this.sticky.delete(k);
  }
}
