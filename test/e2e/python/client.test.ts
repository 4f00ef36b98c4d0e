// The official Python client (Debian's python3-kubernetes, for /usr/bin/python3) against a
// `wincheck sim` process: it sends watch=True, execs over its own websocket code and reads
// logs. Skips, saying why, where the module is absent (.ci/run installs it).

import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { execa } from 'execa';
import { startSimProcess, type SimProcess } from '../../support/simProcess.ts';

const PYTHON = '/usr/bin/python3';

function pythonClientVersion(): string | undefined {
  try {
    return execFileSync(PYTHON, ['-c', 'import kubernetes; print(kubernetes.__version__)'], { encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

describe('sim: the official Python client', function () {
  this.timeout(180_000);
  let sim: SimProcess | undefined;
  after(async () => {
    await sim?.stop('SIGTERM');
  });

  it('watches (watch=True), execs and reads logs', async function () {
    const version = pythonClientVersion();
    if (!version) {
      console.log(`    (the Python module "kubernetes" is not importable by ${PYTHON}: apt-get install -y python3-kubernetes; skipped)`);
      this.skip();
    }
    sim = await startSimProcess();
    const r = await execa(PYTHON, [join(import.meta.dirname, 'client.py'), sim.kubeconfig, 'python'], { reject: false, timeout: 150_000 });
    expect(r.exitCode, `python client ${version}:\n${r.stderr}`).to.equal(0);
    const got = JSON.parse(r.stdout) as { watch: [string, string, string][]; exec: string; logs: string };
    expect(got.watch[0][0]).to.equal('ADDED');
    expect(got.watch.at(-1)).to.deep.equal(['MODIFIED', 'py', 'Running']);
    expect(got.exec.trim()).to.equal('py');
    expect(got.logs).to.include('hello from py');
  });
});
