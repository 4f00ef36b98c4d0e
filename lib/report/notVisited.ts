// The Windows nodes node-level checks left out, as the reports name them.

import type { RunInfo } from '../run/events.ts';

/** "win-1 (NotReady), win-2 (cordoned ...)". */
export function notVisitedText(run: RunInfo): string {
  return (run.notVisited ?? []).map(n => `${n.node} (${n.why})`).join(', ');
}
