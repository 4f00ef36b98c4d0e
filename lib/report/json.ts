// results.json: the whole run for machines. Its first line is the banner.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bannerOf } from './banner.ts';
import type { Reporter, RunInfo, RunSummary } from './types.ts';

export default class JsonReporter implements Reporter {
  private _run?: RunInfo;
  constructor(private readonly _dir: string) {}

  onBegin(run: RunInfo) { this._run = run; }

  onEnd(summary: RunSummary) {
    if (!this._run) return;
    mkdirSync(this._dir, { recursive: true });
    writeFileSync(join(this._dir, 'results.json'), renderResultsJson(this._run, summary));
  }
}

export function renderResultsJson(run: RunInfo, summary: RunSummary): string {
  const body = JSON.stringify({ run, summary }, null, 2);
  // Splice the banner in as the first key so that it is the first line of the file.
  return `{"banner": ${JSON.stringify(bannerOf(run))},\n${body.slice(1)}\n`;
}
