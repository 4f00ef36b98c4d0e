// Waiting for a LoadBalancer Service's address, bounded by evidence that a provisioner acts.

import type { CoreV1Event, V1Service } from '@kubernetes/client-node';
import type { CheckContext } from '../types.ts';
import { WaitTimeoutError, watchUntil } from '../../cluster/watch.ts';
import { listAll } from '../../cluster/list.ts';

/**
 * The component that wrote an event (events.k8s.io reportingController, core/v1 source.component or
 * reportingComponent), when it says.
 */
function eventAuthor(ev: CoreV1Event): string | undefined {
  return ev.reportingComponent || ev.source?.component || undefined;
}

/** The name wincheck would write events under; it writes none today, and its own never count as a provisioner acting. */
export const HARNESS_COMPONENT = 'wincheck';

/**
 * Whether an event on the Service says a provisioner is acting: any event by a component other than
 * wincheck. The cloud provider's service controller records EnsuringLoadBalancer/EnsuredLoadBalancer
 * (https://github.com/kubernetes/cloud-provider/blob/master/controllers/service/controller.go), but
 * provisioners outside it write their own reasons (MetalLB "IPAllocated", the AWS Load Balancer
 * Controller "SuccessfullyReconciled", others in their own words), so the reason is not what counts.
 */
export function provisionerActed(ev: CoreV1Event): boolean {
  if (ev.involvedObject?.kind !== 'Service') return false;
  const by = eventAuthor(ev);
  return by !== HARNESS_COMPONENT;
}

export interface LoadBalancerWait {
  /** The first ingress IP or hostname, when one came. */
  ingress?: string;
  /** What showed a provisioner acting on the Service (an event, a finalizer), when anything did. */
  acted?: string;
  /** How long it waited (ms). */
  waitedMs: number;
  /** The bound that ended a wait without an address (ms): quietMs when nothing acted, else timeoutMs. What the verdict names, not the wall time (a loaded machine lengthens that). */
  boundMs?: number;
}

/**
 * Waits for the Service's LoadBalancer address, bounded by evidence: when no provisioner acts
 * on it (no ingress, no provisioner event, no finalizer: the service controller adds
 * service.kubernetes.io/load-balancer-cleanup before it ensures) within quietMs, there is none
 * and the wait ends; while one is seen acting it goes on up to timeoutMs. The quiet bound counts
 * from when both the Service and its events have been listed: evidence that was already there is
 * read before the harness says there is none, however long the lists take.
 */
export async function waitForIngress(ctx: CheckContext, name: string, timeoutMs: number, quietMs = timeoutMs): Promise<LoadBalancerWait> {
  const ns = ctx.namespace;
  const started = Date.now();
  const fieldSelector = `metadata.name=${name}`;
  const eventSelector = `involvedObject.name=${name}`;
  const ingressOf = (s: V1Service) => s.status?.loadBalancer?.ingress?.map(i => i.ip ?? i.hostname).find(Boolean);
  let acted: string | undefined;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let quietTimer: NodeJS.Timeout | undefined;
  let quietStart: (() => void) | undefined;
  const quietEnd = new Promise<void>(resolve => {
    quietStart = () => {
      if (quietMs < timeoutMs && !acted) quietTimer = setTimeout(resolve, quietMs);
    };
  });
  const listed = new Set<string>();
  const looked = (what: string) => {
    if (listed.has(what)) return;
    listed.add(what);
    if (listed.size === 2) quietStart?.();
  };
  // The latest evidence wins (a SyncLoadBalancerFailed after an EnsuringLoadBalancer says more).
  const sawActing = (what: string) => {
    acted = what;
    clearTimeout(quietTimer);
  };
  const serviceSeen = (s: V1Service) => {
    if (s.metadata?.name !== name) return undefined;
    if (s.metadata.finalizers?.length && !acted) sawActing(`finalizer ${s.metadata.finalizers.join(', ')}`);
    return ingressOf(s);
  };
  const service = watchUntil<V1Service, string>({
    kube: ctx.kube,
    path: `/api/v1/namespaces/${ns}/services`,
    fieldSelector,
    list: () => listAll(q => ctx.kube.core.listNamespacedService({ namespace: ns, fieldSelector, ...q })),
    onList: items => {
      let got: string | undefined;
      for (const s of items) got ??= serviceSeen(s);
      looked('service');
      return got;
    },
    check: s => serviceSeen(s),
    what: `service ${ns}/${name} to get a LoadBalancer ingress address`,
    describe: s => (s ? `status.loadBalancer ${JSON.stringify(s.status?.loadBalancer ?? {})}` : 'not seen'),
    timeoutMs,
    signal: stop.signal,
  });
  const eventSeen = (ev: CoreV1Event) => {
    if (provisionerActed(ev)) sawActing(`event ${ev.reason ?? ''}${eventAuthor(ev) ? ` from ${eventAuthor(ev)}` : ''}: ${ev.message ?? ''}`);
    return undefined;
  };
  // Events only say a provisioner acted; the wait for them never ends a wait by itself.
  const events = watchUntil<CoreV1Event, never>({
    kube: ctx.kube,
    path: `/api/v1/namespaces/${ns}/events`,
    fieldSelector: eventSelector,
    list: () => listAll(q => ctx.kube.core.listNamespacedEvent({ namespace: ns, fieldSelector: eventSelector, ...q })),
    onList: items => {
      for (const ev of items) eventSeen(ev);
      looked('events');
      return undefined;
    },
    check: ev => eventSeen(ev),
    what: `events of service ${ns}/${name}`,
    describe: () => acted ?? 'no provisioner event',
    timeoutMs,
    signal: stop.signal,
  });
  events.catch(() => undefined);
  try {
    const first = await Promise.race([service.then(ingress => ({ ingress })), quietEnd.then(() => ({ quiet: true as const }))]);
    if ('ingress' in first) return { ingress: first.ingress, acted, waitedMs: Date.now() - started };
    return { acted, waitedMs: Date.now() - started, boundMs: quietMs };
  } catch (e) {
    if (e instanceof WaitTimeoutError) return { acted, waitedMs: Date.now() - started, boundMs: timeoutMs };
    throw e;
  } finally {
    clearTimeout(quietTimer);
    ctx.signal.removeEventListener('abort', onAbort);
    stop.abort();
    service.catch(() => undefined);
  }
}

/** Why there is no LoadBalancer address: no provisioner (n/a), or one that acted and gave none (the harness's means failed). */
export function noIngressReason(name: string, w: LoadBalancerWait): { notApplicable?: string; error?: string } {
  const secs = Math.round((w.boundMs ?? w.waitedMs) / 1000);
  return w.acted
    ? { error: `a LoadBalancer provisioner acted on service ${name} (${w.acted}) but gave it no address within ${secs}s` }
    : {
        notApplicable: `no LoadBalancer provisioner acted on the Service within ${secs}s (service ${name}: no ingress address, no event on it from any component, no finalizer)`,
      };
}
