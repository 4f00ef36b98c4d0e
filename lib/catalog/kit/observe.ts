// What probes share to read an observation: positive controls, a start or a workload that the
// harness's means failed (MeansError), a refusal that names the field under test, and bounded
// polling for things with no state to watch.

import { pause } from '../../../util/pause.ts';
import type { V1Pod } from '@kubernetes/client-node';
import { apiErrorMessage, statusCausesOf } from '../../cluster/apiError.ts';
import { apiExceptionIn, asMeansError, MeansError, podStartMeans } from '../../cluster/meansError.ts';
import { describePod, stuckReason } from '../../cluster/podState.ts';
import { podEvents, PodStartError } from '../../cluster/podWait.ts';
import type { ProbeOp, ProbeResult, Transport } from '../../probes/types.ts';
import type { CheckContext, Control, EvidenceItem, Observation } from '../types.ts';
import { listAll } from '../../cluster/list.ts';

/** Pull failures say nothing about the feature (mirror missing, air-gapped): the check errors. */
export const CANNOT_TELL = new Set(['ImagePullBackOff', 'ErrImagePull', 'InvalidImageName']);

/** A positive control's result (Observation.control). */
export function control(ok: boolean, summary: string, evidence: EvidenceItem[] = []): Control {
  return { ok, summary, evidence };
}

/** The control "pod <name> started": a fixture pod Ready on its node. */
export function podStarted(pod: V1Pod, what = ''): Control {
  return control(true, `pod ${pod.metadata?.name}${what ? ` (${what})` : ''} started on ${pod.spec?.nodeName ?? 'its node'}`);
}

/**
 * After a workload wait timed out (a rollout, a StatefulSet, a pod set): a pod of it that waits
 * on the harness's means (FailedScheduling, a pull, the image's platform) as a MeansError, so the
 * timeout is not read as the feature failing. Undefined when no pod points at the means.
 */
export async function meansOfWorkload(ctx: CheckContext, labelSelector: string, workload: string): Promise<MeansError | undefined> {
  const pods = (await listAll(q => ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector, ...q }))).items;
  for (const pod of pods) {
    const why = stuckReason(pod);
    const text = describePod(pod);
    // A pull's cause may be only in the events (kubelets before 1.32).
    const events = why && /ImagePull/.test(why) ? await podEvents(ctx.kube, ctx.namespace, pod.metadata!.name!).catch(() => []) : [];
    const means = why ? podStartMeans(why, text, events) : undefined;
    if (means) return new MeansError(means, `${workload}: pod ${pod.metadata?.name} waits on ${why}: ${text}`, { pod: pod.metadata });
  }
  // A sandbox that keeps failing leaves the pod ContainerCreating: only its events say so.
  for (const pod of pods.filter(p => !stuckReason(p)).slice(0, 3)) {
    const sandbox = (await podEvents(ctx.kube, ctx.namespace, pod.metadata!.name!).catch(() => [])).find(ev => ev.includes('FailedCreatePodSandBox'));
    if (sandbox) return new MeansError('sandbox', `${workload}: pod ${pod.metadata?.name} has no sandbox: ${sandbox}`);
  }
  return undefined;
}

/** A pod start failure the harness's means caused (scheduling, pull, sandbox) as a MeansError, else undefined. */
export function meansOfStart(name: string, e: PodStartError): MeansError | undefined {
  const means = podStartMeans(e.reason, e.message, e.events);
  return means ? new MeansError(means, `pod ${name} did not start: ${e.message}`, { cause: e, pod: e.pod.metadata }) : undefined;
}

export function nodeOsOf(ctx: CheckContext, nodeName: string | undefined): string {
  return ctx.cluster.nodes.find(n => n.name === nodeName)?.os ?? 'unknown';
}

/**
 * A failed start as an observation: the feature did not work, with the pod's events. A start
 * that the harness's means failed (FailedScheduling, a pull, the sandbox) throws MeansError
 * instead: error, unless the feature's subject is that means (outcomeOf).
 */
export function notStarted(name: string, e: PodStartError): Observation {
  const means = meansOfStart(name, e);
  if (means) throw means;
  return { works: false, summary: `pod ${name} did not start: ${e.reason}`, evidence: [e.message, ...e.events.slice(-5)], node: e.pod.spec?.nodeName };
}

/**
}

/**
 * Network paths have no state to watch: poll like upstream (a pass within a 30 s warm-up,
 * 1 s apart). Returns the first passing result, else the last one.
 */
export async function probeUntilPass(
  ctx: CheckContext,
  t: Transport,
  op: ProbeOp,
  windowMs = 30_000,
  intervalMs = 1_000,
  passed: (r: ProbeResult) => boolean = r => r.ok,
): Promise<ProbeResult> {
  const deadline = Date.now() + windowMs;
  for (;;) {
    const r = await ctx.probe(t, op);
    if (passed(r) || Date.now() + intervalMs > deadline || ctx.signal.aborted) return r;
    await pause(intervalMs, ctx.signal);
  }
}

/** A file every Windows image has: reading it shows that exec and file reads work in the container. */
const ALWAYS_THERE = 'C:\\Windows\\System32\\drivers\\etc\\hosts';

/** Control "the file that is readable": the container reads a file every Windows image carries. */
export async function readableFileControl(ctx: CheckContext, t: Transport): Promise<Control> {
  const r = await ctx.probe(t, { kind: 'read-file', path: ALWAYS_THERE });
  return control(r.ok, r.ok ? `${t.description} reads ${ALWAYS_THERE}` : `${t.description} could not read ${ALWAYS_THERE}: ${r.detail}`, [r.evidence]);
}

/**
 * A fixture the API server refused, as the observation of a validation feature: only a 422 whose
 * causes name `field` counts, and then the refusal is also its control (the API answered about
 * that field). Anything else (a 403, a webhook, a quota, a render failure, a 422 about another
 * field) is the harness's means failing: MeansError.
 */
export function fieldRejection(e: unknown, field: RegExp): { message: string; control: Control } {
  const api = apiExceptionIn(e);
  const causes = api ? statusCausesOf(api.body) : [];
  const named = causes.find(c => field.test(c));
  if (api?.code === 422 && named)
    return { message: apiErrorMessage(api), control: control(true, `the API server answered 422 naming the field under test (${named})`) };
  throw asMeansError(e, 'fixture', `the fixture was refused, but not by a 422 naming ${field.source}`)!;
}

/** Control for a start failure: the runtime's refusal names the field under test (else it says nothing about it). */
export function refusedFor(e: PodStartError, field: RegExp): Control {
  const text = [e.message, ...e.events].join(' | ');
  return field.test(text)
    ? control(true, `the runtime's refusal names the field under test (${e.reason})`)
    : control(false, `pod ${e.pod.metadata?.name} did not start (${e.reason}) for a reason that does not name the field under test`, [text.slice(0, 500)]);
}
