// results.json: the whole run for machines. Its first line is the banner; then the versions of
// wincheck and of this file's schema (lib/version.ts), then the run and its summary.

import { RESULTS_SCHEMA_VERSION, WINCHECK_VERSION } from '../version.ts';
import { bannerOf } from './banner.ts';
import { FileReporter } from './fileReporter.ts';
import type { RunInfo, RunSummary } from '../run/events.ts';

export default class JsonReporter extends FileReporter {
  constructor(dir: string) {
    super(dir, 'results.json', renderResultsJson);
  }
}

export function renderResultsJson(run: RunInfo, summary: RunSummary): string {
  const body = JSON.stringify({ schemaVersion: RESULTS_SCHEMA_VERSION, wincheckVersion: WINCHECK_VERSION, run, summary }, null, 2);
  // Splice the banner in as the first key so that it is the first line of the file.
  return `{"banner": ${JSON.stringify(bannerOf(run))},\n${body.slice(1)}\n`;
}
