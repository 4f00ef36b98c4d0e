// An abortable pause: between retry attempts, and for the bounded polling loops of things that
// have no state to watch (network paths, stats samples). Never a wait for cluster state: those watch.

import { setTimeout as delay } from 'node:timers/promises';

/** Resolves after `ms`; rejects (AbortError) as soon as `signal` aborts, at once if it already has. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return delay(ms, undefined, signal ? { signal } : undefined);
}
