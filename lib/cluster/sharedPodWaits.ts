// Pod waits shared by many callers, so a run does not open a watch per check and pod:
// - SharedPodWaits: checks that share fixtures wait for the same pods at the same moment (the
//   networking checks, some forty of them, all wait for net-win and its peers as the run starts).
//   A wait already in flight for a pod is joined, each caller still ending on its own signal,
//   with waitTimeoutForPodReady's semantics (a namespace that is gone, fail-fast states, events
//   on timeout). Nothing is kept once a wait settles: a later wait looks at the pod anew.
// - PodReadyHub: Ready waits for many pods of one kind (the run's per-node HostProcess pods) over
//   ONE list and watch by label, instead of a list, a watch and a namespace read per pod: on a
//   100-node cluster that was 300 requests and 100 watch streams open at once. Each wait keeps
//   the semantics of waitTimeoutForPodReady (lib/cluster/podWait.ts): Ready resolves; a
//   fail-fast state, the pod's evidence (PodEvidence over one event watch for the namespace,
//   podWait.ts PodEvidenceWatch), a deletion or its own deadline rejects, explained the same way.
//   The watches run while someone waits.

import type { V1Pod } from '@kubernetes/client-node';
import { describePod } from './podState.ts';
import { explainPodWaitFailure, finalPodStartError, PodEvidenceWatch, readySighting } from './podWait.ts';
import type { FinalPodFailure } from './podFailures.ts';
import { untilSettled } from './resilience.ts';
import type { KubeClients } from './types.ts';
import { WaitTimeoutError, watchUntil } from './watch.ts';
import { listAll } from './list.ts';

interface Waiter {
  name: string;
  settle(err: unknown, pod?: V1Pod): void;
}

export class PodReadyHub {
  private readonly _waiters = new Map<string, Set<Waiter>>();
  private readonly _last = new Map<string, V1Pod>();
  private _watch?: AbortController;
  private _evidence?: PodEvidenceWatch;

  constructor(
    private readonly _kube: KubeClients,
    readonly namespace: string,
    readonly labelSelector: string,
    private readonly _signal?: AbortSignal,
  ) {}

  /** How many watches this hub has opened (one while any wait is pending). */
  watchesOpened = 0;

  waitReady(name: string, timeoutMs: number, signal?: AbortSignal): Promise<V1Pod> {
    return new Promise<V1Pod>((resolve, reject) => {
      const abort = signal ?? this._signal;
      const done = (err: unknown, pod?: V1Pod) => {
        clearTimeout(timer);
        abort?.removeEventListener('abort', onAbort);
        const set = this._waiters.get(name);
        set?.delete(w);
        if (set && !set.size) this._waiters.delete(name);
        if (!this._waiters.size) this._stopWatch();
        if (err) void explainPodWaitFailure(this._kube, this.namespace, name, err).then(reject);
        else resolve(pod!);
      };
      const w: Waiter = { name, settle: done };
      const timer = setTimeout(
        () =>
          w.settle(
            new WaitTimeoutError(
              `timed out after ${Math.round(timeoutMs / 1000)}s waiting for pod ${this.namespace}/${name} to be Ready; last state seen: ${describePod(this._last.get(name))}`,
            ),
          ),
        timeoutMs,
      );
      const onAbort = () => {
        clearTimeout(timer);
        this._drop(w);
        reject(new Error(`interrupted while waiting for pod ${this.namespace}/${name} to be Ready`));
      };
      if (abort?.aborted) return onAbort();
      abort?.addEventListener('abort', onAbort, { once: true });
      let set = this._waiters.get(name);
      if (!set) this._waiters.set(name, (set = new Set()));
      set.add(w);
      const seen = this._last.get(name);
      if (seen && this._watch) this._sighting(seen, 'MODIFIED');
      this._startWatch();
    });
  }

  private _drop(w: Waiter): void {
    const set = this._waiters.get(w.name);
    set?.delete(w);
    if (set && !set.size) this._waiters.delete(w.name);
    if (!this._waiters.size) this._stopWatch();
  }

  private _sighting(pod: V1Pod, type: string): void {
    const name = pod.metadata?.name ?? '';
    if (type === 'DELETED') this._last.delete(name);
    else this._last.set(name, pod);
    const set = this._waiters.get(name);
    if (!set) return;
    let ready: V1Pod | undefined;
    try {
      ready = readySighting(pod, type, this.namespace, name);
    } catch (e) {
      for (const w of [...set]) w.settle(e);
      return;
    }
    if (ready) for (const w of [...set]) w.settle(undefined, ready);
    else this._final(name, this._evidence?.pod(pod, type));
  }

  /** PodEvidence's verdict on pod `name` ends its waits, as waitTimeoutForPodReady's would end. */
  private _final(name: string, f: FinalPodFailure | undefined): void {
    const pod = this._last.get(name);
    if (!f || !pod) return;
    const e = finalPodStartError(this.namespace, name, 'Ready', f, pod);
    for (const w of [...(this._waiters.get(name) ?? [])]) w.settle(e);
  }

  private _startWatch(): void {
    if (this._watch) return;
    const stop = new AbortController();
    this._watch = stop;
    this.watchesOpened++;
    const signal = this._signal ? AbortSignal.any([stop.signal, this._signal]) : stop.signal;
    const failed = (e: unknown) => {
      if (stop.signal.aborted) return;
      // A watch itself failed (not a pod): every wait fails with it.
      this._watch = undefined;
      stop.abort();
      for (const set of [...this._waiters.values()]) for (const w of [...set]) w.settle(e);
    };
    this._evidence = new PodEvidenceWatch(this._kube, this.namespace, undefined, signal, { final: (name, f) => this._final(name, f), failed });
    watchUntil<V1Pod, never>({
      kube: this._kube,
      path: `/api/v1/namespaces/${this.namespace}/pods`,
      labelSelector: this.labelSelector,
      list: () => listAll(q => this._kube.core.listNamespacedPod({ namespace: this.namespace, labelSelector: this.labelSelector, ...q })),
      onList: items => {
        const listed = new Set(items.map(p => p.metadata?.name ?? ''));
        // A waited-for pod that the list no longer holds was deleted while the watch was down.
        for (const [name, pod] of this._last) if (!listed.has(name)) this._sighting(pod, 'DELETED');
        for (const p of items) this._sighting(p, 'MODIFIED');
        return undefined;
      },
      check: (p, type) => {
        this._sighting(p, type);
        return undefined;
      },
      what: `pods ${this.labelSelector} to be Ready`,
      describe: () => [...this._waiters.keys()].map(n => `${n}: ${describePod(this._last.get(n))}`).join(' | ') || 'none waited for',
      timeoutMs: 24 * 3600_000,
      signal,
    }).catch(failed);
  }

  private _stopWatch(): void {
    this._watch?.abort();
    this._watch = undefined;
    this._evidence = undefined;
    this._last.clear();
  }
}

export type PodWait = (namespace: string, name: string, timeoutMs: number) => Promise<V1Pod>;

export class SharedPodWaits {
  private readonly _inFlight = new Map<string, Promise<V1Pod>>();

  /** `start` runs one wait (on the run's signal, not a caller's: others may still be waiting). */
  constructor(private readonly _start: PodWait) {}

  /** How many pods are being waited for (tests). */
  get inFlight(): number {
    return this._inFlight.size;
  }

  wait(namespace: string, name: string, timeoutMs: number, signal: AbortSignal): Promise<V1Pod> {
    const key = `${namespace}/${name}/${timeoutMs}`;
    let p = this._inFlight.get(key);
    if (!p) {
      const started = this._start(namespace, name, timeoutMs);
      p = started.finally(() => this._inFlight.delete(key));
      p.catch(() => undefined);
      this._inFlight.set(key, p);
    }
    return untilSettled(p, signal, () => undefined);
  }
}
