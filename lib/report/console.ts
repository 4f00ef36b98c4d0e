// Progress for humans and CI logs: one line per check as it finishes (checks run concurrently,
// so in finishing order; the report files keep catalog order). In a CI log (not a TTY) a
// heartbeat names what is still running every 15 s, so a slow check never means silence; on a
// terminal a live status line at the bottom says the same, rewritten in place.

import { describeCredentials } from '../cluster/credentialInfo.ts';
import type { CheckResult } from '../catalog/types.ts';
import type { NodeInfo } from '../discovery/types.ts';
import { nodePools } from '../discovery/pools.ts';
import { bannerOf } from './banner.ts';
import { type Progress, type Reporter, type RunInfo, type RunSummary, type SelectedFeature, OUTCOMES } from '../run/events.ts';
import { notVisitedText } from './notVisited.ts';

export interface ConsoleOptions {
  /** A terminal: keep a live status line (raw writes through `write`) instead of heartbeat lines. */
  tty?: boolean;
  /** Raw output for the status line (default: process.stdout). */
  write?: (s: string) => void;
  /** Heartbeat period in a CI log (default 15 s); the TTY status line refreshes every second. */
  heartbeatMs?: number;
  /** Terminal width for the status line (default: process.stdout.columns, else 100). */
  columns?: number;
}

/** Names in a heartbeat or status line before "and N more". */
const NAMED = 6;
/** Clusters with more nodes than this get counts, not a name each, in the opening lines. */
const NODES_NAMED = 8;
const CLEAR_LINE = '\r\x1b[K';

export default class ConsoleReporter implements Reporter {
  private _width = 0;
  private _reportDir = '';
  /** Running checks and when each began. */
  private readonly _running = new Map<string, number>();
  private _timer: NodeJS.Timeout | undefined;
  private _status = '';
  private _progress: Progress = { done: 0, total: 0 };

  constructor(
    private readonly _out: (line: string) => void = l => process.stdout.write(l + '\n'),
    private readonly _opts: ConsoleOptions = {},
  ) {}

  onBegin(run: RunInfo) {
    this._reportDir = run.reportDir;
    this._width = Math.max(0, ...run.selected.map(f => f.id.length));
    const c = run.cluster;
    this._out(bannerOf(run));
    this._out(`Endpoint:   ${c.server} (context ${c.context ?? 'none'}, from ${run.kubeconfigSource})`);
    const who = describeCredentials(run.credentials);
    if (who) this._out(`Identity:   ${who}`);
    this._out(`Kubernetes: ${c.version.gitVersion}; nodes: ${nodesLine(c.nodes)}`);
    if (run.notVisited?.length) this._out(`Not visited by node-level checks: ${notVisitedText(run)}`);
    this._out(`Namespace:  ${run.namespace}`);
    this._out(`Reports:    ${run.reportDir}`);
    this._out(`Features:   ${run.selected.map(f => f.id).join(', ') || 'none'}`);
    this._out(`Running ${run.selected.length} check(s)${run.strict ? ' (strict: lifted limitations fail the run)' : ''}.`);
    this._progress = { done: 0, total: run.selected.length };
  }

  onCheckBegin(f: SelectedFeature) {
    this._running.set(f.id, Date.now());
    this._startTicking();
    this._redraw();
  }

  onCheckEnd(r: CheckResult, p: Progress) {
    this._running.delete(r.id);
    this._progress = p;
    this._line(this._resultLine(r, p));
  }

  onLog(line: string) {
    this._line(line);
  }
  onError(message: string) {
    this._line(`Error: ${message}`);
  }

  onEnd(s: RunSummary) {
    this._stopTicking();
    this._out(
      `${s.status === 'passed' ? 'Passed' : s.status === 'failed' ? 'Failed' : s.status === 'timedout' ? 'Timed out' : 'Interrupted'}: ${
        OUTCOMES.filter(o => s.counts[o])
          .map(o => `${s.counts[o]} ${o}`)
          .join(', ') || 'no checks ran'
      } in ${(s.durationMs / 1000).toFixed(1)}s.`,
    );
    if (s.reportsLost?.length) this._out(`Error: reports NOT written to ${this._reportDir}: ${s.reportsLost.join('; ')}`);
    else if (this._reportDir) this._out(`Reports written to ${this._reportDir}.`);
  }

  private _resultLine(r: CheckResult, p: Progress): string {
    const count = `[${String(p.done).padStart(String(p.total).length)}/${p.total}]`;
    const line = `${count} ${r.id.padEnd(this._width)}  ${r.outcome.padEnd(9)}  (${(r.durationMs / 1000).toFixed(1)}s)`;
    return r.outcome === 'supported' || r.outcome === 'limited' ? line : `${line}  ${r.reason}`;
  }

  /** "3 running: net.lb 42s, net.dns-service 20s, ... and 2 more" (longest-running first). */
  private _runningText(): string {
    const now = Date.now();
    const byAge = [...this._running].sort((a, b) => a[1] - b[1]);
    const named = byAge.slice(0, NAMED).map(([id, t]) => `${id} ${Math.round((now - t) / 1000)}s`);
    const more = byAge.length > NAMED ? ` and ${byAge.length - NAMED} more` : '';
    return `${byAge.length} running: ${named.join(', ')}${more}`;
  }

  /** A normal line; on a terminal the status line is lifted off first and put back after. */
  private _line(text: string): void {
    if (this._opts.tty && this._status) this._write(CLEAR_LINE);
    this._out(text);
    if (this._opts.tty) {
      this._status = '';
      this._redraw();
    }
    if (!this._running.size) this._stopTicking();
  }

  private _redraw(): void {
    if (!this._opts.tty) return;
    const { done, total } = this._progress;
    const cols = this._opts.columns ?? process.stdout.columns ?? 100;
    const text = this._running.size ? `[${done}/${total}] ${this._runningText()}`.slice(0, Math.max(10, cols - 1)) : '';
    if (text === this._status) return;
    this._write(CLEAR_LINE + text);
    this._status = text;
  }

  private _write(s: string): void {
    (this._opts.write ?? (x => process.stdout.write(x)))(s);
  }

  private _startTicking(): void {
    if (this._timer) return;
    const tick = () => {
      if (!this._running.size) return;
      if (this._opts.tty) this._redraw();
      else this._out(`... ${this._runningText()}`);
    };
    this._timer = setInterval(tick, this._opts.tty ? 1_000 : (this._opts.heartbeatMs ?? 15_000));
    this._timer.unref();
  }

  private _stopTicking(): void {
    clearInterval(this._timer);
    this._timer = undefined;
    if (this._opts.tty && this._status) {
      this._write(CLEAR_LINE);
      this._status = '';
    }
  }
}

/** Pools shown on the nodes line of a large cluster; the rest are counted. */
const POOLS_SHOWN = 8;

/**
 * Nodes named one by one on small clusters; on large ones, summarised per pool and OS kind
 * (its size, its first and last node): a 500-node line of names says nothing.
 */
export function nodesLine(
  nodes: readonly (Pick<NodeInfo, 'name' | 'os' | 'windowsBuild'> & { labels?: Record<string, string> })[],
  named = NODES_NAMED,
): string {
  const kind = (n: Pick<NodeInfo, 'os' | 'windowsBuild'>) => `${n.os}${n.windowsBuild ? ` ${n.windowsBuild}` : ''}`;
  if (nodes.length <= named) return nodes.map(n => `${n.name} (${kind(n)})`).join(', ');
  const pools = nodePools(nodes);
  const shown = pools.slice(0, POOLS_SHOWN).map(p => {
    if (p.nodes.length === 1) return `1 ${p.kind}: ${p.nodes[0]}`;
    const span = p.nodes.length === 2 ? p.nodes.join(', ') : `${p.nodes[0]} … ${p.nodes.at(-1)}`;
    return `${p.nodes.length} ${p.kind} in pool ${p.name} (${span})`;
  });
  const rest = pools.slice(POOLS_SHOWN);
  const more = rest.length ? `, and ${rest.reduce((a, p) => a + p.nodes.length, 0)} more in ${rest.length} other pool(s) ('wincheck discover' lists them)` : '';
  return `${nodes.length} in ${pools.length} pool(s): ${shown.join(', ')}${more}`;
}
