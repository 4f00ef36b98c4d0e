// The one machine-readable line a benchmark prints and bench/run.ts reads. Kept apart from
// support.ts so that `bench/run.ts --list` loads neither the sim nor the harness.

export const RESULT_PREFIX = 'BENCH_RESULT ';

export interface BenchResult {
  name: string;
  /** What the ratio is, e.g. "whole / sum-of-singles". */
  ratioOf: string;
  ratio: number;
  /** The ratio must stay below this. */
  threshold: number;
  ok: boolean;
  /** Named medians, in ms (shown in the table). */
  measurements: Record<string, number>;
  repeats: number;
  /** Wall time of the whole benchmark process, ms. */
  wallMs: number;
  notes?: string[];
}

/** The line bench/harness-child.ts prints for bench/processes.ts (the harness in its own process). */
export const CHILD_PREFIX = 'CHILD_RESULT ';

export interface ChildRun {
  features: string[];
  wallMs: number;
  code: number;
  outcomes: Record<string, string>;
  tail: string[];
  /** When (ms into the run) the console said: namespace created, deploying, pre-pull done, first and last check done, cleanup started. */
  marks?: Record<string, number>;
  /** The console lines of checks that ended as error or regressed (with their reasons). */
  failures?: string[];
  /** Each check's [start, end], ms into the run (from its results.json). */
  checks?: Record<string, [number, number]>;
}
export interface ChildResult {
  runs: ChildRun[];
  maxRssKB: number;
}
