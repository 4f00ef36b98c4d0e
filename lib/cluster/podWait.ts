// Pod waits by watch (names say which timeout applies, as in the e2e framework). Fail fast on
// states that will not fix themselves and on the pod's evidence (PodEvidence: a sandbox or a pull
// failing again in the same words), with the pod's events; on timeout, the last state seen.

import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import type { KubeClients } from './types.ts';
import { MeansError } from './meansError.ts';
import { describePod, failFastReason, isPodReady } from './podState.ts';
import { defaultTimeouts } from './timeouts.ts';
import { apiStatusCode } from './apiError.ts';
import { WaitTimeoutError, watchUntil } from './watch.ts';
import { eventCount, eventLastSeen } from './events.ts';
import { listAll } from './list.ts';
import { PodEvidence, type FinalPodFailure, type PodEventSeen } from './podFailures.ts';

export class PodStartError extends Error {
  constructor(
    message: string,
    readonly reason: string,
    readonly pod: V1Pod,
    readonly events: string[],
  ) {
    super(message);
  }
}

/**
 * The pod (or its namespace) is gone: the wait ends at once. Not a PodStartError: it says nothing
 * about the feature, so the check ends as an error naming it.
 */
export class PodGoneError extends Error {}

export interface PodWaitOptions {
  signal?: AbortSignal;
  /** Fail fast on failFastReason's states and PodEvidence's verdicts (default true). */
  failFast?: boolean;
}

export function waitForPodReady(kube: KubeClients, namespace: string, name: string, opts?: PodWaitOptions): Promise<V1Pod> {
  return waitTimeoutForPodReady(kube, namespace, name, defaultTimeouts().podStart, opts);
}

export function waitTimeoutForPodReady(kube: KubeClients, namespace: string, name: string, timeoutMs: number, opts?: PodWaitOptions): Promise<V1Pod> {
  return waitForPodCondition(kube, namespace, name, 'Ready', isPodReady, timeoutMs, opts);
}

/** Waits until the pod has run to completion, Succeeded or Failed (upstream e2epod's WaitForPodNoLongerRunning, bounded). */
export function waitForPodFinished(kube: KubeClients, namespace: string, name: string, timeoutMs: number, opts?: PodWaitOptions): Promise<V1Pod> {
  return waitForPodCondition(
    kube,
    namespace,
    name,
    'Succeeded or Failed',
    p => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed',
    timeoutMs,
    opts,
  );
}

/** Waits until cond(pod) holds. desc reads as "expected pod to be <desc>". */
export async function waitForPodCondition(
  kube: KubeClients,
  namespace: string,
  name: string,
  desc: string,
  cond: (pod: V1Pod) => boolean,
  timeoutMs: number,
  opts: PodWaitOptions = {},
): Promise<V1Pod> {
  const failFast = opts.failFast !== false;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let last: V1Pod | undefined;
  let evidenceFailed: ((e: unknown) => void) | undefined;
  const ended = new Promise<never>((_, reject) => (evidenceFailed = reject));
  ended.catch(() => undefined);
  const final = (f: FinalPodFailure | undefined) => {
    if (f && last) throw finalPodStartError(namespace, name, desc, f, last);
  };
  try {
    await namespaceCanHoldPods(kube, namespace, `pod ${namespace}/${name}`);
    // The pod's events, read once the pod is not at once Ready (their list holds what came before).
    const evidence = failFast
      ? new PodEvidenceWatch(kube, namespace, name, stop.signal, {
          final: (_, f) => {
            try {
              final(f);
            } catch (e) {
              evidenceFailed?.(e);
            }
          },
          failed: e => evidenceFailed?.(e),
        })
      : undefined;
    const ready = watchUntil<V1Pod, V1Pod>({
      kube,
      path: `/api/v1/namespaces/${namespace}/pods`,
      fieldSelector: `metadata.name=${name}`,
      list: () => listAll(q => kube.core.listNamespacedPod({ namespace, fieldSelector: `metadata.name=${name}`, ...q })),
      check: (pod, type) => {
        const got = readySighting(pod, type, namespace, name, desc, cond, failFast);
        if (got) return got;
        last = pod;
        final(evidence?.pod(pod, type));
        return undefined;
      },
      what: `pod ${namespace}/${name} to be ${desc}`,
      describe: describePod,
      timeoutMs,
      signal: stop.signal,
    });
    return await Promise.race([ready, ended]);
  } catch (e) {
    throw await explainPodWaitFailure(kube, namespace, name, e);
  } finally {
    stop.abort();
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** A wait ended by PodEvidence's verdict, as PodStartError: what the evidence says, and the pod's last state. */
export function finalPodStartError(namespace: string, name: string, desc: string, f: FinalPodFailure, pod: V1Pod): PodStartError {
  return new PodStartError(`expected pod ${namespace}/${name} to be ${desc}, but ${f.what} (${f.message}): ${describePod(pod)}`, f.reason, pod, []);
}

/** How long a pod wait goes on its status alone before it also reads the pod's events (most pods are Ready by then; a failing sandbox takes longer than that to fail three times). */
export const EVIDENCE_AFTER_MS = 10_000;

/** A pod event as PodEvidence reads it. */
export function podEventSeen(ev: CoreV1Event): PodEventSeen {
  return {
    name: ev.metadata?.name ?? '',
    podUid: ev.involvedObject?.uid,
    type: ev.type,
    reason: ev.reason,
    message: ev.message,
    count: eventCount(ev),
  };
}

/**
 * PodEvidence (podFailures.ts: the one judgement) for the pods a wait follows, over ONE event
 * watch: pod `name`, or every pod of the namespace (a workload's pods, the hub's per-node pods).
 * The waits feed the pods they see (pod()); the events are watched from EVIDENCE_AFTER_MS after
 * the start (most pods are Ready by then), either order judged alike. A verdict reached on an
 * event goes to `final`, the event watch's own failure to `failed`. Stops with `signal`.
 */
export class PodEvidenceWatch {
  private readonly _pods = new Map<string, PodEvidence>();

  constructor(
    kube: KubeClients,
    namespace: string,
    name: string | undefined,
    signal: AbortSignal,
    on: { final(pod: string, f: FinalPodFailure): void; failed(e: unknown): void },
  ) {
    const timer = setTimeout(() => {
      watchPodEvents(kube, namespace, name, signal, (pod, ev, type) => {
        const f = this._of(pod).event(ev, type);
        if (f && !signal.aborted) on.final(pod, f);
      }).catch((e: unknown) => {
        if (!signal.aborted) on.failed(e);
      });
    }, EVIDENCE_AFTER_MS);
    signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  }

  /** A sighting of a pod (DELETED, or being deleted: forgotten); the verdict with what was seen so far. */
  pod(pod: V1Pod, type = 'MODIFIED'): FinalPodFailure | undefined {
    const name = pod.metadata?.name ?? '';
    if (type === 'DELETED' || pod.metadata?.deletionTimestamp) {
      this._pods.delete(name);
      return undefined;
    }
    return this._of(name).pod(pod);
  }

  private _of(name: string): PodEvidence {
    let e = this._pods.get(name);
    if (!e) this._pods.set(name, (e = new PodEvidence()));
    return e;
  }
}

/**
 * Watches the events about pod `name` (or every pod of the namespace) until `signal` aborts, each
 * one (listed first, then as they come) to `seen` with the pod it is about. The one watch of pod
 * events: PodEvidenceWatch and the kit's event waits (lib/catalog/kit/podWaits.ts) use it.
 */
export function watchPodEvents(
  kube: KubeClients,
  namespace: string,
  name: string | undefined,
  signal: AbortSignal,
  seen: (pod: string, ev: PodEventSeen, type: string) => void,
): Promise<never> {
  const fieldSelector = name ? `involvedObject.name=${name}` : 'involvedObject.kind=Pod';
  const take = (ev: CoreV1Event, type: string) => {
    const about = ev.involvedObject;
    if (about?.kind === 'Pod' && about.name && (!name || about.name === name)) seen(about.name, podEventSeen(ev), type);
    return undefined;
  };
  return watchUntil<CoreV1Event, never>({
    kube,
    path: `/api/v1/namespaces/${namespace}/events`,
    fieldSelector,
    list: () => listAll(q => kube.core.listNamespacedEvent({ namespace, fieldSelector, ...q })),
    onList: items => {
      for (const ev of items) take(ev, 'ADDED');
      return undefined;
    },
    check: take,
    what: `events of ${name ? `pod ${namespace}/${name}` : `the pods of ${namespace}`}`,
    describe: () => 'none',
    timeoutMs: 24 * 3600_000,
    signal,
  });
}

/**
 * A pod wait's failure as the caller should see it: a timeout with the pod's last warning events
 * (a sandbox that never started is the node's means failing: MeansError as its cause), a
 * fail-fast state with the events that explain it; anything else as it is.
 */
export async function explainPodWaitFailure(kube: KubeClients, namespace: string, name: string, e: unknown): Promise<unknown> {
  if (e instanceof WaitTimeoutError) {
    // A pod that waits without a fail-fast reason (a sandbox that keeps failing, a volume
    // that will not mount) is explained by its Warning events, not by its status.
    const warnings = (await podEvents(kube, namespace, name).catch(() => [])).filter(ev => ev.startsWith('Warning '));
    // A sandbox that never comes up is the node's means failing, not the pod's feature: the
    // timeout carries a MeansError as its cause, which lib/catalog/outcome.ts names.
    const text = `${e.message}; last warning events: ${warnings.slice(-2).join(' | ')}`;
    if (warnings.some(ev => ev.includes('FailedCreatePodSandBox')))
      return new WaitTimeoutError(text, {
        cause: new MeansError('sandbox', `the pod sandbox never started: ${warnings.filter(ev => ev.includes('FailedCreatePodSandBox')).slice(-1)[0]}`, {
          cause: e,
        }),
      });
    return warnings.length ? new WaitTimeoutError(text, { cause: e }) : e;
  }
  if (!(e instanceof PodStartError)) return e;
  const events = await podEvents(kube, namespace, name).catch(() => []);
  const wanted = events.filter(ev => ev.includes(e.reason) || /Failed|BackOff|Error/.test(ev));
  const text = wanted.length ? `${e.message}; events: ${wanted.slice(-3).join(' | ')}` : e.message;
  return new PodStartError(text, e.reason, e.pod, events);
}

/**
 * Waits until the pod of this uid is gone from the API (deleted, or replaced by another of its
 * name). On timeout, a WaitTimeoutError naming the last state seen (Terminating since when).
 */
export async function waitForPodGone(
  kube: KubeClients,
  namespace: string,
  name: string,
  uid: string | undefined,
  timeoutMs: number,
  opts: PodWaitOptions = {},
): Promise<void> {
  const fieldSelector = `metadata.name=${name}`;
  let last: V1Pod | undefined;
  const gone = (p: V1Pod | undefined) => !p || (uid !== undefined && p.metadata?.uid !== uid);
  await watchUntil<V1Pod, true>({
    kube,
    path: `/api/v1/namespaces/${namespace}/pods`,
    fieldSelector,
    list: () => listAll(q => kube.core.listNamespacedPod({ namespace, fieldSelector, ...q })),
    onList: items => (gone((last = items[0])) ? true : undefined),
    check: (p, type) => (type === 'DELETED' || gone(p) ? true : ((last = p), undefined)),
    what: `pod ${namespace}/${name}${uid ? ` (uid ${uid})` : ''} to be gone`,
    describe: () => describePod(last),
    timeoutMs,
    signal: opts.signal,
  });
}

/** What a Ready wait makes of one sighting of the pod: Ready (the pod), still waiting (undefined), or an error to fail with. */
export function readySighting(
  pod: V1Pod,
  type: string,
  namespace: string,
  name: string,
  desc = 'Ready',
  cond: (p: V1Pod) => boolean = isPodReady,
  failFast = true,
): V1Pod | undefined {
  // Deleted (by someone, or with its namespace): it will not become anything now.
  if (type === 'DELETED') throw new PodGoneError(`pod ${namespace}/${name} was deleted while waiting for it to be ${desc} (${describePod(pod)})`);
  if (cond(pod)) return pod;
  const reason = failFast ? failFastReason(pod) : undefined;
  if (reason) throw new PodStartError(`expected pod ${namespace}/${name} to be ${desc}, got ${reason} instead: ${describePod(pod)}`, reason, pod, []);
  return undefined;
}

/** A wait in a namespace that is gone or going is a wait for something that can no longer appear. */
async function namespaceCanHoldPods(kube: KubeClients, namespace: string, what: string): Promise<void> {
  let phase: string | undefined;
  try {
    phase = (await kube.core.readNamespace({ name: namespace })).status?.phase;
  } catch (e) {
    if (apiStatusCode(e) === 404) throw new PodGoneError(`${what} can never appear: namespace ${namespace} does not exist`);
    return; // not allowed to read namespaces, or a transport error: the wait itself will tell
  }
  if (phase === 'Terminating') throw new PodGoneError(`${what} can never appear: namespace ${namespace} is being deleted`);
}

/** The pod's events as "Reason: message" lines, oldest first. */
export async function podEvents(kube: KubeClients, namespace: string, name: string): Promise<string[]> {
  const list = await listAll(q => kube.core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.name=${name}`, ...q }));
  return list.items
    .sort((a, b) => eventLastSeen(a) - eventLastSeen(b))
    .map(ev => `${ev.type === 'Warning' ? 'Warning ' : ''}${ev.reason ?? ''}: ${ev.message ?? ''}`.trim());
}
