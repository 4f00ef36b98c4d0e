// The pre-pull phase (as upstream e2e's --prepull-images): before any fixture is created, one pod
// per Windows image and node pulls the image, under its own deadline (default 30 min), printing
// what it still waits for (image, node, time so far). servercore and IIS are gigabytes: pulled
// first, the fixtures' pods start from images already present, so their pod-start deadline counts
// from the image being there. Pods carry the run label and are deleted together when the phase ends.

import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { apiErrorMessage } from '../cluster/apiError.ts';
import { WaitTimeoutError, watchUntil } from '../cluster/watch.ts';
import { schedulableWindowsNodes } from '../discovery/nodes.ts';
import type { NodeInfo } from '../discovery/types.ts';
import { imagesOf } from '../fixtures/workloadPods.ts';
import { canonicalImage } from '../fixtures/images.ts';
import type { RenderedFixture } from '../fixtures/types.ts';
import { FIXTURE_LABEL, RUN_LABEL } from '../labels.ts';
import type { KubeClients } from '../cluster/types.ts';
import type { Redactor } from '../fixtures/secrets.ts';
import { perNodeName } from '../transports/hostProcess.ts';
import { listAll } from '../cluster/list.ts';

export interface PrepullOptions {
  kube: KubeClients;
  runId: string;
  /** The run's namespace and labels: the pull pods carry them. */
  namespace: string;
  labels: Record<string, string>;
  /** The phase's deadline (timeouts.prepull), and how often it says what it still waits for. */
  deadlineMs: number;
  progressMs: number;
  redactor: Redactor;
  signal: AbortSignal;
  log(line: string): void;
}

export const PREPULL_FIXTURE = 'prepull';

export interface PullTarget {
  image: string;
  node: string;
  /** The node already reports the image (status.images): no pull pod for it. */
  present?: boolean;
}

/** Waiting reasons that mean the image is still being fetched (or the pod not yet started). */
const PULLING = new Set(['ContainerCreating', 'PodInitializing']);
const PULL_FAILED = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull']);

/**
 * Windows images of the rendered fixtures, each on the nodes its pods may run on; `present` where
 * the node already reports the image in status.images (the sandbox image on any node that ran a
 * pod, images a provider pre-caches), which needs no pull pod.
 */
export function pullTargets(rendered: RenderedFixture[], nodes: NodeInfo[]): PullTarget[] {
  const windows = schedulableWindowsNodes(nodes);
  const onNode = new Map(windows.map(n => [n.name, new Set((n.images ?? []).map(canonicalImage))]));
  const seen = new Map<string, PullTarget>();
  for (const r of rendered) {
    if (r.spec.os !== 'windows') continue;
    const on = r.node
      ? windows.filter(n => n.name === r.node)
      : r.spec.pin === 'none' || r.spec.everyBuild || !r.windowsBuild
        ? windows
        : windows.filter(n => n.windowsBuild === r.windowsBuild);
    for (const image of imagesOf(r.objects))
      for (const n of on) seen.set(`${image}|${n.name}`, { image, node: n.name, ...(onNode.get(n.name)?.has(canonicalImage(image)) ? { present: true } : {}) });
  }
  return [...seen.values()];
}

/** Where one pull stands, from its pod: present, failed (with the kubelet's words) or pulling. */
export function pullState(pod: V1Pod | undefined): { state: 'present' } | { state: 'failed'; message: string } | { state: 'pulling' } {
  const c = pod?.status?.containerStatuses?.[0];
  if (!c) return pod?.status?.phase === 'Failed' ? { state: 'failed', message: pod.status.message ?? pod.status.reason ?? 'pod failed' } : { state: 'pulling' };
  if (c.state?.running || c.state?.terminated || c.imageID) return { state: 'present' };
  const w = c.state?.waiting;
  if (w?.reason && PULL_FAILED.has(w.reason)) return { state: 'failed', message: `${w.reason}: ${w.message ?? ''}`.trim() };
  // Any other waiting reason (CreateContainerError, CrashLoopBackOff...) comes after the pull.
  if (w?.reason && !PULLING.has(w.reason)) return { state: 'present' };
  return { state: 'pulling' };
}

/** The first few items, and how many more (progress lines stay readable on 100-node clusters). */
function listSome(items: string[], n = 6): string {
  return items.length <= n ? items.join(', ') : `${items.slice(0, n).join(', ')} and ${items.length - n} more`;
}

export function formatElapsed(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

function pullPod(o: Pick<PrepullOptions, 'namespace' | 'labels'>, t: PullTarget, index: number): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: perNodeName(`prepull-${index}`, t.node), namespace: o.namespace, labels: { ...o.labels, [FIXTURE_LABEL]: PREPULL_FIXTURE } },
    spec: {
      nodeName: t.node,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 0,
      // Bound to the node by name: only NoExecute taints matter, and this pod tolerates them all.
      tolerations: [{ operator: 'Exists' }],
      containers: [{ name: 'pull', image: t.image, imagePullPolicy: 'IfNotPresent' }],
    },
  };
}

/** Pulls every target, printing progress; returns the pulls that failed or did not finish in time. */
export async function prepullImages(o: PrepullOptions, all: PullTarget[]): Promise<{ failed: string[]; unfinished: string[] }> {
  const { kube, namespace, redactor } = o;
  const deadline = o.deadlineMs;
  const present = all.filter(t => t.present);
  if (present.length)
    o.log(
      `Pre-pull: ${present.length} of ${all.length} image(s) already on their node(s) (the nodes' status.images): ${listSome([...new Set(present.map(t => t.image))])}; no pull pod for them.`,
    );
  const targets = all.filter(t => !t.present);
  if (!targets.length) return { failed: [], unfinished: [] };
  const started = Date.now();
  const byPod = new Map(targets.map((t, i) => [pullPod(o, t, i).metadata!.name!, { t, i }]));
  const done = new Map<string, { state: 'present' | 'failed'; message?: string }>();
  const nodes = new Set(targets.map(t => t.node));
  o.log(`Pre-pulling ${new Set(targets.map(t => t.image)).size} Windows image(s) on ${nodes.size} node(s) (deadline ${formatElapsed(deadline)}).`);
  const labelSelector = `${RUN_LABEL}=${o.runId},${FIXTURE_LABEL}=${PREPULL_FIXTURE}`;
  const remove = (name: string) => kube.core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 }).catch(() => undefined);
  const waiting = () => [...byPod].filter(([name]) => !done.has(name)).map(([, v]) => v.t);
  const progress = setInterval(() => {
    const left = waiting();
    o.log(
      `Pre-pull: ${targets.length - left.length}/${targets.length} present after ${formatElapsed(Date.now() - started)}; waiting for ${listSome(left.map(t => `${t.image} on ${t.node}`))}`,
    );
  }, o.progressMs);
  const allDone = (): true | undefined => (done.size === byPod.size ? true : undefined);
  // One line per image once it is on every node it was pulled on (not one per image and node:
  // 9 images on 50 nodes were 450 lines); failures are told one by one.
  const pulledOn = new Map<string, string[]>();
  const imagePresent = (t: PullTarget) => {
    const on = [...(pulledOn.get(t.image) ?? []), t.node];
    pulledOn.set(t.image, on);
    if (on.length < targets.filter(x => x.image === t.image).length) return;
    const where = on.length === 1 ? on[0] : `${on.length} node(s) (${listSome(on)})`;
    o.log(`Pre-pull: ${t.image} present on ${where} after ${formatElapsed(Date.now() - started)}.`);
  };
  const settle = (pod: V1Pod): void => {
    const name = pod.metadata?.name ?? '';
    const entry = byPod.get(name);
    if (!entry || done.has(name)) return;
    const s = pullState(pod);
    if (s.state !== 'pulling') {
      done.set(name, s.state === 'failed' ? { state: 'failed', message: s.message } : { state: 'present' });
      if (s.state === 'failed')
        o.log(`Pre-pull: ${entry.t.image} on ${entry.t.node} failed after ${formatElapsed(Date.now() - started)}: ${redactor.redact(s.message)}`);
      else imagePresent(entry.t);
    }
  };
  try {
    await Promise.all(
      [...byPod].map(([name, { t, i }]) =>
        kube.core.createNamespacedPod({ namespace, body: pullPod(o, t, i) }).catch(e => {
          done.set(name, { state: 'failed', message: apiErrorMessage(e) });
          o.log(`Pre-pull: could not create the pull pod for ${t.image} on ${t.node}: ${redactor.redact(apiErrorMessage(e))}`);
        }),
      ),
    );
    if (done.size < byPod.size) {
      // A pod sandbox that cannot start (the node's pause image, its network) leaves the pod
      // ContainerCreating for good: only its FailedCreatePodSandBox event says so. Two watches,
      // pods and events; the first to see every pull settled ends both.
      const stop = new AbortController();
      const signal = AbortSignal.any([o.signal, stop.signal]);
      const timeoutMs = Math.max(deadline - (Date.now() - started), 1);
      const pods = watchUntil<V1Pod, true>({
        kube,
        path: `/api/v1/namespaces/${namespace}/pods`,
        labelSelector,
        list: () => listAll(q => kube.core.listNamespacedPod({ namespace, labelSelector, ...q })),
        onList: items => {
          for (const p of items) settle(p);
          return allDone();
        },
        check: p => {
          settle(p);
          return allDone();
        },
        what: 'the pre-pull pods to have their images',
        describe: () =>
          waiting()
            .map(t => `${t.image} on ${t.node}`)
            .join(', '),
        timeoutMs,
        signal,
      });
      const sandboxes = watchUntil<CoreV1Event, true>({
        kube,
        path: `/api/v1/namespaces/${namespace}/events`,
        list: () => listAll(q => kube.core.listNamespacedEvent({ namespace, ...q })),
        check: ev => {
          const name = ev.involvedObject?.name ?? '';
          const entry = byPod.get(name);
          if (entry && !done.has(name) && ev.reason === 'FailedCreatePodSandBox') {
            done.set(name, { state: 'failed', message: `FailedCreatePodSandBox: ${ev.message ?? ''}` });
            o.log(`Pre-pull: ${entry.t.image} on ${entry.t.node} failed: the pod sandbox could not start: ${redactor.redact(ev.message ?? '')}`);
            void remove(name);
          }
          return allDone();
        },
        what: 'sandbox failures of the pre-pull pods',
        describe: () => 'none',
        timeoutMs,
        signal,
      });
      pods.catch(() => undefined);
      sandboxes.catch(() => undefined);
      try {
        await Promise.race([pods, sandboxes]);
      } catch (e) {
        if (!allDone()) throw e;
      } finally {
        stop.abort();
      }
    }
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
  } finally {
    clearInterval(progress);
    // Every pull pod in one request once the phase ends (one delete per image and node was a
    // request per node: 100 on 100 nodes); whatever still pulls is stopped with them. One by one
    // only where deletecollection is refused; the namespace's deletion would remove them anyway.
    try {
      await kube.core.deleteCollectionNamespacedPod({ namespace, labelSelector, gracePeriodSeconds: 0 });
    } catch {
      await Promise.all([...byPod.keys()].map(remove));
    }
  }
  const failed = [...done].filter(([, d]) => d.state === 'failed').map(([n, d]) => `${byPod.get(n)!.t.image} on ${byPod.get(n)!.t.node}: ${d.message}`);
  const unfinished = waiting().map(t => `${t.image} on ${t.node}`);
  if (unfinished.length)
    o.log(
      `Pre-pull stopped at its deadline of ${formatElapsed(deadline)} with ${unfinished.length} pull(s) still running: ${listSome(unfinished)}; their checks wait with their own pod-start deadline.`,
    );
  else o.log(`Pre-pulled ${targets.length - failed.length}/${targets.length} image(s) in ${formatElapsed(Date.now() - started)}.`);
  return { failed, unfinished };
}
