// A reporter that writes one file in onEnd from the run and its summary.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, RunInfo, RunSummary } from '../run/events.ts';

export class FileReporter implements Reporter {
  private _run?: RunInfo;

  constructor(
    private readonly _dir: string,
    private readonly _file: string,
    private readonly _render: (run: RunInfo, summary: RunSummary) => string,
  ) {}

  onBegin(run: RunInfo) {
    this._run = run;
  }

  onEnd(summary: RunSummary) {
    if (!this._run) return;
    mkdirSync(this._dir, { recursive: true });
    writeFileSync(join(this._dir, this._file), this._render(this._run, summary));
  }
}
