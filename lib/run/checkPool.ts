// Starts checks `limit` at a time, in catalog order, ahead of mocha: fixtures are already up and
// most checks wait on the network (steady-state polls, rollouts), so running them one by one
// would make a full run as long as the sum of its checks. The run starts them all at once and
// bounds what costs instead (util/limiter.ts). Mocha's tests await their feature's result in
// order, so reports keep the catalog order; `hooks` tell the console as checks begin and end.

import type { CheckResult, Feature } from '../catalog/types.ts';

export interface PoolHooks {
  onBegin?(f: Feature): void;
  /** `done`: checks finished so far, this one included. */
  onEnd?(r: CheckResult, done: number): void;
}

export class CheckPool {
  private readonly _results = new Map<string, Promise<CheckResult>>();
  private readonly _resolvers = new Map<string, (r: CheckResult) => void>();
  private _next = 0;
  private _running = 0;
  private _done = 0;

  constructor(
    private readonly _features: Feature[],
    private readonly _limit: number,
    private readonly _check: (f: Feature) => Promise<CheckResult>,
    /** Result for a feature the pool will not start (run interrupted). */
    private readonly _skipped: (f: Feature) => CheckResult,
    private readonly _signal: AbortSignal,
    private readonly _hooks: PoolHooks = {},
  ) {
    for (const f of _features) this._results.set(f.id, new Promise(resolve => this._resolvers.set(f.id, resolve)));
  }

  start(): void {
    while (this._running < Math.max(1, this._limit) && this._next < this._features.length) this._startNext();
  }

  result(f: Feature): Promise<CheckResult> {
    const r = this._results.get(f.id);
    if (!r) throw new Error(`feature ${f.id} is not part of this run`);
    return r;
  }

  private _startNext(): void {
    const f = this._features[this._next++];
    const resolve = this._resolvers.get(f.id)!;
    if (this._signal.aborted) {
      resolve(this._skipped(f));
      this.start();
      return;
    }
    this._running++;
    this._hooks.onBegin?.(f);
    // checkFeature turns probe errors into outcome "error"; this catch is for a crash of its own.
    this._check(f)
      .catch((e: unknown): CheckResult => ({ ...this._skipped(f), reason: `the check crashed: ${String(e)}` }))
      .then(r => {
        this._hooks.onEnd?.(r, ++this._done);
        resolve(r);
        this._running--;
        this.start();
      });
  }
}
