// Reading a wincheck run from the outside, the same way for the in-process harness child
// (harness-child.ts) and the installed bin (processes.ts runWincheckBin): its console lines
// (marks on the timeline, each check's outcome) and its results.json (each check's span).

import { instanceId } from '../lib/run/instanceId.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The timeline mark a console line sets, if any (first occurrence wins, except lastCheck). */
export function markOf(line: string): string | undefined {
  if (line.startsWith('Created namespace')) return 'namespace';
  if (line.startsWith('Deploying')) return 'deploying';
  if (/^Pre-pulled|^Pre-pull stopped/.test(line)) return 'prepulled';
  if (/^\[\s*1\//.test(line)) return 'firstCheck';
  if (line.startsWith('[')) return 'lastCheck';
  if (line.startsWith('Deleting namespace')) return 'cleanup';
  return undefined;
}

/** Records `line`'s mark at `at` ms into the run. */
export function addMark(marks: Record<string, number>, line: string, at: number): void {
  const key = markOf(line);
  if (key && (key === 'lastCheck' || marks[key] === undefined)) marks[key] = Math.round(at);
}

/** Each check's outcome, from its console line "[ 3/76] net.w2l  supported  (1.2s)" (per-build instances "net.w2l [ltsc2019]" keep their build). */
export function outcomesOf(lines: string[]): Record<string, string> {
  const outcomes: Record<string, string> = {};
  for (const l of lines) {
    const m = /^\[\s*\d+\/\d+\] (\S+(?: \[[^\]\s]+\])?)\s+(\S+)/.exec(l);
    if (m) outcomes[m[1]] = m[2];
  }
  return outcomes;
}

/** The console lines of checks that ended as error or regressed (with their reasons). */
export function failuresOf(lines: string[]): string[] {
  return lines.filter(l => /^\[\s*\d+\/\d+\] \S+(?: \[[^\]\s]+\])?\s+(error|regressed)\b/.test(l));
}

export interface ResultsFile {
  run: { startedAt: string };
  // Schema 2: a per-build check has its build apart from the feature ID.
  summary: { durationMs: number; results: { id: string; build?: string; startedAt?: string; durationMs: number }[] };
}

export function readResults(reportDir: string): ResultsFile | undefined {
  try {
    return JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as ResultsFile;
  } catch {
    return undefined;
  }
}

/** Each check's [start, end] in ms from `wallStart` (epoch ms), from results.json (startedAt, durationMs). */
export function checkSpans(results: ResultsFile | undefined, wallStart: number): Record<string, [number, number]> | undefined {
  if (!results) return undefined;
  const spans: Record<string, [number, number]> = {};
  for (const r of results.summary.results) {
    if (!r.startedAt) continue;
    const start = Date.parse(r.startedAt) - wallStart;
    spans[r.build ? instanceId(r.id, r.build) : r.id] = [start, start + r.durationMs];
  }
  return spans;
}
