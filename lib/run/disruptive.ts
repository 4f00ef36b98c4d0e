// Disruptive checks (Feature.needs 'disruptive-node': node.reboot, the memory-pressure eviction,
// graceful shutdown) all disrupt the one node --disruptive-node names. Run at once they would
// disrupt each other: a reboot in the middle of a memory-pressure episode, a shutdown under a
// reboot. They take turns, in the order the run starts them (the pool's priority order); every
// other check runs alongside as usual. A check that waits for its turn holds nothing else, and
// its own deadline (timeouts.check) starts when its turn does.

import type { CheckResult, Feature } from '../catalog/types.ts';
import { Limiter } from '../../util/limiter.ts';

export const isDisruptive = (f: Feature): boolean => f.needs?.includes('disruptive-node') ?? false;

/**
 * A runner that gives disruptive checks one turn at a time and runs the others at once. While
 * waiting for its turn a check rejects with the signal's reason when `signal` aborts.
 */
export function disruptiveTurns(signal: AbortSignal): (f: Feature, check: () => Promise<CheckResult>) => Promise<CheckResult> {
  const turn = new Limiter(1);
  return (f, check) => (isDisruptive(f) ? turn.run(check, signal) : check());
}
