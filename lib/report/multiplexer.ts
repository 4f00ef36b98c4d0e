// Fans each event out to every reporter; a reporter that throws is reported, never fatal.

import type { CheckResult } from '../catalog/types.ts';
import type { Progress, Reporter, RunEvents, RunInfo, RunSummary, SelectedFeature } from '../run/events.ts';

export class Multiplexer implements RunEvents {
  /** Reporters whose onEnd failed: their output (a file) was lost. */
  readonly lost: string[] = [];

  constructor(
    private readonly _reporters: Reporter[],
    private readonly _warn: (line: string) => void = l => console.error(l),
  ) {}

  async onBegin(run: RunInfo) {
    await this._each('onBegin', r => r.onBegin?.(run));
  }
  onCheckBegin(feature: SelectedFeature) {
    void this._each('onCheckBegin', r => r.onCheckBegin?.(feature));
  }
  onCheckEnd(result: CheckResult, progress: Progress) {
    void this._each('onCheckEnd', r => r.onCheckEnd?.(result, progress));
  }
  onLog(line: string) {
    void this._each('onLog', r => r.onLog?.(line));
  }
  onError(message: string) {
    void this._each('onError', r => r.onError?.(message));
  }
  /** Reporters after a failed one see it in summary.reportsLost (the console must not say "written"). */
  async onEnd(summary: RunSummary) {
    const s = { ...summary, reportsLost: this.lost };
    await this._each(
      'onEnd',
      r => r.onEnd?.(s),
      (r, e) => this.lost.push(`${r.constructor.name}: ${e instanceof Error ? e.message : String(e)}`),
    );
  }

  private async _each(hook: string, call: (r: Reporter) => void | Promise<void>, onFail?: (r: Reporter, e: unknown) => void): Promise<void> {
    for (const reporter of this._reporters) {
      try {
        await call(reporter);
      } catch (e) {
        onFail?.(reporter, e);
        this._warn(`Error in reporter ${reporter.constructor.name}.${hook}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
}
