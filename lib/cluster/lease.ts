// A live run holds a lease on its namespace: a heartbeat annotation it renews while it runs.
// `wincheck cleanup` leaves namespaces with a fresh heartbeat alone (unless --force), so a
// cleanup, or a second run, never deletes a run that is still in progress.

import type { V1Namespace } from '@kubernetes/client-node';
import { hostname } from 'node:os';
import { HEARTBEAT_ANNOTATION, HOLDER_ANNOTATION } from '../labels.ts';
import type { KubeClients } from './types.ts';
import { processExists } from '../process.ts';

/** How often a run renews its heartbeat. */
export const HEARTBEAT_INTERVAL_MS = 15_000;
/** A heartbeat older than this belongs to a run that is gone (killed, crashed, lost its cluster). */
export const LEASE_TTL_MS = 4 * HEARTBEAT_INTERVAL_MS;

export function heartbeatAnnotations(now = Date.now()): Record<string, string> {
  return { [HEARTBEAT_ANNOTATION]: new Date(now).toISOString(), [HOLDER_ANNOTATION]: `${hostname()}/${process.pid}` };
}

/** The age of the namespace's heartbeat, undefined when it has none (a run from before leases, or --keep). */
export function heartbeatAgeMs(ns: V1Namespace, now = Date.now()): number | undefined {
  const t = Date.parse(ns.metadata?.annotations?.[HEARTBEAT_ANNOTATION] ?? '');
  return Number.isNaN(t) ? undefined : now - t;
}

/**
 * A fresh heartbeat, from a holder that still exists: on this host a holder process that is gone
 * (SIGKILL) frees the lease at once; from another host only the TTL can tell.
 */
export function isLive(ns: V1Namespace, now = Date.now()): boolean {
  const age = heartbeatAgeMs(ns, now);
  if (age === undefined || age >= LEASE_TTL_MS) return false;
  const [host, pid] = (ns.metadata?.annotations?.[HOLDER_ANNOTATION] ?? '').split('/');
  return host !== hostname() || !Number(pid) || processExists(Number(pid));
}

/** Renews the heartbeat until stopped; the stop function removes it too when asked (--keep). */
export function startHeartbeat(kube: KubeClients, namespace: string, onError: (message: string) => void): { stop(): void } {
  let warned = false;
  const beat = async () => {
    try {
      await kube.core.patchNamespace({
        name: namespace,
        body: [{ op: 'add', path: `/metadata/annotations/${HEARTBEAT_ANNOTATION.replace('/', '~1')}`, value: heartbeatAnnotations()[HEARTBEAT_ANNOTATION] }],
      });
    } catch (e) {
      // A missed beat is not fatal (the TTL spans several); say so once.
      if (!warned && !kube.signal?.aborted) onError(`could not renew the lease on namespace ${namespace}: ${e instanceof Error ? e.message : String(e)}`);
      warned = true;
    }
  };
  const timer = setInterval(() => void beat(), HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
