// Progress for humans and CI logs: plain lines, no cursor tricks, one per finished check.

import type { CheckResult } from '../catalog/types.ts';
import { bannerOf } from './banner.ts';
import { type Progress, type Reporter, type RunInfo, type RunSummary, OUTCOMES } from './types.ts';

export default class ConsoleReporter implements Reporter {
  private _width = 0;
  private _reportDir = '';
  constructor(private readonly _out: (line: string) => void = l => process.stdout.write(l + '\n')) {}

  onBegin(run: RunInfo) {
    this._reportDir = run.reportDir;
    this._width = Math.max(0, ...run.selected.map(f => f.id.length));
    const c = run.cluster;
    this._out(bannerOf(run));
    this._out(`Endpoint:   ${c.server} (context ${c.context ?? 'none'}, from ${run.kubeconfigSource})`);
    this._out(`Kubernetes: ${c.version.gitVersion}; nodes: ${c.nodes.map(n => `${n.name} (${n.os}${n.windowsBuild ? ` ${n.windowsBuild}` : ''})`).join(', ')}`);
    this._out(`Namespace:  ${run.namespace}`);
    this._out(`Reports:    ${run.reportDir}`);
    this._out(`Features:   ${run.selected.map(f => f.id).join(', ') || 'none'}`);
    this._out(`Running ${run.selected.length} check(s)${run.strict ? ' (strict: lifted limitations fail the run)' : ''}.`);
  }

  onTestEnd(r: CheckResult, p: Progress) {
    const count = `[${String(p.done).padStart(String(p.total).length)}/${p.total}]`;
    const line = `${count} ${r.id.padEnd(this._width)}  ${r.outcome.padEnd(9)}  (${(r.durationMs / 1000).toFixed(1)}s)`;
    this._out(r.outcome === 'supported' || r.outcome === 'limited' ? line : `${line}  ${r.reason}`);
  }

  onLog(line: string) { this._out(line); }
  onError(message: string) { this._out(`Error: ${message}`); }

  onEnd(s: RunSummary) {
    this._out(`${s.status === 'passed' ? 'Passed' : s.status === 'failed' ? 'Failed' : s.status === 'timedout' ? 'Timed out' : 'Interrupted'}: ${OUTCOMES.filter(o => s.counts[o]).map(o => `${s.counts[o]} ${o}`).join(', ') || 'no checks ran'} in ${(s.durationMs / 1000).toFixed(1)}s.`);
    if (s.reportsLost?.length) this._out(`Error: reports NOT written to ${this._reportDir}: ${s.reportsLost.join('; ')}`);
    else if (this._reportDir) this._out(`Reports written to ${this._reportDir}.`);
  }
}
