// CLI usage errors and exit codes, with the real CLI in a child process. No cluster needed.

import { expect } from 'chai';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { closedPort, deadKubeconfig, tempDir, wincheck } from '../../support/cli.ts';

const noCluster = { HOME: tempDir(), KUBECONFIG: '', KUBERNETES_SERVICE_HOST: '', NO_COLOR: '1', PATH: process.env.PATH };

describe('wincheck CLI', function () {
  this.timeout(60_000);

  it('--help exits 0 and lists the commands', async () => {
    const r = await wincheck(['--help']);
    expect(r.exitCode).to.equal(0);
    for (const c of ['run', 'list', 'discover', 'cleanup', 'sim']) expect(r.stdout).to.contain(c);
  });

  it('an unknown option is bad usage: exit 2', async () => {
    const r = await wincheck(['run', '--bogus']);
    expect(r.exitCode).to.equal(2);
    expect(r.stderr).to.contain("unknown option '--bogus'");
  });

  it('an unknown feature or suite: exit 2, listing the valid names', async () => {
    const f = await wincheck(['run', '--feature', 'sched.nope']);
    expect(f.exitCode).to.equal(2);
    expect(f.stderr.trim()).to.match(/^Error: --feature sched.nope matches nothing; valid names: .*sched.os-selector.*work.iis-pod/);
    const s = await wincheck(['run', '--suite', 'nope']);
    expect(s.exitCode).to.equal(2);
    expect(s.stderr).to.match(/^Error: --suite nope matches nothing; valid names: .*config.*scheduling.*workloads/);
  });

  it('a missing kubeconfig file: exit 2, one line naming it', async () => {
    const r = await wincheck(['run', '--kubeconfig', '/nowhere/kubeconfig']);
    expect(r.exitCode).to.equal(2);
    expect(r.stderr.trim()).to.equal('Error: kubeconfig file /nowhere/kubeconfig does not exist');
  });

  it('no cluster at all: says how to point at one or use --sim, never falls back', async () => {
    const r = await wincheck(['run'], { env: noCluster, extendEnv: false });
    expect(r.exitCode).to.equal(2);
    expect(r.stderr).to.contain('--kubeconfig').and.contain('--sim');
    expect(r.stdout).to.not.contain('SIMULATED');
  });

  it('an unreachable server: exit 3 within seconds, one line naming the server', async () => {
    const port = await closedPort();
    const started = Date.now();
    const r = await wincheck(['run', '--kubeconfig', deadKubeconfig(port)]);
    expect(r.exitCode).to.equal(3);
    expect(Date.now() - started).to.be.below(15_000);
    const lines = r.stderr.trim().split('\n');
    expect(lines).to.have.length(1);
    expect(lines[0]).to.contain(`https://127.0.0.1:${port}`).and.contain('unreachable');
  });

  it('discover and cleanup against an unreachable server: exit 3', async () => {
    const kc = deadKubeconfig(await closedPort());
    expect((await wincheck(['discover', '--kubeconfig', kc])).exitCode).to.equal(3);
    expect((await wincheck(['cleanup', '--kubeconfig', kc])).exitCode).to.equal(3);
  });

  it('a bad config file: exit 2 naming the file and the field', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'wincheck.yaml'), 'probes:\n  timeoutMs: -3\n');
    const r = await wincheck(['run', '--config', join(dir, 'wincheck.yaml')]);
    expect(r.exitCode).to.equal(2);
    expect(r.stderr.trim()).to.equal('Error: wincheck.yaml: probes.timeoutMs must be a non-negative number');
  });

  it('a bad --timeout or --context: exit 2', async () => {
    expect((await wincheck(['run', '--timeout', 'soon'])).exitCode).to.equal(2);
    const ctx = await wincheck(['run', '--kubeconfig', deadKubeconfig(1), '--context', 'nope']);
    expect(ctx.exitCode).to.equal(2);
    expect(ctx.stderr).to.contain('context nope is not in').and.contain('contexts there: dead');
  });

  it('--sim and --kubeconfig together: exit 2', async () => {
    const r = await wincheck(['run', '--sim', '--kubeconfig', '/x']);
    expect(r.exitCode).to.equal(2);
  });

  it('list prints the catalog, as text and JSON', async () => {
    const r = await wincheck(['list', '-o', 'json', '--feature', 'cfg.*-env']);
    expect(r.exitCode).to.equal(0);
    expect(JSON.parse(r.stdout).map((f: { id: string }) => f.id)).to.deep.equal(['cfg.secret-env', 'cfg.configmap-env']);
    const text = await wincheck(['list', '--suite', 'scheduling']);
    expect(text.stdout).to.match(/^scheduling +sched\.os-selector +Pod with nodeSelector/m);
  });
});
