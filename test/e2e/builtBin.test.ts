// The built bin behaves as the TypeScript does: `npm run build` (made here when dist/ is stale),
// then the CLI run from dist/ as a user's installed `wincheck` and the image's entrypoint
// (`node dist/cli/main.js`) run it, with no TypeScript loader: `list` prints what the sources
// print; `run --sim` on one suite writes its reports with the verdicts the sources give; and
// `wincheck sim` started from dist/ runs the ci/in-cluster Job, whose process the sim starts
// from its own tree (util/paths.ts cliArgv), to completion.

import { expect } from 'chai';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { parseAllDocuments } from 'yaml';
import { ensureBuilt } from '../support/build.ts';
import { ROOT, tempDir, wincheck } from '../support/cli.ts';
import { kubectl, kubectlBinary } from '../support/kubectl.ts';
import { BUILT_CLI, startSimProcess, type SimProcess } from '../support/simProcess.ts';

const SUITE = 'scheduling';
const JOB_FEATURE = 'sched.os-selector';

async function built(args: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const r = await execa(process.execPath, [...BUILT_CLI, ...args], { cwd: tempDir(), reject: false, env: { NO_COLOR: '1' } });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr) };
}

interface StoredResult {
  id: string;
  build?: string;
  outcome: string;
}

function verdicts(dir: string): Record<string, string> {
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')).summary.results as StoredResult[];
  return Object.fromEntries(results.map(r => [r.build ? `${r.id} [${r.build}]` : r.id, r.outcome]));
}

describe('the built bin (dist/) behaves as the sources', function () {
  this.timeout(300_000);

  before(async () => {
    await ensureBuilt();
  });

  it('wincheck list: the bin (cli/wincheck.js) and dist/cli/main.js print what the sources print', async () => {
    const source = await wincheck(['list']);
    const dist = await built(['list']);
    const bin = await execa(process.execPath, [join(ROOT, 'cli/wincheck.js'), 'list'], { cwd: tempDir(), reject: false, env: { NO_COLOR: '1' } });
    expect(dist.exitCode, dist.stderr).to.equal(0);
    expect(dist.stdout).to.equal(source.stdout);
    expect(String(bin.stdout)).to.equal(source.stdout);
  });

  it(`wincheck run --sim --suite ${SUITE} from dist/: exit 0, its reports written, the verdicts of the sources`, async () => {
    const distDir = tempDir();
    const sourceDir = tempDir();
    const dist = await built(['run', '--sim', '--suite', SUITE, '--report-dir', distDir]);
    expect(dist.exitCode, `${dist.stdout}\n${dist.stderr}`).to.equal(0);
    const files = readdirSync(distDir);
    expect(files).to.include.members(['results.json', 'summary.md', 'report.html', `junit_${SUITE}.xml`]);
    const source = await wincheck(['run', '--sim', '--suite', SUITE, '--report-dir', sourceDir]);
    expect(source.exitCode, source.all).to.equal(0);
    const fromDist = verdicts(distDir);
    expect(Object.keys(fromDist)).to.have.length.greaterThan(0);
    expect(fromDist).to.deep.equal(verdicts(sourceDir));
  });

  describe('wincheck sim started from dist/ runs the ci/in-cluster Job', () => {
    let sim: SimProcess | undefined;
    let bin = '';
    before(async function () {
      const b = kubectlBinary('1.33');
      if (!b) {
        console.log('    (kubectl.1.33 is not on this machine: skipped)');
        this.skip();
      }
      bin = b;
      sim = await startSimProcess([], 60_000, BUILT_CLI);
    });
    after(async () => {
      await sim?.stop('SIGTERM');
    });

    it('the Job completes in-cluster and its ConfigMap holds the verdict', async () => {
      const k = (args: string[], input?: string) => kubectl(bin, sim!.kubeconfig, args, { input });
      const dir = join(ROOT, 'ci/in-cluster');
      for (const f of [join(ROOT, 'ci/rbac.yaml'), join(dir, '00-namespace.yaml'), join(dir, '10-rbac.yaml')]) {
        const r = await k(['apply', '-f', f]);
        expect(r.exitCode, `${f}: ${r.stderr}`).to.equal(0);
      }
      const job = parseAllDocuments(readFileSync(join(dir, '20-job.yaml'), 'utf8'))[0].toJS();
      job.spec.template.spec.containers[0].args.push('--feature', JOB_FEATURE);
      const applied = await k(['apply', '-f', '-'], JSON.stringify(job));
      expect(applied.exitCode, applied.stderr).to.equal(0);
      // kubectl wait watches the Job; a failure shows the Job's log (a missing entry shows there).
      const wait = await k(['wait', '--for=condition=Complete', 'job/wincheck', '-n', 'wincheck', '--timeout=120s']);
      const logs = await k(['logs', 'job/wincheck', '-n', 'wincheck']);
      expect(wait.exitCode, `${wait.stderr}\nJob log:\n${logs.stdout}${logs.stderr}\nsim:\n${sim!.output()}`).to.equal(0);
      expect(logs.stdout).to.include('in-cluster service account');
      expect(logs.stdout).to.not.include('Cannot find module');
      const cm = JSON.parse((await k(['get', 'configmap', 'wincheck-results', '-n', 'wincheck', '-o', 'json'])).stdout);
      const results = JSON.parse(cm.data['results.json']).summary.results as StoredResult[];
      expect(results.map(r => [r.id, r.outcome])).to.deep.equal([[JOB_FEATURE, 'supported']]);
    });
  });

  it('dist/ holds what the build runs from: the catalog index, every area fixture folder, the sim profiles', () => {
    expect(existsSync(join(ROOT, 'dist/lib/catalog/catalog-index.json'))).to.equal(true);
    for (const d of readdirSync(join(ROOT, 'lib/catalog'), { withFileTypes: true }))
      if (d.isDirectory() && existsSync(join(ROOT, 'lib/catalog', d.name, 'fixtures')))
        expect(existsSync(join(ROOT, 'dist/lib/catalog', d.name, 'fixtures')), `dist/lib/catalog/${d.name}/fixtures`).to.equal(true);
    expect(readdirSync(join(ROOT, 'dist/sim/profiles/builtin')).sort()).to.deep.equal(readdirSync(join(ROOT, 'sim/profiles/builtin')).sort());
  });
});
