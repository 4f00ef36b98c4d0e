// `wincheck report merge` over real runs of three sim profiles (Windows Server 2019 at v1.33,
// 2022 at v1.30, mixed-build at v1.33), each a separate `wincheck run --sim`, as release
// qualification would collect them; then --baseline, and `run --rerun-failed`.

import { expect } from 'chai';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import type { MergedMatrix } from '../../../lib/report/merge.ts';
import { tempDir, wincheck, type CliResult } from '../../support/cli.ts';

const FEATURES = ['sched.os-selector', 'work.env-colon-name', 'cfg.secret-env', 'net.session-affinity'];
const PROFILES = ['ws2019', 'k8s-1-30', 'mixed-build'];

describe('wincheck report merge and run --rerun-failed', function () {
  this.timeout(300_000);
  let root: string;
  let runs: CliResult[];
  let config: string;

  before(async () => {
    root = tempDir('wincheck-merge-');
    config = join(root, 'wincheck.yaml');
    writeFileSync(config, 'timeouts:\n  netWarmup: 2500\n  netSteady: 1000\n  netPoll: 250\n  netConnect: 1000\n  podStart: 60000\n');
    runs = await Promise.all(
      PROFILES.map(p => wincheck(['run', '--sim', p, '--config', config, '--report-dir', join(root, 'runs', p), ...FEATURES.flatMap(f => ['--feature', f])])),
    );
  });

  it('the three runs ran', () => {
    runs.forEach((r, i) => expect(r.exitCode, `${PROFILES[i]}: ${r.all}`).to.equal(0));
  });

  it("merges them: one column per Kubernetes version × build, each naming its cluster, every run's cells filled", async () => {
    const out = join(root, 'merged');
    const r = await wincheck(['report', 'merge', join(root, 'runs'), '--out', out]);
    expect(r.exitCode, r.all).to.equal(0);
    const m = JSON.parse(readFileSync(join(out, 'merged.json'), 'utf8')) as MergedMatrix;
    const keys = m.columns
      .filter(c => c.build)
      .map(c => `${c.k8sVersion} ${c.build} ${c.simulated}`)
      .sort();
    expect(keys).to.deep.equal([
      'v1.30.6 10.0.20348 k8s-1-30',
      'v1.33.2 10.0.17763 mixed-build',
      'v1.33.2 10.0.17763 ws2019',
      'v1.33.2 10.0.20348 mixed-build',
    ]);
    for (const c of m.columns) expect(c.cluster).to.match(/^https:\/\/127\.\d+\.\d+\.\d+:\d+ \(wincheck-sim-/);
    // One row per feature: per-build instances ("<id> [ltsc2019]") of the mixed run sit in their builds' columns.
    expect(m.features.map(f => f.id).sort()).to.deep.equal([...FEATURES].sort());
    for (const f of FEATURES) {
      // Single-build runs: every feature in the column of their build. Mixed-build: in one of its columns at least.
      for (const p of ['ws2019', 'k8s-1-30']) {
        const i = m.columns.findIndex(c => c.simulated === p);
        expect(m.cells[f][i], `${f} on ${p}`).to.have.property('outcome');
      }
      const mixed = m.columns.map((c, i) => [c, i] as const).filter(([c]) => c.simulated === 'mixed-build');
      expect(
        mixed.some(([, i]) => m.cells[f][i]),
        `${f} on mixed-build`,
      ).to.equal(true);
    }
    // The matrix tells the builds and versions apart as documented.
    const at = (p: string, build: string) => m.cells['net.session-affinity'][m.columns.findIndex(c => c.simulated === p && c.build === build)]?.outcome;
    expect(at('ws2019', '10.0.17763')).to.equal('limited');
    expect(at('k8s-1-30', '10.0.20348')).to.equal('supported');
    expect(m.cells['work.env-colon-name'][m.columns.findIndex(c => c.simulated === 'k8s-1-30')]?.outcome).to.equal('limited');
    expect(m.cells['work.env-colon-name'][m.columns.findIndex(c => c.simulated === 'ws2019')]?.outcome).to.equal('supported');
    const md = readFileSync(join(out, 'merged.md'), 'utf8');
    expect(md).to.contain('k8s v1.30.6 · Windows Server 2022 10.0.20348').and.contain('SIMULATED (ws2019)');
    expect(md.split('\n').filter(l => l.startsWith('| `'))).to.have.length(FEATURES.length);
    const html = readFileSync(join(out, 'merged.html'), 'utf8');
    expect(html)
      .to.contain('<table id="merged-matrix">')
      .and.not.match(/<script|https?:\/\/[^"]*\.(css|js)/);
  });

  it('--baseline marks exactly the cells that changed, in every column of that version × build', async () => {
    // The baseline: the ws2019 run as it would have been with the OS selector broken.
    const base = join(root, 'baseline');
    cpSync(join(root, 'runs', 'ws2019'), base, { recursive: true });
    const file = join(base, 'results.json');
    const j = JSON.parse(readFileSync(file, 'utf8'));
    j.summary.results.find((r: { id: string }) => r.id === 'sched.os-selector').outcome = 'regressed';
    writeFileSync(file, JSON.stringify(j));
    const out = join(root, 'merged-baseline');
    const r = await wincheck(['report', 'merge', join(root, 'runs', 'ws2019'), '--baseline', base, '--out', out]);
    expect(r.exitCode, r.all).to.equal(0);
    expect(r.stdout).to.contain('1 cell(s) changed since the baseline: sched.os-selector regressed → supported.');
    const m = JSON.parse(readFileSync(join(out, 'merged.json'), 'utf8')) as MergedMatrix;
    expect(m.changes).to.deep.equal([{ feature: 'sched.os-selector', column: 0, from: 'regressed', to: 'supported' }]);
    expect(readFileSync(join(out, 'merged.md'), 'utf8')).to.contain('| `sched.os-selector` | supported (was regressed) |');
    expect(readFileSync(join(out, 'merged.html'), 'utf8')).to.contain('data-was="regressed"');
  });

  it('bad input: a directory without results.json is exit 2 naming it', async () => {
    const empty = tempDir('wincheck-empty-');
    const r = await wincheck(['report', 'merge', empty]);
    expect(r.exitCode).to.equal(2);
    expect(r.stderr).to.contain(`${empty} holds no results.json`);
  });

  it('run --rerun-failed reruns only what regressed or errored', async () => {
    const file = join(root, 'failed.json');
    const j = JSON.parse(readFileSync(join(root, 'runs', 'ws2019', 'results.json'), 'utf8'));
    j.summary.results.find((x: { id: string }) => x.id === 'cfg.secret-env').outcome = 'error';
    writeFileSync(file, JSON.stringify(j));
    const dir = join(root, 'rerun');
    mkdirSync(dir);
    const r = await wincheck(['run', '--sim', 'ws2019', '--rerun-failed', file, '--report-dir', dir]);
    expect(r.exitCode, r.all).to.equal(0);
    expect(r.stdout).to.contain(`Rerunning 1 feature(s) that regressed or errored in ${file}: cfg.secret-env.`);
    const names = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: n => n === 'testcase' })
      .parse(readFileSync(join(dir, 'junit_config.xml'), 'utf8'))
      .testsuite.testcase.map((c: { name: string }) => c.name);
    expect(names).to.deep.equal(['[sig-windows] config cfg.secret-env: Secret keys as env vars with the right values']);
    const none = await wincheck(['run', '--sim', '--rerun-failed', join(root, 'runs', 'ws2019', 'results.json')]);
    expect(none.exitCode).to.equal(0);
    expect(none.stdout).to.contain('Nothing to rerun');
    const both = await wincheck(['run', '--sim', '--rerun-failed', file, '--feature', 'x']);
    expect(both.exitCode).to.equal(2);
  });
});
