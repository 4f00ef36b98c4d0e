// Waits the storage and workload probes share: a pod that becomes Ready or fails for a reason an
// event names (FailedMount leaves a pod ContainerCreating for ever, so waiting for Ready alone
// would only end at the deadline), and copies of a rendered fixture pod created at probe time.

import type { CoreV1Event, KubernetesObject, V1Pod } from '@kubernetes/client-node';
import type { CheckContext } from '../catalog/types.ts';
import { createObject } from '../cluster/create.ts';
import { PodStartError, podEvents, waitTimeoutForPodReady } from '../cluster/podWait.ts';
import { watchUntil } from '../cluster/watch.ts';

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
  const fieldSelector = `involvedObject.name=${name}`;
  const ready = waitTimeoutForPodReady(ctx.kube, ns, name, timeoutMs, { signal: stop.signal })
    .then((pod): Settled => ({ kind: 'ready', pod }))
    .catch((e: unknown): Settled | never => {
      if (e instanceof PodStartError) return { kind: 'failed', error: e };
      throw e;
    });
  const event = watchUntil<CoreV1Event, CoreV1Event>({
    kube: ctx.kube,
    path: `/api/v1/namespaces/${ns}/events`,
    fieldSelector,
    list: () => ctx.kube.core.listNamespacedEvent({ namespace: ns, fieldSelector }),
    check: ev => (ev.involvedObject?.kind === 'Pod' && ev.involvedObject.name === name && reasons.includes(ev.reason ?? '') ? ev : undefined),
    what: `an event ${reasons.join('/')} for pod ${ns}/${name}`,
    describe: ev => (ev ? `${ev.reason}: ${ev.message}` : 'no event'),
    timeoutMs: timeoutMs + 1_000,
    signal: stop.signal,
  }).then(async (ev): Promise<Settled> => ({
    kind: 'event', reason: ev.reason ?? '', message: ev.message ?? '',
    events: await podEvents(ctx.kube, ns, name).catch(() => []),
  }));
  // The loser is aborted; its rejection ("interrupted") is expected and dropped.
  ready.catch(() => undefined);
  event.catch(() => undefined);
  try {
    return await Promise.race([ready, new Promise<Settled>((resolve, reject) => { event.then(resolve, e => { if (!stop.signal.aborted) reject(e); }); })]);
  } finally {
    stop.abort();
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

/** One line for evidence: how the pod settled. */
export function describeSettled(name: string, s: Settled): string {
  switch (s.kind) {
    case 'ready': return `pod ${name} is Ready on ${s.pod.spec?.nodeName}`;
    case 'failed': return `pod ${name} did not start: ${s.error.message}`;
    case 'event': return `pod ${name}: ${s.reason}: ${s.message}`;
  }
}

/**
 * Creates a copy of the pod of a declared, rendered fixture under a new name (run labels,
 * tolerations, placement and image mirror included), changed by `change`. For values only known
 * at probe time: another build's image tag, a server's pod IP.
 */
export async function createPodLike(ctx: CheckContext, fixtureId: string, name: string, change: (pod: V1Pod) => void): Promise<V1Pod> {
  const rendered = ctx.fixture(fixtureId);
  const base = rendered.objects.find((o: KubernetesObject) => o.kind === 'Pod') as V1Pod | undefined;
  if (!base) throw new Error(`fixture ${fixtureId} has no Pod to copy`);
  const pod = structuredClone(base);
  pod.metadata = { name, namespace: ctx.namespace, labels: { ...base.metadata?.labels, ...ctx.labels } };
  delete pod.status;
  change(pod);
  return createObject(ctx.kube, pod);
}
