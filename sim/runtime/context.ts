// What every part of the runtime shares: the store, the profile, the network twin,
// the interpreter, timers (all cleared on stop) and the profile's limitation/break
// switches, asked per pod OS (Windows limitations never apply to Linux pods).

import type { Store } from '../api/store.ts';
import type { NetworkTwin } from '../network/types.ts';
import type { BreakKey, Limitations, Profile } from '../profiles/types.ts';
import { profileForNode } from '../profiles/load.ts';
import type { RunCommand } from './shell/types.ts';
import { runCommand as interpreter } from './shell/index.ts';
import type { MemFS } from './fs.ts';

export interface RuntimeOptions {
  /** Crash-loop back-off: first delay, doubled per restart up to the cap (kubelet: 10s, 5m). */
  crashBackoffBaseMs?: number;
  crashBackoffMaxMs?: number;
  /** Image pull back-off, same shape (kubelet: 10s, 5m). */
  pullBackoffBaseMs?: number;
  /** Retry period of failed volume mounts / sandbox creation. */
  retryMs?: number;
  /** Probe periods are multiplied by this (1 = as written in the pod spec). */
  probePeriodScale?: number;
  /** The command interpreter; defaults to ./shell/index.ts. */
  runCommand?: RunCommand;
  /** The API server as an in-cluster process on this machine reaches it (hostProcess.ts); unset: no such process can run. */
  apiServer?: InClusterApi;
}

export interface InClusterApi {
  host: string;
  port: number;
  caPem: string;
  /** A token the API server accepts for the ServiceAccount (what the projected token volume holds). */
  serviceAccountToken(namespace: string, name: string): string;
}

export class RuntimeContext {
  readonly pvStore = new Map<string, MemFS>();
  private timers = new Set<NodeJS.Timeout>();
  private aborts = new Set<AbortController>();
  private sleepers = new Set<() => void>();
  stopped = false;

  constructor(
    readonly store: Store,
    readonly profile: Profile,
    readonly network: NetworkTwin,
    readonly opts: RuntimeOptions = {},
  ) {}

  get crashBase(): number {
    return this.opts.crashBackoffBaseMs ?? 2_000;
  }
  get crashMax(): number {
    return this.opts.crashBackoffMaxMs ?? 300_000;
  }
  get pullBase(): number {
    return this.opts.pullBackoffBaseMs ?? 2_000;
  }
  get retryMs(): number {
    return this.opts.retryMs ?? 2_000;
  }

  /**
   * This context as one node's kubelet sees it: the profile carries the node's own breaks and
   * lifted limitations (profileForNode). Shares everything else (timers, stop) with this one.
   */
  forNode(node: string): RuntimeContext {
    const profile = profileForNode(this.profile, node);
    return profile === this.profile ? this : (Object.create(this, { profile: { value: profile } }) as RuntimeContext);
  }

  /** A documented Windows limitation holds (true unless the profile lifts it); never for Linux pods. */
  limited(key: keyof Limitations, windows: boolean): boolean {
    return windows && this.profile.limitations?.[key] !== false;
  }

  /** A supported behaviour broken on purpose; the runtime's breaks apply to Windows pods only. */
  broken(key: BreakKey, windows = true): boolean {
    return windows && (this.profile.breaks?.includes(key) ?? false);
  }

  /** The interpreter (static import: a dynamic one would load a second copy of FsError/NetError under tsx). */
  runCommand(): Promise<RunCommand> {
    return Promise.resolve(this.opts.runCommand ?? interpreter);
  }

  /** A timer that stop() clears. */
  setTimer(fn: () => void, ms: number): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
    return t;
  }
  clearTimer(t: NodeJS.Timeout | undefined): void {
    if (t) {
      clearTimeout(t);
      this.timers.delete(t);
    }
  }

  /** Resolves true after ms, false when aborted (or the runtime stops) first. */
  sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
    return new Promise(resolve => {
      if (signal?.aborted || this.stopped) return resolve(false);
      const onAbort = () => {
        this.clearTimer(t);
        this.sleepers.delete(onAbort);
        resolve(false);
      };
      const t = this.setTimer(() => {
        signal?.removeEventListener('abort', onAbort);
        this.sleepers.delete(onAbort);
        resolve(true);
      }, ms);
      this.sleepers.add(onAbort);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** An AbortController that stop() aborts. */
  controller(): AbortController {
    const c = new AbortController();
    this.aborts.add(c);
    c.signal.addEventListener('abort', () => this.aborts.delete(c), { once: true });
    return c;
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const c of [...this.aborts]) c.abort();
    for (const s of [...this.sleepers]) s();
  }
}
