// junit_<suite>.xml per suite, written only in onEnd. Testcase names are stable:
// "[sig-windows] <area> <feature-id>: <title>". regressed → <failure>, error → <error>,
// n/a → <skipped message>, the rest pass. Each testcase carries the run's context as properties.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult } from '../catalog/types.ts';
import { bannerOf } from './banner.ts';
import { formatResultDetails, nodeOfResult } from './evidence.ts';
import type { Reporter, RunInfo, RunSummary } from './types.ts';
import { serializeXML, xmlComment, type XMLEntry } from './xml.ts';

export function testcaseName(r: Pick<CheckResult, 'area' | 'id' | 'title'>): string {
  return `[sig-windows] ${r.area} ${r.id}: ${r.title}`;
}

export function junitFileName(suite: string): string {
  return `junit_${suite.replace(/_/g, '-')}.xml`;
}

export default class JUnitReporter implements Reporter {
  private _run?: RunInfo;
  /** Files written by onEnd, for the console's last lines. */
  readonly written: string[] = [];

  constructor(private readonly _dir: string) {}

  onBegin(run: RunInfo) { this._run = run; }

  onEnd(summary: RunSummary) {
    const run = this._run;
    if (!run) return;
    mkdirSync(this._dir, { recursive: true });
    const bySuite = new Map<string, CheckResult[]>();
    for (const s of new Set(run.selected.map(f => f.suite))) bySuite.set(s, []);
    for (const r of summary.results) bySuite.get(r.suite)?.push(r) ?? bySuite.set(r.suite, [r]);
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
      failures: count('regressed'),
      errors: count('error'),
      skipped: count('n/a'),
      time: seconds(results.reduce((t, r) => t + r.durationMs, 0)),
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
  ];
}

function testcaseEntry(run: RunInfo, r: CheckResult): XMLEntry {
  const node = nodeOfResult(r, run.cluster);
  const props: [string, string][] = [
    ['feature-id', r.id],
    ['expectation', r.expectation.expected],
    ['outcome', r.outcome],
    ['reason', r.reason],
    ['source', r.expectation.source],
    ['node', r.node ?? ''],
    ['windows-build', r.windowsBuild ?? node?.windowsBuild ?? ''],
    ['runtime', node ? `${node.runtimeName}://${node.runtimeVersion}` : ''],
    ['cni', run.cluster.network.cni ?? 'unknown'],
    ['k8s-version', run.cluster.version.gitVersion],
  ];
  if (r.outcome === 'lifted') props.push(['lifted', 'true']);
  const children: XMLEntry[] = [
    { name: 'properties', children: props.map(([name, value]) => ({ name: 'property', attributes: { name, value } })) },
  ];
  const details = formatResultDetails(r);
  if (r.outcome === 'regressed') children.push({ name: 'failure', attributes: { message: r.reason, type: 'regressed' }, text: details });
  else if (r.outcome === 'error') children.push({ name: 'error', attributes: { message: r.reason, type: 'error' }, text: details });
  else if (r.outcome === 'n/a') children.push({ name: 'skipped', attributes: { message: r.reason } });
  children.push({ name: 'system-out', text: details });
  return {
    name: 'testcase',
    attributes: { name: testcaseName(r), classname: `wincheck.${r.suite}`, time: seconds(r.durationMs) },
    children,
  };
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
