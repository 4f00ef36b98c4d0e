// results.json: the whole run for machines. Its first line is the banner; then the versions of
// wincheck and of this file's schema (lib/facts/wincheck.ts), then the run and its summary.

import { RESULTS_SCHEMA_VERSION, WINCHECK_VERSION } from '../facts/wincheck.ts';
import { bannerOf } from './banner.ts';
import { FileReporter } from './fileReporter.ts';
import type { RunInfo, RunSummary } from '../run/events.ts';
import type { CheckResult } from '../catalog/types.ts';
import { splitInstanceId } from './buildTable.ts';
import { instanceId } from '../run/instanceId.ts';

/** A result as results.json (schema 2) holds it: the feature ID in `id`, a per-build check's Windows build in `build`. */
export type StoredResult = Omit<CheckResult, 'id'> & { id: string; build?: string };

export default class JsonReporter extends FileReporter {
  constructor(dir: string) {
    super(dir, 'results.json', renderResultsJson);
  }
}

export function renderResultsJson(run: RunInfo, summary: RunSummary): string {
  const stored = { ...summary, results: summary.results.map(toStored) };
  const body = JSON.stringify({ schemaVersion: RESULTS_SCHEMA_VERSION, wincheckVersion: WINCHECK_VERSION, run, summary: stored }, null, 2);
  // Splice the banner in as the first key so that it is the first line of the file.
  return `{"banner": ${JSON.stringify(bannerOf(run))},\n${body.slice(1)}\n`;
}

/** The run's per-build check "iso.hostprocess [ltsc2022]" → { id: "iso.hostprocess", build: "ltsc2022" }. */
export function toStored(r: CheckResult): StoredResult {
  const [id, build] = splitInstanceId(r.id);
  return build ? { id, build, ...withoutId(r) } : r;
}

/** The inverse, for merge and --rerun-failed: the run's own naming of a per-build check. */
export function fromStored(r: StoredResult): CheckResult {
  const { build, ...rest } = r;
  return build ? { ...rest, id: instanceId(r.id, build) } : rest;
}

function withoutId(r: CheckResult): Omit<CheckResult, 'id'> {
  const { id: _id, ...rest } = r;
  return rest;
}
