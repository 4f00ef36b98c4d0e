// The Sonobuoy plugin (ci/sonobuoy/wincheck-plugin.yaml): its container command, run here under
// the plugin contract (SONOBUOY_RESULTS_DIR set, the cluster reached as the pod would, here a
// `wincheck sim` through KUBECONFIG), leaves results.tar.gz with the JUnit and a "done" file
// naming it where the Sonobuoy worker looks; also when the cluster cannot be reached.

import { expect } from 'chai';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { ROOT, deadKubeconfig, tempDir } from '../../support/cli.ts';
import { startSimProcess, type SimProcess } from '../../support/simProcess.ts';
import { xsdErrors } from '../../support/xsd.ts';

interface Plugin {
  'sonobuoy-config': { driver: string; 'plugin-name': string; 'result-format': string };
  spec: {
    command: string[];
    args: string[];
    env: { name: string; value: string }[];
    volumeMounts: { mountPath: string; name: string }[];
    securityContext: { runAsNonRoot: boolean };
  };
}

const plugin = parse(readFileSync(join(ROOT, 'ci/sonobuoy/wincheck-plugin.yaml'), 'utf8')) as Plugin;
const IMAGE_ROOT = '/opt/wincheck/';

/** The plugin's command as this checkout runs it: the image's /opt/wincheck/dist/cli/main.js is cli/main.ts here. */
function pluginCommand(extra: string[]): [string, string[]] {
  const [node, entry] = plugin.spec.command;
  expect(node).to.equal('node');
  expect(entry).to.equal(`${IMAGE_ROOT}dist/cli/main.js`);
  return [process.execPath, ['--import', 'tsx', join(ROOT, 'cli/main.ts'), ...plugin.spec.args, ...extra]];
}

async function runPlugin(resultsDir: string, kubeconfig: string, extra: string[]) {
  const [cmd, args] = pluginCommand(extra);
  mkdirSync(resultsDir, { recursive: true });
  return execa(cmd, args, { cwd: ROOT, reject: false, all: true, env: { SONOBUOY_RESULTS_DIR: resultsDir, KUBECONFIG: kubeconfig, NO_COLOR: '1' } });
}

async function tarList(tarball: string): Promise<string[]> {
  return String((await execa('tar', ['-tzf', tarball])).stdout)
    .split('\n')
    .map(f => f.replace(/^\.\//, ''))
    .filter(Boolean)
    .sort();
}

describe('Sonobuoy plugin (ci/sonobuoy)', function () {
  this.timeout(180_000);
  let sim: SimProcess;
  before(async () => {
    sim = await startSimProcess();
  });
  after(async () => {
    await sim?.stop();
  });

  it("is a Job plugin with JUnit results, its results volume where SONOBUOY_RESULTS_DIR points, run as non-root by the Dockerfile's entrypoint", () => {
    expect(plugin['sonobuoy-config']).to.include({ driver: 'Job', 'plugin-name': 'wincheck', 'result-format': 'junit' });
    const dir = plugin.spec.env.find(e => e.name === 'SONOBUOY_RESULTS_DIR')!.value;
    expect(plugin.spec.volumeMounts.map(m => m.mountPath)).to.include(dir);
    expect(plugin.spec.args.slice(0, 2)).to.deep.equal(['run', '--sonobuoy']);
    expect(plugin.spec.securityContext.runAsNonRoot).to.equal(true);
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).to.match(/^USER node$/m);
    expect(dockerfile).to.contain(`ENTRYPOINT ["node", "${plugin.spec.command[1]}"]`);
    expect(dockerfile)
      .to.match(/^COPY --from=build \/src\/dist \.\/dist$/m)
      .and.match(/^WORKDIR \/opt\/wincheck$/m);
  });

  it('leaves results.tar.gz with valid JUnit and a done file naming it', async () => {
    const dir = join(tempDir('wincheck-sonobuoy-'), 'results');
    const r = await runPlugin(dir, sim.kubeconfig, ['--feature', 'sched.os-selector', '--feature', 'cfg.secret-env']);
    expect(r.exitCode, String(r.all)).to.equal(0);
    const done = readFileSync(join(dir, 'done'), 'utf8').trim();
    expect(done).to.equal(join(dir, 'results.tar.gz'));
    const files = await tarList(done);
    expect(files).to.include.members(['junit_config.xml', 'junit_scheduling.xml', 'summary.md', 'results.json', 'report.html']);
    expect(files).to.not.include('done');
    const out = tempDir('wincheck-sonobuoy-x-');
    await execa('tar', ['-xzf', done, '-C', out]);
    for (const f of files.filter(f => f.startsWith('junit_'))) expect(await xsdErrors(f, readFileSync(join(out, f), 'utf8')), f).to.deep.equal([]);
    expect(readFileSync(join(out, 'junit_config.xml'), 'utf8')).to.contain('cfg.secret-env');
  });

  it('an unreachable cluster still ends with the done file (and why, in error.txt): the aggregator never waits it out', async () => {
    const dir = join(tempDir('wincheck-sonobuoy-'), 'results');
    const r = await runPlugin(dir, deadKubeconfig(1), ['--feature', 'sched.os-selector']);
    expect(r.exitCode).to.equal(3);
    const done = readFileSync(join(dir, 'done'), 'utf8').trim();
    expect(await tarList(done)).to.include('error.txt');
    expect(readFileSync(join(dir, 'error.txt'), 'utf8')).to.match(/127\.0\.0\.1:1/);
  });
});
