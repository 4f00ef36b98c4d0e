// Helpers feature probes share: where did a pod land, did it start, does a network path answer.

import { setTimeout as delay } from 'node:timers/promises';
import type { V1Pod } from '@kubernetes/client-node';
import { describePod, failFastReason } from '../cluster/podState.ts';
import { PodStartError, waitForPodCondition } from '../cluster/podWait.ts';
import { WaitTimeoutError, watchUntil } from '../cluster/watch.ts';
import type { ProbeOp, ProbeResult, Transport } from '../probes/types.ts';
import type { CheckContext, Observation } from './types.ts';

/** Pull failures say nothing about the feature (mirror missing, air-gapped): the check errors. */
export const CANNOT_TELL = new Set(['ImagePullBackOff', 'ErrImagePull', 'InvalidImageName']);

export type PodOutcome = { ok: true; pod: V1Pod } | { ok: false; error: PodStartError };

/** Waits for the pod to be scheduled (or Ready); feature-relevant failures come back as data. */
export async function podSettles(ctx: CheckContext, name: string, until: 'scheduled' | 'ready', timeoutMs?: number): Promise<PodOutcome> {
  try {
    const pod = until === 'ready'
      ? await ctx.waitForPodReady(name, timeoutMs)
      : await waitForPodCondition(ctx.kube, ctx.namespace, name, 'scheduled', p => Boolean(p.spec?.nodeName), timeoutMs ?? ctx.options.timeouts.podStart, { signal: ctx.signal });
    return { ok: true, pod };
  } catch (e) {
    if (e instanceof PodStartError && !CANNOT_TELL.has(e.reason)) return { ok: false, error: e };
    throw e;
  }
}

export function nodeOsOf(ctx: CheckContext, nodeName: string | undefined): string {
  return ctx.cluster.nodes.find(n => n.name === nodeName)?.os ?? 'unknown';
}

/** A failed start as an observation: the feature did not work, with the pod's events. */
export function notStarted(name: string, e: PodStartError): Observation {
  return { works: false, summary: `pod ${name} did not start: ${e.reason}`, evidence: [e.message, ...e.events.slice(-5)], node: e.pod.spec?.nodeName };
}

/**
 * The fixture's pod once Ready (step "waiting for <described> to be Ready"); a pod that fails to
 * start is the feature's observation (notStarted).
 */
export async function fixturePodReady(ctx: CheckContext, name: string, described = `pod ${name}`): Promise<{ ok: true; pod: V1Pod } | { ok: false; observation: Observation }> {
  ctx.fixture(name);
  ctx.step(`waiting for ${described} to be Ready`);
  const r = await podSettles(ctx, name, 'ready');
  return r.ok ? r : { ok: false, observation: notStarted(name, r.error) };
}

/**
 * An abortable wait, for the bounded polling loops of things that have no state to watch
 * (network paths, stats samples) and for idle periods that are the behaviour under test.
 * Never a wait for the cluster: those watch (podSettles, watchUntil).
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal });
}

/**
 * Network paths have no state to watch: poll like upstream (a pass within a 30 s warm-up,
 * 1 s apart). Returns the first passing result, else the last one.
 */
export async function probeUntilPass(ctx: CheckContext, t: Transport, op: ProbeOp, windowMs = 30_000, intervalMs = 1_000): Promise<ProbeResult> {
  const deadline = Date.now() + windowMs;
  for (;;) {
    const r = await ctx.probe(t, op);
    if (r.ok || Date.now() + intervalMs > deadline || ctx.signal.aborted) return r;
    await pause(intervalMs, ctx.signal);
  }
}

/**
 * Waits until `count` pods matching the selector are scheduled (nodeName set). A pod that
 * cannot be scheduled ends the wait early with its reason.
 */
export async function podsScheduled(ctx: CheckContext, labelSelector: string, count: number, timeoutMs = ctx.options.timeouts.podStart): Promise<{ ok: true; pods: V1Pod[] } | { ok: false; reason: string; pods: V1Pod[] }> {
  const seen = new Map<string, V1Pod>();
  const verdict = () => {
    const pods = [...seen.values()];
    const stuck = pods.map(p => ({ p, reason: failFastReason(p) })).find(x => x.reason === 'FailedScheduling');
    if (stuck) return { ok: false as const, reason: `pod ${stuck.p.metadata?.name}: ${describePod(stuck.p)}`, pods };
    const scheduled = pods.filter(p => p.spec?.nodeName);
    return scheduled.length >= count ? { ok: true as const, pods: scheduled } : undefined;
  };
  try {
    return await watchUntil<V1Pod, { ok: true; pods: V1Pod[] } | { ok: false; reason: string; pods: V1Pod[] }>({
      kube: ctx.kube,
      path: `/api/v1/namespaces/${ctx.namespace}/pods`,
      labelSelector,
      list: () => ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector }),
      onList: items => { seen.clear(); for (const p of items) seen.set(p.metadata!.name!, p); return verdict(); },
      check: (p, type) => { if (type === 'DELETED') seen.delete(p.metadata!.name!); else seen.set(p.metadata!.name!, p); return verdict(); },
      what: `${count} pods (${labelSelector}) to be scheduled`,
      describe: () => [...seen.values()].map(p => `${p.metadata?.name}: ${describePod(p)}`).join(' | ') || 'no pods seen',
      timeoutMs,
      signal: ctx.signal,
    });
  } catch (e) {
    if (e instanceof WaitTimeoutError) return { ok: false, reason: e.message, pods: [...seen.values()] };
    throw e;
  }
}
