// results.json read back (report merge, run --rerun-failed): checked for shape and for a schema
// this wincheck can read, with errors that name the file.

import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.ts';
import { RESULTS_SCHEMA_VERSION, WINCHECK_VERSION } from '../facts/wincheck.ts';
import type { RunInfo, RunSummary } from '../run/events.ts';
import { splitInstanceId } from './buildTable.ts';
import { fromStored, type StoredResult } from './json.ts';

export interface LoadedRun {
  file: string;
  schemaVersion: string;
  wincheckVersion: string;
  run: RunInfo;
  summary: RunSummary;
}

export function readResults(file: string): LoadedRun {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  let data: Partial<LoadedRun>;
  try {
    data = JSON.parse(text) as Partial<LoadedRun>;
  } catch (e) {
    throw new UsageError(`${file} is not JSON: ${(e as Error).message}`);
  }
  if (!data.run?.cluster || !Array.isArray(data.summary?.results)) throw new UsageError(`${file} is not a wincheck results.json (no run or summary.results)`);
  const schema = data.schemaVersion ?? '0';
  if (Number(schema.split('.')[0]) > Number(RESULTS_SCHEMA_VERSION.split('.')[0]))
    throw new UsageError(`${file} has results schema ${schema}; this wincheck ${WINCHECK_VERSION} reads up to ${RESULTS_SCHEMA_VERSION}`);
  // Schema 1 wrote a per-build check's build inside its id; schema 2 has it in `build` (fromStored rejoins them).
  const summary = Number(schema.split('.')[0]) >= 2 ? { ...data.summary!, results: (data.summary!.results as StoredResult[]).map(fromStored) } : data.summary!;
  return { file, schemaVersion: schema, wincheckVersion: data.wincheckVersion ?? 'unknown', run: data.run, summary };
}

/** What `--rerun-failed` reruns: the features that regressed or errored (each id once; a per-build testcase by its feature). */
export function failedFeatureIds(loaded: LoadedRun): string[] {
  return [...new Set(loaded.summary.results.filter(r => r.outcome === 'regressed' || r.outcome === 'error').map(r => splitInstanceId(r.id)[0]))];
}
