// The harness against the simulated cluster, as a user runs it: `wincheck run --sim`, and
// `wincheck run --kubeconfig` against a separate `wincheck sim` process whose objects the test
// can then inspect. Skips, saying why, while sim/index.ts does not exist.

import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { connect } from 'node:net';
import { CoreV1Api, KubeConfig, NodeV1Api } from '@kubernetes/client-node';
import { XMLParser } from 'fast-xml-parser';
import { ROOT, startWincheck, tempDir, wincheck } from '../../support/cli.ts';

const SIM_ENTRY = join(ROOT, 'sim', 'index.ts');
const FIRST_FEATURES = [
  'sched.os-selector',
  'sched.os-selector-beta',
  'sched.linux-stays-linux',
  'sched.pod-os-field',
  'sched.taint-toleration',
  'sched.runtimeclass-scheduling',
  'work.iis-pod',
  'work.deployment',
  'work.daemonset',
  'cfg.secret-env',
  'cfg.configmap-env',
];

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: n => n === 'testcase' || n === 'property' });

function testcases(dir: string): { file: string; name: string; skipped?: unknown; failure?: unknown; error?: unknown }[] {
  return readdirSync(dir)
    .filter(f => /^junit_.*\.xml$/.test(f))
    .flatMap(file => (parser.parse(readFileSync(join(dir, file), 'utf8')).testsuite.testcase ?? []).map((t: { name: string }) => ({ file, ...t })));
}

function runIdOf(output: string): string {
  const m = /Namespace:\s+wincheck-(\S+)/.exec(output);
  if (!m) throw new Error(`no namespace line in the output:\n${output}`);
  return m[1];
}

describe('harness against the simulated cluster', function () {
  this.timeout(300_000);

  before(function () {
    if (!existsSync(SIM_ENTRY)) {
      console.log(`    (skipped: ${SIM_ENTRY} does not exist yet; these tests run once the simulated cluster lands)`);
      this.skip();
    }
  });

  it('wincheck run --sim: exit 0, one testcase per feature, every report says SIMULATED first', async () => {
    const dir = tempDir();
    const r = await wincheck(['run', '--sim', '--report-dir', dir, ...FIRST_FEATURES.flatMap(f => ['--feature', f])]);
    expect(r.exitCode, r.all).to.equal(0);
    expect(r.stdout.split('\n')[0]).to.contain('SIMULATED CLUSTER');
    const names = testcases(dir).map(t => t.name.split(' ')[2].replace(/:$/, ''));
    expect(names.sort()).to.deep.equal([...FIRST_FEATURES].sort());
    // report.html must open with its doctype: there, SIMULATED is the first thing the page shows.
    for (const f of readdirSync(dir).filter(f => f !== 'report.html'))
      expect(readFileSync(join(dir, f), 'utf8').split('\n')[0], f).to.contain('SIMULATED CLUSTER');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).to.match(/<body>\n<h1>[^\n]*<\/h1>\n<p class="meta">[^\n]*<\/p>\n<p class="sim">SIMULATED CLUSTER/);
    expect(r.stdout).to.match(/\[ ?\d+\/11\] sched\.os-selector +supported/);
  });

  it('wincheck sim --client-cert hands out a certificate with its kubeconfig, which discover and cleanup use as is', async () => {
    const { startSimProcess } = await import('../../support/simProcess.ts');
    const sim = await startSimProcess(['--client-cert', 'ops=system:masters', '--client-cert', 'jane=devs']);
    try {
      const dir = dirname(sim.kubeconfig);
      expect(sim.output()).to.contain(`Client certificate for ops (groups system:masters): kubeconfig ${join(dir, 'ops.kubeconfig')}.`);
      expect(sim.output()).to.contain(`Client certificate for jane (groups devs): kubeconfig ${join(dir, 'jane.kubeconfig')}.`);
      const ops = await wincheck(['discover', '--kubeconfig', join(dir, 'ops.kubeconfig'), '--output', 'json']);
      expect(ops.exitCode, ops.all).to.equal(0);
      // jane's groups have no rights: the API server knows her, and says so by name.
      const jane = await wincheck(['cleanup', '--kubeconfig', join(dir, 'jane.kubeconfig')]);
      expect(jane.exitCode, jane.all).to.not.equal(0);
      expect(jane.all).to.contain('User "jane" cannot list');
    } finally {
      await sim.stop('SIGINT');
    }
  });

  it('wincheck sim: a bad profile is one line and exit 2; SIGINT stops it with exit 0 and no listener', async () => {
    const bad = await wincheck(['sim', '--profile', 'no-such-profile', '--kubeconfig-out', join(tempDir(), 'kc')]);
    expect(bad.exitCode, bad.all).to.equal(2);
    expect(bad.stderr.trim().split('\n')).to.have.length(1);
    const { startSimProcess } = await import('../../support/simProcess.ts');
    const sim = await startSimProcess();
    const server = new URL(/server: (\S+)/.exec(readFileSync(sim.kubeconfig, 'utf8'))![1]);
    expect(await sim.stop('SIGINT'), sim.output()).to.equal(0);
    const refused = await new Promise<boolean>(res => {
      const s = connect(Number(server.port), server.hostname);
      s.on('connect', () => {
        s.destroy();
        res(false);
      });
      s.on('error', () => res(true));
    });
    expect(refused, `${server.host} still listens`).to.equal(true);
  });

  describe('against a separate wincheck sim process', () => {
    let sim: import('../../support/simProcess.ts').SimProcess;
    let core: CoreV1Api;
    let node: NodeV1Api;

    before(async () => {
      const { startSimProcess } = await import('../../support/simProcess.ts');
      sim = await startSimProcess();
      const kc = new KubeConfig();
      kc.loadFromFile(sim.kubeconfig);
      core = kc.makeApiClient(CoreV1Api);
      node = kc.makeApiClient(NodeV1Api);
    });

    after(async () => {
      if (sim) await sim.stop('SIGTERM');
    });

    async function leftovers(runId: string): Promise<string[]> {
      const sel = { labelSelector: `wincheck.io/run-id=${runId}` };
      const [ns, rcs, pods] = await Promise.all([core.listNamespace(sel), node.listRuntimeClass(sel), core.listPodForAllNamespaces(sel)]);
      const named = await core.listNamespace({ fieldSelector: `metadata.name=wincheck-${runId}` });
      return [...ns.items, ...rcs.items, ...pods.items, ...named.items].map(o => `${o.kind ?? 'object'} ${o.metadata?.name}`);
    }

    it('wincheck discover prints the cluster, as text and JSON', async () => {
      const text = await wincheck(['discover', '--kubeconfig', sim.kubeconfig]);
      expect(text.exitCode, text.all).to.equal(0);
      expect(text.stdout)
        .to.match(/^Server: +https:\/\/127\./m)
        .and.match(/win-2022-1: windows build 10\.0\.20348/);
      const json = await wincheck(['discover', '--kubeconfig', sim.kubeconfig, '-o', 'json']);
      const info = JSON.parse(json.stdout);
      expect(info.nodes.filter((n: { os: string }) => n.os === 'windows')).to.have.length(2);
      expect(info.version.gitVersion).to.equal('v1.33.2');
      expect(info.hypervRuntimeClass).to.be.a('string');
    });

    it('--suite and --feature select exactly, and nothing with the run label remains after', async () => {
      const dir = tempDir();
      // The scheduling suite grows as features land: compare with what the catalog lists for it.
      const listed = JSON.parse((await wincheck(['list', '-o', 'json', '--suite', 'scheduling'])).stdout) as { id: string; suite: string; title: string }[];
      const r = await wincheck(['run', '--kubeconfig', sim.kubeconfig, '--report-dir', dir, '--suite', 'scheduling', '--feature', 'cfg.*-env']);
      expect(r.exitCode, r.all).to.equal(0);
      // Through a plain kubeconfig, but the sim advertises itself (a kube-system ConfigMap discovery reads).
      expect(r.stdout.split('\n')[0]).to.match(/^SIMULATED CLUSTER \(wincheck sim, profile default\)/);
      const names = testcases(dir).map(t => t.name);
      expect(names.sort()).to.deep.equal(
        [
          '[sig-windows] config cfg.configmap-env: ConfigMap keys as env vars',
          '[sig-windows] config cfg.secret-env: Secret keys as env vars with the right values',
          ...listed.map(f => `[sig-windows] ${f.suite} ${f.id}: ${f.title}`),
        ].sort(),
      );
      expect(names).to.include('[sig-windows] scheduling sched.os-selector: Pod with nodeSelector kubernetes.io/os=windows lands on a Windows node only');
      expect(await leftovers(runIdOf(r.stdout))).to.deep.equal([]);
    });

    it('secret values appear nowhere in the reports or the output (kept run, then wincheck cleanup)', async () => {
      const dir = tempDir();
      const r = await wincheck(['run', '--kubeconfig', sim.kubeconfig, '--report-dir', dir, '--feature', 'cfg.secret-env', '--keep']);
      expect(r.exitCode, r.all).to.equal(0);
      const runId = runIdOf(r.stdout);
      const secret = await core.readNamespacedSecret({ namespace: `wincheck-${runId}`, name: 'secret-env' });
      const values = Object.values(secret.data ?? {}).map(v => Buffer.from(v, 'base64').toString());
      expect(values).to.have.length(2);
      const everything = [r.all ?? '', ...readdirSync(dir).map(f => readFileSync(join(dir, f), 'utf8'))].join('\n');
      for (const v of values) {
        expect(everything).to.not.contain(v);
        expect(everything).to.not.contain(Buffer.from(v).toString('base64'));
      }
      // The hint names the cluster: run from another shell, a bare "wincheck cleanup" would target ~/.kube/config.
      expect(r.stdout).to.contain(`remove it with: wincheck cleanup --kubeconfig ${sim.kubeconfig} --context `).and.contain(` --run-id ${runId}`);
      const c = await wincheck(['cleanup', '--kubeconfig', sim.kubeconfig, '--run-id', runId]);
      expect(c.exitCode, c.all).to.equal(0);
      expect(c.stdout).to.contain(`Deleted namespace wincheck-${runId}.`);
      expect(await leftovers(runId)).to.deep.equal([]);
    });

    it('SIGINT mid-run: the run stops, deletes its namespace and objects, and exits', async () => {
      const proc = startWincheck(['run', '--kubeconfig', sim.kubeconfig, '--report-dir', tempDir(), ...FIRST_FEATURES.flatMap(f => ['--feature', f])]);
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no fixtures deployed within 60s:\n${out}`)), 60_000);
        proc.all!.on('data', (d: Buffer) => {
          out += d.toString();
          if (/Deploying \d+ fixture/.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      proc.kill('SIGINT');
      const r = await proc;
      expect(r.exitCode, String(r.all)).to.equal(130);
      expect(String(r.stdout)).to.contain('SIGINT: stopping');
      expect(await leftovers(runIdOf(out))).to.deep.equal([]);
    });
  });
});
