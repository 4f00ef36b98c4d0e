// Bounds what costs, not how many tasks are in flight: a task that waits holds no slot, so
// waiting never keeps work from running. Slots are taken only around the costly step itself and
// given back at once. Waiters are served by rank (lower first), first come, first served within
// a rank; a waiter whose signal aborts leaves the queue. (The run bounds exec sessions and
// commands per node with it, ranked by the critical path: lib/run/priority.ts.)

export class Limiter {
  private _active = 0;
  private readonly _queue: { rank: number; grant: () => void; cancel: (e: unknown) => void }[] = [];

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new Error(`limiter: limit must be at least 1, got ${limit}`);
  }

  /** How many holders are inside right now (for tests and the progress line). */
  get active(): number {
    return this._active;
  }
  get waiting(): number {
    return this._queue.length;
  }

  /** Runs `fn` holding one slot; while all are taken, waits behind waiters of a lower or equal rank. */
  async run<T>(fn: () => Promise<T>, signal?: AbortSignal, rank = Number.MAX_SAFE_INTEGER): Promise<T> {
    await this._acquire(signal, rank);
    try {
      return await fn();
    } finally {
      this._release();
    }
  }

  private _acquire(signal: AbortSignal | undefined, rank: number): Promise<void> {
    signal?.throwIfAborted();
    if (this._active < this.limit) {
      this._active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const entry = {
        rank,
        grant: () => {
          signal?.removeEventListener('abort', onAbort);
          this._active++;
          resolve();
        },
        cancel: (e: unknown) => reject(e),
      };
      const onAbort = () => {
        const i = this._queue.indexOf(entry);
        if (i >= 0) this._queue.splice(i, 1);
        entry.cancel(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const behind = this._queue.findIndex(e => e.rank > rank);
      this._queue.splice(behind < 0 ? this._queue.length : behind, 0, entry);
    });
  }

  private _release(): void {
    this._active--;
    this._queue.shift()?.grant();
  }
}

/** One limiter per key (a node name), made on first use. */
export class KeyedLimiter {
  private readonly _byKey = new Map<string, Limiter>();
  constructor(readonly limit: number) {}

  for(key: string): Limiter {
    let l = this._byKey.get(key);
    if (!l) this._byKey.set(key, (l = new Limiter(this.limit)));
    return l;
  }
}
