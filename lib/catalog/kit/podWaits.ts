// Every wait a probe makes for its pods, by watch with a deadline: one fixture pod (Ready or
// scheduled), several at once, a pod or an event, a set of pods by label. Feature-relevant
// failures (a pod that did not start) come back as data; the harness's own means failing
// (scheduling, pulls, a sandbox) as MeansError. The waits themselves are lib/cluster/podWait.ts
// (one pod) and lib/cluster/sharedPodWaits.ts (the run's shared waits behind ctx.waitForPodReady).

import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { CANNOT_TELL, meansOfStart, nodeOsOf, notStarted } from './observe.ts';
import type { CheckContext, Observation } from '../types.ts';
import { MeansError } from '../../cluster/meansError.ts';
import { describePod, failFastReason, isPodReady } from '../../cluster/podState.ts';
import { podEvents, PodStartError, waitForPodCondition, waitTimeoutForPodReady, watchPodEvents } from '../../cluster/podWait.ts';
import { WaitTimeoutError, watchUntil } from '../../cluster/watch.ts';
import { listAll } from '../../cluster/list.ts';
import { finalFailureOf, type FinalFailure, type PodEventSeen } from '../../cluster/podFailures.ts';

export type PodOutcome = { ok: true; pod: V1Pod } | { ok: false; error: PodStartError };

/** Waits for the pod to be scheduled (or Ready); feature-relevant failures come back as data. */
export async function podSettles(ctx: CheckContext, name: string, until: 'scheduled' | 'ready', timeoutMs?: number): Promise<PodOutcome> {
  const cannot = ctx.podsCannotAppear({ name });
  if (cannot) throw cannot;
  try {
    const pod =
      until === 'ready'
        ? await ctx.waitForPodReady(name, timeoutMs)
        : await waitForPodCondition(ctx.kube, ctx.namespace, name, 'scheduled', p => Boolean(p.spec?.nodeName), timeoutMs ?? ctx.options.timeouts.podStart, {
            signal: ctx.signal,
          });
    // A pod that selected one OS and runs on a node of another shows nothing about that OS.
    const wanted = pod.spec?.nodeSelector?.['kubernetes.io/os'];
    const landed = nodeOsOf(ctx, pod.spec?.nodeName);
    if (wanted && landed !== 'unknown' && landed !== wanted)
      throw new MeansError('scheduling', `pod ${name} selects kubernetes.io/os=${wanted} but was scheduled to ${landed} node ${pod.spec?.nodeName}`);
    return { ok: true, pod };
  } catch (e) {
    if (e instanceof PodStartError && !CANNOT_TELL.has(e.reason)) return { ok: false, error: e };
    if (e instanceof PodStartError) throw meansOfStart(name, e) ?? e;
    throw e;
  }
}

/**
 * The first event about pod `name` that `match` picks, over the one watch of pod events
 * (lib/cluster/podWait.ts watchPodEvents); never resolves otherwise: abort it with `signal`.
 * These events are the check's own reading (a mount that failed, a refusal named at once), seen
 * at once and returned as data, not PodEvidence's verdict that a start will not come.
 */
function firstPodEvent<T>(
  ctx: CheckContext,
  name: string,
  signal: AbortSignal,
  pick: (ev: PodEventSeen) => T | undefined,
): Promise<{ ev: PodEventSeen; picked: T }> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal.addEventListener('abort', onAbort, { once: true });
  return new Promise<{ ev: PodEventSeen; picked: T }>((resolve, reject) => {
    watchPodEvents(ctx.kube, ctx.namespace, name, stop.signal, (_, ev, type) => {
      const picked = type !== 'DELETED' ? pick(ev) : undefined;
      if (picked === undefined) return;
      resolve({ ev, picked });
      stop.abort();
    }).catch(reject);
  }).finally(() => {
    stop.abort();
    signal.removeEventListener('abort', onAbort);
  });
}

/** A pod that ended at an event that will not fix itself (finalFailureOf). */
export type FinalOutcome = { ok: false; final: FinalFailure; event: string; events: string[] };

/**
 * podSettles(name, 'ready'), but ended by the pod's first event that is final on sight: a
 * RuntimeClass handler the runtime has not configured, a user the runtime refuses, an image for
 * another platform (lib/cluster/podFailures.ts). Such a pod would only wait out the deadline.
 */
export async function podSettlesOrFinal(ctx: CheckContext, name: string, timeoutMs = ctx.options.timeouts.podStart): Promise<PodOutcome | FinalOutcome> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const ns = ctx.namespace;
  const settled = podSettles(ctx, name, 'ready', timeoutMs);
  const final = firstPodEvent(ctx, name, stop.signal, ev => (ev.type === 'Warning' ? finalFailureOf(ev.message ?? '') : undefined)).then(
    async ({ ev, picked }): Promise<FinalOutcome> => ({
      ok: false,
      final: picked,
      event: `${ev.reason}: ${ev.message ?? ''}`,
      events: await podEvents(ctx.kube, ns, name).catch(() => []),
    }),
  );
  // The loser's rejection (aborted, or the pod deleted at cleanup) is expected and dropped.
  settled.catch(() => undefined);
  final.catch(() => undefined);
  try {
    return await Promise.race([
      settled,
      new Promise<FinalOutcome>((resolve, reject) => {
        final.then(resolve, e => {
          if (!stop.signal.aborted) reject(e);
        });
      }),
    ]);
  } finally {
    stop.abort();
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * The fixture's pod once Ready (step "waiting for <described> to be Ready"); a pod that fails to
 * start is the feature's observation (notStarted).
 */
export async function fixturePodReady(
  ctx: CheckContext,
  name: string,
  described = `pod ${name}`,
): Promise<{ ok: true; pod: V1Pod } | { ok: false; observation: Observation }> {
  ctx.fixture(name);
  ctx.step(`waiting for ${described} to be Ready`);
  const r = await podSettles(ctx, name, 'ready');
  return r.ok ? r : { ok: false, observation: notStarted(name, r.error) };
}

/**
 * Waits until `count` pods matching the selector are scheduled (nodeName set). A pod that
 * cannot be scheduled ends the wait early with its reason.
 */
export async function podsScheduled(
  ctx: CheckContext,
  labelSelector: string,
  count: number,
  timeoutMs = ctx.options.timeouts.podStart,
): Promise<{ ok: true; pods: V1Pod[] } | { ok: false; reason: string; pods: V1Pod[] }> {
  const cannot = ctx.podsCannotAppear({ labelSelector });
  if (cannot) throw cannot;
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
      list: () => listAll(q => ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector, ...q })),
      onList: items => {
        seen.clear();
        for (const p of items) seen.set(p.metadata!.name!, p);
        return verdict();
      },
      check: (p, type) => {
        if (type === 'DELETED') seen.delete(p.metadata!.name!);
        else seen.set(p.metadata!.name!, p);
        return verdict();
      },
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

export type Ready = { ok: true; pods: Record<string, V1Pod> } | { ok: false; observation: Observation };

/** Waits for the named pods to be Ready; a pod that fails to start is the observation. */
export async function readyPods(ctx: CheckContext, names: string[]): Promise<Ready> {
  ctx.step(`waiting for pod(s) ${names.join(', ')} to be Ready`);
  const settled = await Promise.all(names.map(n => podSettles(ctx, n, 'ready')));
  const pods: Record<string, V1Pod> = {};
  for (const [i, s] of settled.entries()) {
    if (!s.ok) return { ok: false, observation: notStarted(names[i], s.error) };
    pods[names[i]] = s.pod;
  }
  return { ok: true, pods };
}

/**
 * podSettles, except that a pull failing for want of the node's platform counts as the pod not
 * starting (an observation) rather than an unrelated pull problem (an error): for images chosen
 * for the node's build, that failure is what process isolation or a pause image got wrong.
 */
export async function podSettlesOrMismatch(ctx: CheckContext, name: string): Promise<PodOutcome> {
  try {
    return await podSettles(ctx, name, 'ready');
  } catch (e) {
    if (e instanceof MeansError && e.means === 'image-platform' && e.cause instanceof PodStartError) return { ok: false, error: e.cause };
    throw e;
  }
}

export type PodSettled =
  { state: 'ready'; pod: V1Pod } | { state: 'unschedulable'; pod: V1Pod; message: string } | { state: 'failed'; pod: V1Pod; reason: string };

export function settledOf(pod: V1Pod): PodSettled | undefined {
  if (isPodReady(pod)) return { state: 'ready', pod };
  const why = failFastReason(pod);
  if (why === 'FailedScheduling') {
    const c = pod.status?.conditions?.find(x => x.type === 'PodScheduled');
    return { state: 'unschedulable', pod, message: c?.message ?? 'Unschedulable' };
  }
  if (why) return { state: 'failed', pod, reason: `${why}: ${describePod(pod)}` };
  return undefined;
}

/**
 * Waits by watch until `want` pods match the selector and each is Ready, unschedulable or
 * failed for good. Returns what each pod came to. `signal` (default the check's) stops it: a
 * caller that races it with other evidence stops the loser, so no watch outlives the check.
 */
export function waitForPodSet(ctx: CheckContext, labelSelector: string, want: number, timeoutMs: number, signal = ctx.signal): Promise<PodSettled[]> {
  const cannot = ctx.podsCannotAppear({ labelSelector });
  if (cannot) return Promise.reject(cannot);
  const pods = new Map<string, V1Pod>();
  const evaluate = (): PodSettled[] | undefined => {
    const live = [...pods.values()].filter(p => !p.metadata?.deletionTimestamp);
    if (live.length < want) return undefined;
    const settled = live.map(settledOf);
    return settled.every(Boolean) ? (settled as PodSettled[]) : undefined;
  };
  return watchUntil<V1Pod, PodSettled[]>({
    kube: ctx.kube,
    path: `/api/v1/namespaces/${ctx.namespace}/pods`,
    labelSelector,
    list: () => listAll(q => ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector, ...q })),
    onList: items => {
      pods.clear();
      for (const p of items) pods.set(p.metadata!.name!, p);
      return evaluate();
    },
    check: (p, type) => {
      if (type === 'DELETED') pods.delete(p.metadata!.name!);
      else pods.set(p.metadata!.name!, p);
      return evaluate();
    },
    what: `${want} pod(s) ${labelSelector} to be Ready or fail`,
    describe: () => [...pods.values()].map(p => `${p.metadata?.name}: ${describePod(p)}`).join(' | ') || 'no pod seen',
    timeoutMs,
    signal,
  });
}

/**
 * After a pod-set wait timed out: when the workload made no pod at all, its controller (the
 * harness's means) failed, not the feature; throws MeansError then.
 */
export async function throwIfNoPodMade(ctx: CheckContext, labelSelector: string, workload: string, e: Error): Promise<void> {
  const made = await listAll(q => ctx.kube.core.listNamespacedPod({ namespace: ctx.namespace, labelSelector, ...q }));
  if (!made.items.length) throw new MeansError('workload-controller', `${workload} made no pod: ${e.message}`, { cause: e });
}

/**
 * Resolves with the first FailedCreatePodSandBox event of a pod whose name starts with
 * `prefix` (a sandbox that cannot start leaves the pod ContainerCreating: only events say why).
 * Never resolves otherwise; abort it with `signal`.
 */
export function firstSandboxFailure(ctx: CheckContext, prefix: string, signal: AbortSignal): Promise<string> {
  const match = (ev: CoreV1Event) =>
    ev.reason === 'FailedCreatePodSandBox' && (ev.involvedObject?.name ?? '').startsWith(prefix)
      ? `${ev.involvedObject?.name}: ${ev.reason}: ${ev.message ?? ''}`
      : undefined;
  return watchUntil<CoreV1Event, string>({
    kube: ctx.kube,
    path: `/api/v1/namespaces/${ctx.namespace}/events`,
    list: () => listAll(q => ctx.kube.core.listNamespacedEvent({ namespace: ctx.namespace, ...q })),
    check: ev => match(ev),
    what: `sandbox failures of pods ${prefix}*`,
    describe: () => 'none',
    timeoutMs: 24 * 3600_000,
    signal,
  });
}

/** Last few events of a pod, for evidence. */
export async function recentEvents(ctx: CheckContext, pod: string, n = 5): Promise<string[]> {
  return (await podEvents(ctx.kube, ctx.namespace, pod).catch(() => [])).slice(-n);
}

export type Settled =
  | { kind: 'ready'; pod: V1Pod }
  /** The core wait failed fast (ImagePullBackOff, CrashLoopBackOff, FailedScheduling...). */
  | { kind: 'failed'; error: PodStartError }
  /** An event with one of the watched reasons was seen first. */
  | { kind: 'event'; reason: string; message: string; events: string[] };

/**
 * Waits until pod `name` is Ready, fails fast, or gets an event whose reason is in `reasons`
 * (e.g. FailedMount, FailedMapVolume, FailedCreatePodSandBox), whichever comes first.
 */
export async function readyOrEvent(ctx: CheckContext, name: string, reasons: string[], timeoutMs = ctx.options.timeouts.podStart): Promise<Settled> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const ns = ctx.namespace;
  const ready = waitTimeoutForPodReady(ctx.kube, ns, name, timeoutMs, { signal: stop.signal })
    .then((pod): Settled => ({ kind: 'ready', pod }))
    .catch((e: unknown): Settled | never => {
      if (e instanceof PodStartError) return { kind: 'failed', error: e };
      throw e;
    });
  const event = firstPodEvent(ctx, name, stop.signal, ev => (reasons.includes(ev.reason ?? '') ? true : undefined)).then(async ({ ev }): Promise<Settled> => ({
    kind: 'event',
    reason: ev.reason ?? '',
    message: ev.message ?? '',
    events: await podEvents(ctx.kube, ns, name).catch(() => []),
  }));
  // The loser is aborted; its rejection ("interrupted") is expected and dropped.
  ready.catch(() => undefined);
  event.catch(() => undefined);
  try {
    return await Promise.race([
      ready,
      new Promise<Settled>((resolve, reject) => {
        event.then(resolve, e => {
          if (!stop.signal.aborted) reject(e);
        });
      }),
    ]);
  } finally {
    stop.abort();
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/** One line for evidence: how the pod settled. */
export function describeSettled(name: string, s: Settled): string {
  switch (s.kind) {
    case 'ready':
      return `pod ${name} is Ready on ${s.pod.spec?.nodeName}`;
    case 'failed':
      return `pod ${name} did not start: ${s.error.message}`;
    case 'event':
      return `pod ${name}: ${s.reason}: ${s.message}`;
  }
}
