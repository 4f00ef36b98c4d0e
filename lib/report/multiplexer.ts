// Fans each event out to every reporter; a reporter that throws is reported, never fatal.

import type { CheckResult } from '../catalog/types.ts';
import type { Progress, Reporter, RunInfo, RunSummary, SelectedFeature } from './types.ts';

export class Multiplexer implements Reporter {
  constructor(private readonly _reporters: Reporter[], private readonly _warn: (line: string) => void = l => console.error(l)) {}

  async onBegin(run: RunInfo) { await this._each('onBegin', r => r.onBegin?.(run)); }
  onTestBegin(feature: SelectedFeature) { void this._each('onTestBegin', r => r.onTestBegin?.(feature)); }
  onTestEnd(result: CheckResult, progress: Progress) { void this._each('onTestEnd', r => r.onTestEnd?.(result, progress)); }
  onLog(line: string) { void this._each('onLog', r => r.onLog?.(line)); }
  onError(message: string) { void this._each('onError', r => r.onError?.(message)); }
  async onEnd(summary: RunSummary) { await this._each('onEnd', r => r.onEnd?.(summary)); }

  private async _each(hook: string, call: (r: Reporter) => void | Promise<void>): Promise<void> {
    for (const reporter of this._reporters) {
      try {
        await call(reporter);
      } catch (e) {
        this._warn(`Error in reporter ${reporter.constructor.name}.${hook}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
}
