// Checks that share fixtures wait for the same pods at the same moment: the networking checks,
// some forty of them, all wait for net-win and its peers as the run starts. One watch per pod
// then, not one per check and pod (each is a namespace read, a list and a watch connection,
// hundreds at the busiest moment of the run): a wait already in flight for a pod is joined,
// each caller still ending on its own signal, and with waitTimeoutForPodReady's semantics
// (a namespace that is gone, fail-fast states, events on timeout). Nothing is kept once a wait
// settles: a later wait looks at the pod anew. (The per-node HostProcess pods, waited for by
// label, share one watch in lib/cluster/podReadyHub.ts.)

import type { V1Pod } from '@kubernetes/client-node';
import { untilSettled } from '../cluster/resilience.ts';

export type PodWait = (namespace: string, name: string, timeoutMs: number) => Promise<V1Pod>;

export class SharedPodWaits {
  private readonly _inFlight = new Map<string, Promise<V1Pod>>();

  /** `start` runs one wait (on the run's signal, not a caller's: others may still be waiting). */
  constructor(private readonly _start: PodWait) {}

  /** How many pods are being waited for (tests). */
  get inFlight(): number { return this._inFlight.size; }

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
