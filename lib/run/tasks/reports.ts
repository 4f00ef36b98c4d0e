// The end of a run, after every task's teardown (cleanup included): the features that never got
// a verdict are marked, the reporters write, and the exit code follows from what was seen.

import { isFailing } from '../../catalog/outcome.ts';
import { notRunResult, stopReason } from '../checkFeature.ts';
import { emptyCounts, type RunEvents } from '../events.ts';
import type { RunState } from '../state.ts';
import type { TaskStatus } from '../taskRunner.ts';

export const EXIT_INTERRUPTED = 130;

export interface RunEnd {
  status: TaskStatus;
  started: number;
  cleanupFailed: boolean;
  cleanupHint: string;
  out(line: string): void;
}

export async function reportRun(run: RunState, events: RunEvents, end: RunEnd): Promise<number> {
  const { config } = run;
  // A signal during teardown (after the checks) still makes the run interrupted: never exit 0 over it.
  let taskStatus = end.status;
  if (taskStatus === 'passed' && run.abort.signal.aborted) taskStatus = 'interrupted';
  const done = new Set(run.results.map(r => r.id));
  const why =
    taskStatus === 'timedout'
      ? `the run hit its --timeout of ${Math.round((config.timeoutMs ?? 0) / 1000)}s`
      : taskStatus === 'interrupted'
        ? stopReason(run.abort.signal)
        : (run.errors[0] ?? 'the run stopped early');
  for (const f of run.features) if (!done.has(f.id)) run.results.push(notRunResult(f, why));
  const counts = emptyCounts();
  for (const r of run.results) counts[r.outcome]++;
  const failing = run.results.some(r => isFailing(r.outcome, config.strict)) || run.errors.length > 0;
  const status = taskStatus === 'passed' && failing ? 'failed' : taskStatus;
  await events.onEnd({ status, counts, results: run.results, durationMs: Date.now() - end.started, errors: run.errors });
  // A report that was not written is a lost result: never exit 0 (or 130) over it.
  if (events.lost.length) return 1;
  if (status === 'interrupted') {
    // 130 says "stopped cleanly"; a cleanup that failed is a failure a CI job must see.
    if (end.cleanupFailed) {
      end.out(`Interrupted, and the cleanup failed: objects of run ${run.runId} remain; run "${end.cleanupHint}"`);
      return 1;
    }
    return EXIT_INTERRUPTED;
  }
  // A signal after the teardown (while reporting): complete and clean, but still interrupted.
  if (status === 'passed' && run.abort.signal.aborted) return EXIT_INTERRUPTED;
  return status === 'passed' ? 0 : 1;
}
