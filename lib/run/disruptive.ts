// Disruptive checks (Feature.needs 'disruptive-node': node.reboot, the memory-pressure eviction,
// graceful shutdown) all disrupt the one node --disruptive-node names. Run at once they would
// disrupt each other: a reboot in the middle of a memory-pressure episode, a shutdown under a
// reboot. And they disrupt every other check with pods or a node-access pod on that node. So they
// begin once every routine check has ended, then take turns, in the order the run starts them
// (the pool's priority order). A check that waits for its turn holds nothing else, and its own
// deadline (timeouts.check) starts when its turn does.

import type { CheckResult, Feature } from '../catalog/types.ts';
import { Limiter } from '../../util/limiter.ts';

export const isDisruptive = (f: Feature): boolean => f.needs?.includes('disruptive-node') ?? false;

/**
 * A runner that runs routine checks at once and gives disruptive checks one turn at a time once
 * `routineEnded` has resolved (every routine check's result). While waiting a disruptive check
 * rejects with the signal's reason when `signal` aborts.
 */
export function disruptiveTurns(
  signal: AbortSignal,
  routineEnded: () => Promise<unknown>,
): (f: Feature, check: () => Promise<CheckResult>) => Promise<CheckResult> {
  const turn = new Limiter(1);
  return async (f, check) => {
    if (!isDisruptive(f)) return check();
    await untilAborted(routineEnded(), signal);
    return turn.run(check, signal);
  };
}

/** `p`, or a rejection with the signal's reason as soon as it aborts. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
