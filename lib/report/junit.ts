// junit_<suite>.xml per suite, written only in onEnd, valid against the Jenkins/xunit
// junit-10.xsd (test/report/junit-10.xsd). Testcase names are stable:
// "[sig-windows] <suite> <feature-id>: <title>". regressed → <failure>, lifted under --strict →
// <failure type="lifted">, error → <error>, n/a → <skipped message>, the rest pass. junit-10
// allows no <properties> inside a testcase: the run's context goes in the suite's <properties>,
// each testcase's own context opens its <system-out> as "key: value" lines.

import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult } from '../catalog/types.ts';
import { formatSources } from '../facts/sources.ts';
import { RESULTS_SCHEMA_VERSION, WINCHECK_VERSION } from '../facts/wincheck.ts';
import { bannerOf } from './banner.ts';
import { formatResultDetails, nodeOfResult } from './evidence.ts';
import type { Reporter, RunInfo, RunSummary } from '../run/events.ts';
import { serializeXML, xmlComment, type XMLEntry } from './xml.ts';

export function testcaseName(r: Pick<CheckResult, 'suite' | 'id' | 'title'>): string {
  return `[sig-windows] ${r.suite} ${r.id}: ${r.title}`;
}

const JUNIT_FILE = /^junit_.*\.xml$/;

export function junitFileName(suite: string): string {
  return `junit_${suite.replace(/_/g, '-')}.xml`;
}

export default class JUnitReporter implements Reporter {
  private _run?: RunInfo;
  /** Files written by onEnd, for the console's last lines. */
  readonly written: string[] = [];

  /** `log` hears which junit_*.xml of an earlier run were removed. */
  constructor(
    private readonly _dir: string,
    private readonly _log: (line: string) => void = () => undefined,
  ) {}

  onBegin(run: RunInfo) {
    this._run = run;
  }

  onEnd(summary: RunSummary) {
    const run = this._run;
    if (!run) return;
    mkdirSync(this._dir, { recursive: true });
    // A CI glob (junit_*.xml) must not mix this run with an earlier one's suites.
    const stale = readdirSync(this._dir).filter(f => JUNIT_FILE.test(f));
    for (const f of stale) rmSync(join(this._dir, f), { force: true });
    if (stale.length) this._log(`Removed ${stale.length} junit_*.xml of an earlier run from ${this._dir}: ${stale.join(', ')}.`);
    const bySuite = new Map<string, CheckResult[]>();
    for (const s of new Set(run.selected.map(f => f.suite))) bySuite.set(s, []);
    for (const r of summary.results) {
      const list = bySuite.get(r.suite);
      if (list) list.push(r);
      else bySuite.set(r.suite, [r]);
    }
    for (const [suite, results] of bySuite) {
      const file = join(this._dir, junitFileName(suite));
      // No XML declaration, so the first line can be the banner (a declaration must come first).
      writeFileSync(file, `${xmlComment(bannerOf(run))}\n${serializeXML(suiteEntry(run, suite, results))}\n`);
      this.written.push(file);
    }
  }
}

function suiteEntry(run: RunInfo, suite: string, results: CheckResult[]): XMLEntry {
  const count = (o: string) => results.filter(r => r.outcome === o).length;
  return {
    name: 'testsuite',
    attributes: {
      name: `[sig-windows] ${suite}`,
      tests: results.length,
      failures: count('regressed') + (run.strict ? count('lifted') : 0),
      errors: count('error'),
      skipped: count('n/a'),
      time: seconds(wallTimeMs(results)),
      timestamp: run.startedAt,
      hostname: run.cluster.server,
    },
    children: [
      { name: 'properties', children: suiteProperties(run).map(([name, value]) => ({ name: 'property', attributes: { name, value } })) },
      ...results.map(r => testcaseEntry(run, r)),
    ],
  };
}

function suiteProperties(run: RunInfo): [string, string][] {
  const c = run.cluster;
  return [
    ['run-id', run.runId],
    ['simulated', String(run.simulated)],
    ['server', c.server],
    ['context', c.context ?? ''],
    ['k8s-version', c.version.gitVersion],
    ['windows-builds', [...new Set(c.nodes.filter(n => n.os === 'windows').map(n => n.windowsBuild ?? '?'))].join(',')],
    ['strict', String(run.strict)],
    ['wincheck-version', WINCHECK_VERSION],
    ['results-schema-version', RESULTS_SCHEMA_VERSION],
  ];
}

/** A testcase's own context back from its <system-out>: the "key: value" lines before the first blank line. */
export function testcaseContext(systemOut: string): Record<string, string> {
  const head = systemOut.split('\n\n')[0];
  return Object.fromEntries(
    head
      .split('\n')
      .filter(l => l.includes(': '))
      .map(l => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]),
  );
}

/** From the first check's start to the last one's end: checks run in parallel, so not their sum. */
export function wallTimeMs(results: CheckResult[]): number {
  const spans = results
    .filter(r => r.startedAt)
    .map(r => {
      const t = Date.parse(r.startedAt!);
      return [t, t + r.durationMs];
    });
  const span = spans.length ? Math.max(...spans.map(s => s[1])) - Math.min(...spans.map(s => s[0])) : 0;
  // A result without a start time (one the run stopped) still took its own time.
  return Math.max(span, ...results.map(r => r.durationMs));
}

function testcaseEntry(run: RunInfo, r: CheckResult): XMLEntry {
  const node = nodeOfResult(r, run.cluster);
  const props: [string, string][] = [
    ['feature-id', r.id],
    ['expectation', r.expectation.expected],
    ['outcome', r.outcome],
    ['reason', r.reason],
    ['source', formatSources(r.expectation.source)],
    ['node', r.node ?? ''],
    ['windows-build', r.windowsBuild ?? node?.windowsBuild ?? ''],
    ['runtime', node ? `${node.runtimeName}://${node.runtimeVersion}` : ''],
    ['cni', run.cluster.network.cni ?? 'unknown'],
    ['k8s-version', run.cluster.version.gitVersion],
  ];
  if (r.outcome === 'lifted') props.push(['lifted', 'true']);
  // Relative to the report dir, where this file is.
  if (r.diagnostics) props.push(['diagnostics', r.diagnostics]);
  const children: XMLEntry[] = [];
  const details = formatResultDetails(r);
  if (r.outcome === 'regressed') children.push({ name: 'failure', attributes: { message: r.reason, type: 'regressed' }, text: details });
  else if (r.outcome === 'lifted' && run.strict)
    children.push({ name: 'failure', attributes: { message: `lifted (fails under --strict): ${r.reason}`, type: 'lifted' }, text: details });
  else if (r.outcome === 'error') children.push({ name: 'error', attributes: { message: r.reason, type: 'error' }, text: details });
  else if (r.outcome === 'n/a') children.push({ name: 'skipped', attributes: { message: r.reason } });
  children.push({ name: 'system-out', text: `${props.map(([k, v]) => `${k}: ${v.replace(/\n/g, ' ')}`).join('\n')}\n\n${details}` });
  return {
    name: 'testcase',
    attributes: { name: testcaseName(r), classname: `wincheck.${r.suite}`, time: seconds(r.durationMs) },
    children,
  };
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
