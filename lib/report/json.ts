// results.json: the whole run for machines. Its first line is the banner.

import { bannerOf } from './banner.ts';
import { FileReporter } from './fileReporter.ts';
import type { RunInfo, RunSummary } from './types.ts';

export default class JsonReporter extends FileReporter {
  constructor(dir: string) { super(dir, 'results.json', renderResultsJson); }
}

export function renderResultsJson(run: RunInfo, summary: RunSummary): string {
  const body = JSON.stringify({ run, summary }, null, 2);
  // Splice the banner in as the first key so that it is the first line of the file.
  return `{"banner": ${JSON.stringify(bannerOf(run))},\n${body.slice(1)}\n`;
}
