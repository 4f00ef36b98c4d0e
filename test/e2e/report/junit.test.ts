// Reports CI can trust, end to end as a user gets them: `wincheck sim` in its own process with
// one documented limitation lifted, then the very `wincheck run --kubeconfig ...` line it prints
// (plus --strict and a few features). Every junit_*.xml must validate against the Jenkins/xunit
// junit-10.xsd, the lifted feature must be a <failure> under --strict, the run must be marked
// SIMULATED although it went through a plain kubeconfig, and stale files of an earlier run go.

import { expect } from 'chai';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { xsdErrors } from '../../support/xsd.ts';
import { startSimProcess, type SimProcess } from '../../support/simProcess.ts';
import { tempDir, wincheck, type CliResult } from '../../support/cli.ts';

/** Resolves once the sim's output holds `text` (watching its output, with a deadline). */
function outputContains(sim: SimProcess, text: string, deadlineMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sim.proc.all?.off('data', check);
      reject(new Error(`no "${text}" within ${deadlineMs} ms; output:\n${sim.output()}`));
    }, deadlineMs);
    function check() {
      if (!sim.output().includes(text)) return;
      clearTimeout(timer);
      sim.proc.all?.off('data', check);
      resolve();
    }
    sim.proc.all?.on('data', check);
    check();
  });
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: name => ['testcase', 'property'].includes(name) });
interface Case {
  name: string;
  time: string;
  failure?: { type: string; message: string };
  skipped?: { message: string };
}

describe('reports CI can trust (wincheck sim, then the run it prints)', function () {
  this.timeout(240_000);
  let sim: SimProcess;
  let dir: string;
  let run: CliResult;
  let nextLine: string;

  before(async () => {
    const work = tempDir('wincheck-junit-');
    // The sim with one documented limitation switched off: emptyDir medium Memory works.
    const profile = join(work, 'lifted.yaml');
    writeFileSync(profile, 'base: default\nname: lifted-emptydir-memory\nlimitations:\n  emptyDirMemory: false\n');
    // Short network warm-up and steady periods; the upstream ones take 40 s per path.
    const config = join(work, 'wincheck.yaml');
    writeFileSync(config, 'timeouts:\n  netWarmup: 2500\n  netSteady: 1000\n  netPoll: 250\n  netConnect: 1000\n  podStart: 60000\n');
    sim = await startSimProcess(['--profile', profile]);
    await outputContains(sim, 'Press Ctrl-C', 30_000);
    nextLine =
      sim
        .output()
        .split('\n')
        .find(l => l.trim().startsWith('wincheck run '))
        ?.trim() ?? '';
    dir = join(work, 'reports');
    // An earlier run's suite file, which this run does not write.
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'junit_storage-old.xml'), '<testsuite name="old" tests="0" failures="0" errors="0"/>\n');
    const args = nextLine.split(/\s+/).slice(2);
    run = await wincheck([
      'run',
      ...args,
      '--strict',
      '--config',
      config,
      '--report-dir',
      dir,
      '--feature',
      'stor.emptydir-memory',
      '--feature',
      'sched.os-selector',
      '--feature',
      'net.egress',
      '--feature',
      'net.pod-to-clusterip',
      '--feature',
      'net.dual-stack',
    ]);
  });
  after(async () => {
    await sim?.stop();
  });

  it('wincheck sim prints the egress URL and the exact next command', () => {
    expect(sim.output()).to.match(/Egress URL \(a host outside the cluster\): http:\/\/\S+/);
    expect(nextLine).to.match(/^wincheck run --kubeconfig \S+ --egress-url http:\/\/\S+ --ssh-user \S+ --ssh-key \S+ --ssh-known-hosts \S+$/);
    expect(nextLine).to.contain(sim.kubeconfig);
  });

  it('the run through --kubeconfig is marked SIMULATED, and egress is checked, not n/a', () => {
    expect(run.stdout.split('\n')[0], run.all).to.match(/^SIMULATED CLUSTER \(wincheck sim, profile lifted-emptydir-memory\)/);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.run.simulated).to.equal(true);
    const egress = results.summary.results.find((r: { id: string }) => r.id === 'net.egress');
    expect(egress.outcome, egress.reason).to.equal('supported');
  });

  it('--strict with a lifted limitation: exit 1 and a <failure type="lifted"> in the JUnit', () => {
    expect(run.exitCode, run.all).to.equal(1);
    const suite = parser.parse(readFileSync(join(dir, 'junit_storage.xml'), 'utf8')).testsuite;
    const [lifted] = suite.testcase as Case[];
    expect(lifted.name).to.contain('stor.emptydir-memory');
    expect(lifted.failure?.type).to.equal('lifted');
    expect(lifted.failure?.message).to.match(/^lifted \(fails under --strict\)/);
    expect(suite.failures).to.equal('1');
  });

  it('removes the junit_*.xml of an earlier run, and says so', () => {
    expect(existsSync(join(dir, 'junit_storage-old.xml'))).to.equal(false);
    expect(run.stdout).to.contain('Removed 1 junit_*.xml of an earlier run').and.contain('junit_storage-old.xml');
    expect(
      readdirSync(dir)
        .filter(f => f.startsWith('junit_'))
        .sort(),
    ).to.deep.equal(['junit_networking.xml', 'junit_scheduling.xml', 'junit_services.xml', 'junit_storage.xml']);
  });

  it('every junit_*.xml validates against the Jenkins/xunit junit-10.xsd', async () => {
    for (const f of readdirSync(dir).filter(f => f.startsWith('junit_'))) {
      expect(await xsdErrors(f, readFileSync(join(dir, f), 'utf8')), f).to.deep.equal([]);
    }
  });

  it('the services suite names its testcases "services"; the n/a one is skipped with its reason', () => {
    const services = parser.parse(readFileSync(join(dir, 'junit_services.xml'), 'utf8')).testsuite;
    expect((services.testcase as Case[]).map(c => c.name)).to.deep.equal([
      '[sig-windows] services net.pod-to-clusterip: Windows pod → ClusterIP Service with Windows and Linux backends',
    ]);
    const net = parser.parse(readFileSync(join(dir, 'junit_networking.xml'), 'utf8')).testsuite;
    const dual = (net.testcase as Case[]).find(c => c.name.includes('net.dual-stack'))!;
    expect(dual.skipped?.message).to.match(/\S/);
  });

  it("a suite's time is wall time: never more than the run took", () => {
    // The console's last word on the run: "Failed: 1 supported, ... in 12.3s."
    const took = Number(/^(?:Passed|Failed)\b.* in (\d+(?:\.\d+)?)s\.$/m.exec(run.stdout)?.[1]);
    expect(took, run.stdout).to.be.greaterThan(0);
    for (const f of readdirSync(dir).filter(f => f.startsWith('junit_'))) {
      const suite = parser.parse(readFileSync(join(dir, f), 'utf8')).testsuite;
      expect(Number(suite.time), f).to.be.at.most(took + 0.1);
      const longest = Math.max(...(suite.testcase as Case[]).map(c => Number(c.time)));
      expect(Number(suite.time), f).to.be.at.least(longest);
    }
  });

  it('every report carries the wincheck version and the results.json schema version', () => {
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8'));
    expect(results).to.include({ schemaVersion: '2', wincheckVersion: pkg.version });
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).to.contain(`wincheck ${pkg.version}; results.json schema 2.`);
    const props = parser.parse(readFileSync(join(dir, 'junit_scheduling.xml'), 'utf8')).testsuite.properties.property as { name: string; value: string }[];
    expect(props.find(p => p.name === 'wincheck-version')?.value).to.equal(pkg.version);
    expect(props.find(p => p.name === 'results-schema-version')?.value).to.equal('2');
  });
});
