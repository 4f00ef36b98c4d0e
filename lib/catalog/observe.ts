// Helpers feature probes share: where did a pod land, did it start, does a network path answer.

import type { V1Pod } from '@kubernetes/client-node';
import { PodStartError, waitForPodCondition } from '../cluster/podWait.ts';
import type { ProbeOp, ProbeResult, Transport } from '../probes/types.ts';
import type { CheckContext, Observation } from './types.ts';

/** Pull failures say nothing about the feature (mirror missing, air-gapped): the check errors. */
const CANNOT_TELL = new Set(['ImagePullBackOff', 'ErrImagePull', 'InvalidImageName']);

export type PodOutcome = { ok: true; pod: V1Pod } | { ok: false; error: PodStartError };

/** Waits for the pod to be scheduled (or Ready); feature-relevant failures come back as data. */
export async function podSettles(ctx: CheckContext, name: string, until: 'scheduled' | 'ready', timeoutMs?: number): Promise<PodOutcome> {
  try {
    const pod = until === 'ready'
      ? await ctx.waitForPodReady(name, timeoutMs)
      : await waitForPodCondition(ctx.kube, ctx.namespace, name, 'scheduled', p => Boolean(p.spec?.nodeName), timeoutMs ?? 5 * 60_000, { signal: ctx.signal });
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
 * Network paths have no state to watch: poll like upstream (a pass within a 30 s warm-up,
 * 1 s apart). Returns the first passing result, else the last one.
 */
export async function probeUntilPass(ctx: CheckContext, t: Transport, op: ProbeOp, windowMs = 30_000, intervalMs = 1_000): Promise<ProbeResult> {
  const deadline = Date.now() + windowMs;
  for (;;) {
    const r = await ctx.probe(t, op);
    if (r.ok || Date.now() + intervalMs > deadline || ctx.signal.aborted) return r;
    await new Promise(res => setTimeout(res, intervalMs));
  }
}
