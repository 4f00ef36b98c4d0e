// Report writing, end to end on disk: parse the XML back and assert testcases, failures,
// skipped messages and properties; summary.md and results.json open with the banner.

import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { CheckResult, Outcome } from '../../../lib/catalog/types.ts';
import JsonReporter from '../../../lib/report/json.ts';
import JUnitReporter, { junitFileName, testcaseContext, testcaseName } from '../../../lib/report/junit.ts';
import { Multiplexer } from '../../../lib/report/multiplexer.ts';
import SummaryReporter from '../../../lib/report/summary.ts';
import { emptyCounts, type Reporter, type RunInfo, type RunSummary } from '../../../lib/run/events.ts';
import ConsoleReporter from '../../../lib/report/console.ts';
import { cluster } from '../../support/clusterFixture.ts';
import { cite } from '../../../lib/facts/sources.ts';

function result(id: string, outcome: Outcome, extra: Partial<CheckResult> = {}): CheckResult {
  const [prefix] = id.split('.');
  const area = ({ sched: 'scheduling', work: 'workloads', cfg: 'config' } as const)[prefix as 'sched'];
  return {
    id,
    area,
    suite: area,
    title: `title of ${id}`,
    expectation: {
      expected: outcome === 'limited' || outcome === 'lifted' ? 'limited' : outcome === 'n/a' ? 'n/a' : 'supported',
      reason: `reason ${id}`,
      source: [cite.v19Guide()],
    },
    outcome,
    reason: `why ${outcome}`,
    summary: 'seen',
    evidence: [{ transport: 'exec ns/helper', command: 'curl', exitCode: 7, stdout: '', stderr: 'refused', durationMs: 5 }],
    steps: ['did a thing'],
    node: 'win-1',
    windowsBuild: '10.0.20348',
    durationMs: 1200,
    ...extra,
  };
}

const results = [
  result('sched.os-selector', 'supported'),
  result('sched.taint-toleration', 'n/a', { reason: 'no Windows node is tainted' }),
  result('work.iis-pod', 'regressed', { reason: 'documented to work, but IIS did not answer' }),
  result('work.deployment', 'error', { reason: 'the check could not tell: exec failed', error: 'exec failed' }),
  result('cfg.secret-env', 'lifted'),
];

function runInfo(simulated: boolean, dir: string): RunInfo {
  return {
    runId: 'rtest01',
    namespace: 'wincheck-rtest01',
    simulated,
    simProfile: simulated ? 'default' : undefined,
    cluster: cluster(),
    strict: false,
    startedAt: '2026-11-30T04:00:00.000Z',
    selected: results.map(r => ({ id: r.id, suite: r.suite, area: r.area, title: r.title })),
    reportDir: dir,
    kubeconfigSource: 'test',
  };
}

function summary(): RunSummary {
  const counts = emptyCounts();
  for (const r of results) counts[r.outcome]++;
  return { status: 'failed', counts, results, durationMs: 4200, errors: [] };
}

async function writeAll(simulated: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'wincheck-report-'));
  const reporters: Reporter[] = [new JUnitReporter(dir), new SummaryReporter(dir), new JsonReporter(dir)];
  const mux = new Multiplexer(reporters);
  await mux.onBegin(runInfo(simulated, dir));
  await mux.onEnd(summary());
  return dir;
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: name => ['testcase', 'property'].includes(name) });
type Prop = { name: string; value: string };
type Case = {
  name: string;
  'system-out': string;
  failure?: { message: string; type: string; '#text': string };
  error?: { message: string };
  skipped?: { message: string };
};
/** A testcase's own context: the "key: value" lines that open its <system-out> (junit-10 has no testcase properties). */
const caseProps = (c: Case) => testcaseContext(c['system-out']);

describe('reports', () => {
  let dir: string;
  before(async () => {
    dir = await writeAll(false);
  });

  it('writes one junit_<suite>.xml per suite, with no underscore inside the suite part', () => {
    expect(readdirSync(dir).sort()).to.deep.equal(['junit_config.xml', 'junit_scheduling.xml', 'junit_workloads.xml', 'results.json', 'summary.md']);
    expect(junitFileName('node_access')).to.equal('junit_node-access.xml');
    for (const f of readdirSync(dir).filter(f => f.startsWith('junit'))) expect(f).to.match(/^junit_[^_]+\.xml$/);
  });

  it('names testcases stably and maps outcomes to failure / error / skipped', () => {
    const xml = parser.parse(readFileSync(join(dir, 'junit_workloads.xml'), 'utf8'));
    const suite = xml.testsuite;
    expect(suite).to.include({ name: '[sig-windows] workloads', tests: '2', failures: '1', errors: '1', skipped: '0' });
    const [iis, deploy] = suite.testcase as Case[];
    expect(iis.name).to.equal('[sig-windows] workloads work.iis-pod: title of work.iis-pod');
    expect(iis.failure!.message).to.equal('documented to work, but IIS did not answer');
    expect(iis.failure!['#text']).to.contain('exec ns/helper: curl → exit 7').and.contain('stderr: refused');
    expect(deploy.error!.message).to.equal('the check could not tell: exec failed');
    const sched = parser.parse(readFileSync(join(dir, 'junit_scheduling.xml'), 'utf8')).testsuite;
    const [ok, na] = sched.testcase as Case[];
    expect(ok.failure).to.equal(undefined);
    expect(ok.skipped).to.equal(undefined);
    expect(na.skipped!.message).to.equal('no Windows node is tainted');
  });

  it("opens every testcase's system-out with its context; the run's context is in the suite properties", () => {
    const suite = parser.parse(readFileSync(join(dir, 'junit_scheduling.xml'), 'utf8')).testsuite;
    expect(caseProps((suite.testcase as Case[])[0])).to.deep.equal({
      'feature-id': 'sched.os-selector',
      expectation: 'supported',
      outcome: 'supported',
      reason: 'why supported',
      source:
        'Using Windows Server Containers in Kubernetes (v1.9, https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md)',
      node: 'win-1',
      'windows-build': '10.0.20348',
      runtime: 'containerd://1.7.22',
      cni: 'flannel',
      'k8s-version': 'v1.33.2',
    });
    const props = Object.fromEntries((suite.properties.property as Prop[]).map(p => [p.name, p.value]));
    expect(props).to.include({ 'run-id': 'rtest01', 'k8s-version': 'v1.33.2', strict: 'false', 'results-schema-version': '2' });
    expect(props['wincheck-version']).to.match(/^\d+\.\d+\.\d+/);
    const lifted = (parser.parse(readFileSync(join(dir, 'junit_config.xml'), 'utf8')).testsuite.testcase as Case[])[0];
    expect(caseProps(lifted).lifted).to.equal('true');
    expect(lifted.failure).to.equal(undefined);
  });

  it('testcase names do not depend on the run', () => {
    expect(testcaseName({ suite: 'scheduling', id: 'sched.os-selector', title: 'T' })).to.equal('[sig-windows] scheduling sched.os-selector: T');
  });

  it('summary.md has counts first, then one row per feature, lifted flagged', () => {
    const md = readFileSync(join(dir, 'summary.md'), 'utf8').split('\n');
    expect(md[0]).to.match(/^# wincheck \d+\.\d+\.\d+\S* run rtest01 on cluster https:\/\/10\.0\.0\.1:6443/);
    expect(md).to.include('| supported | limited | lifted | regressed | n/a | error |');
    expect(md).to.include('| 1 | 0 | 1 | 1 | 1 | 1 |');
    expect(md.join('\n')).to.contain('**Lifted limitations** (documented as limited, seen working): cfg.secret-env');
    expect(md.filter(l => l.startsWith('| `'))).to.have.length(5);
  });

  it('results.json parses and carries the run and every result', () => {
    const j = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(j.banner).to.match(/^wincheck \S+ run rtest01/);
    expect(j.schemaVersion).to.equal('2');
    expect(j.wincheckVersion).to.match(/^\d+\.\d+\.\d+/);
    expect(j.summary.results).to.have.length(5);
    expect(j.run.cluster.version.gitVersion).to.equal('v1.33.2');
  });

  it('a run on the simulated cluster says so in the first line of every report', async () => {
    const sim = await writeAll(true);
    for (const f of readdirSync(sim)) {
      const first = readFileSync(join(sim, f), 'utf8').split('\n')[0];
      expect(first, f).to.contain('SIMULATED CLUSTER');
    }
    const lines: string[] = [];
    new ConsoleReporter(l => lines.push(l)).onBegin(runInfo(true, sim));
    expect(lines[0]).to.contain('SIMULATED CLUSTER');
    // And the XML stays parseable with the banner comment first.
    expect(parser.parse(readFileSync(join(sim, 'junit_workloads.xml'), 'utf8')).testsuite.testcase).to.have.length(2);
  });

  it('a reporter that throws does not stop the others', async () => {
    const warnings: string[] = [];
    const seen: string[] = [];
    const mux = new Multiplexer(
      [
        new (class Broken implements Reporter {
          onEnd() {
            throw new Error('disk full');
          }
        })(),
        {
          onEnd: () => {
            seen.push('second');
          },
        },
      ],
      w => warnings.push(w),
    );
    await mux.onEnd(summary());
    expect(seen).to.deep.equal(['second']);
    expect(warnings).to.deep.equal(['Error in reporter Broken.onEnd: disk full']);
  });

  it('console progress: one line per finished check with a running count', () => {
    const lines: string[] = [];
    const c = new ConsoleReporter(l => lines.push(l));
    c.onBegin(runInfo(false, dir));
    c.onCheckEnd(results[0], { done: 3, total: 12 });
    c.onCheckEnd(results[2], { done: 4, total: 12 });
    expect(lines.at(-2)).to.equal('[ 3/12] sched.os-selector       supported  (1.2s)');
    expect(lines.at(-1)).to.equal('[ 4/12] work.iis-pod            regressed  (1.2s)  documented to work, but IIS did not answer');
  });
});
