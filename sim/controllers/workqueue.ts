// A deduplicating work queue, like client-go's: store listeners only add keys, and the
// work runs later, one key at a time, so controllers never write from inside a store
// callback (which would reorder the events other watchers see).

import { StoreError } from '../api/store.ts';

const MAX_RETRIES = 8;

/** Gone objects and terminating namespaces: retrying cannot help, the next event will. */
const isFinal = (err: unknown) => err instanceof StoreError && (err.code === 404 || err.code === 403);

export class WorkQueue {
  private pending = new Set<string>();
  private retries = new Map<string, number>();
  private timers = new Map<string, { timer: NodeJS.Timeout; due: number }>();
  private draining: Promise<void> | undefined;
  private scheduled = false;
  private stopped = false;

  constructor(
    private readonly name: string,
    private readonly handle: (key: string) => void | Promise<void>,
  ) {}

  add(key: string): void {
    if (this.stopped) return;
    this.pending.add(key);
    if (!this.scheduled && !this.draining) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.drain();
      });
    }
  }

  /**
   * Adds the key after a delay (resync, minReadySeconds, retry). One timer per key, the
   * earliest asked for; timers never keep the process alive.
   */
  addAfter(key: string, ms: number): void {
    if (this.stopped) return;
    const due = Date.now() + ms;
    const pending = this.timers.get(key);
    if (pending && pending.due <= due) return;
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      this.add(key);
    }, ms);
    timer.unref();
    this.timers.set(key, { timer, due });
  }

  private drain(): void {
    if (this.draining || this.stopped) return;
    this.draining = (async () => {
      while (this.pending.size && !this.stopped) {
        const key = this.pending.values().next().value as string;
        this.pending.delete(key);
        try {
          await this.handle(key);
          this.retries.delete(key);
        } catch (err) {
          if (isFinal(err)) {
            this.retries.delete(key);
            continue;
          }
          const n = (this.retries.get(key) ?? 0) + 1;
          this.retries.set(key, n);
          if (n <= MAX_RETRIES) this.addAfter(key, Math.min(5 * 2 ** n, 2000));
          else console.error(`sim: ${this.name} gave up on ${key}:`, err);
        }
      }
    })().finally(() => {
      this.draining = undefined;
      if (this.pending.size && !this.stopped) this.add(this.pending.values().next().value as string);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t.timer);
    this.timers.clear();
    this.pending.clear();
    await this.draining;
  }
}

export const keyOf = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;
export function splitKey(key: string): [string | undefined, string] {
  const i = key.indexOf('/');
  const ns = key.slice(0, i);
  return [ns === '' ? undefined : ns, key.slice(i + 1)];
}
