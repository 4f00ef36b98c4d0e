// Sim security: any invalid credential gets 401 on any path, the kubeconfig
// the sim writes is always 0600, and temp dirs of killed `run --sim` processes do not survive.

import https from 'node:https';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { generateClusterCerts, rsaKeys } from '../../../sim/api/certs.ts';
import { writePrivateFile } from '../../../sim/index.ts';
import { removeStaleSimDirs } from '../../../cli/simWiring.ts';
import { startEnv, type Env } from '../../support/simApi.ts';

function get(env: Env, path: string, o: { token?: string; cert?: { cert: string; key: string } } = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      new URL(path, env.api.url),
      {
        ca: env.api.caPem,
        headers: o.token !== undefined ? { Authorization: o.token } : {},
        ...(o.cert ? { cert: o.cert.cert, key: o.cert.key } : {}),
      },
      res => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('sim security', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
  });
  after(async () => {
    await env.stop();
  });

  for (const path of ['/version', '/healthz', '/readyz', '/api', '/api/v1/namespaces'])
    it(`answers 401 to an invalid credential on ${path}`, async () => {
      expect(await get(env, path, { token: 'Bearer not-the-token' })).to.equal(401);
      expect(await get(env, path, { token: 'Basic YWRtaW46YWRtaW4=' })).to.equal(401);
      expect(await get(env, path, { token: `Bearer ${env.api.token}` })).to.equal(200);
    });

  it('answers 401 to a client certificate from another CA, even on /version', async () => {
    const other = generateClusterCerts({ ca: rsaKeys(1024), server: rsaKeys(1024), client: rsaKeys(1024) });
    expect(await get(env, '/version', { cert: { cert: other.clientCertPem, key: other.clientKeyPem } })).to.equal(401);
  });

  it('still serves /version anonymously (no credential at all), as kube-apiserver does', async () => {
    expect(await get(env, '/version')).to.equal(200);
    expect(await get(env, '/api')).to.equal(401);
  });

  it('writes credential files 0600 even over an existing 0644 file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wincheck-sec-'));
    try {
      const file = join(dir, 'kubeconfig');
      writeFileSync(file, 'old', { mode: 0o644 });
      await writePrivateFile(file, 'token: secret');
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(existsSync(`${file}.${process.pid}.tmp`)).to.equal(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('removes the temp dirs of sim runs whose process is gone, and only those', () => {
    const root = mkdtempSync(join(tmpdir(), 'wincheck-sec-'));
    try {
      // A pid that surely exited: a child we ran to completion.
      const dead = spawnSync(process.execPath, ['-e', '0']).pid;
      mkdirSync(join(root, `wincheck-sim-${dead}-abc123`));
      mkdirSync(join(root, `wincheck-sim-${process.pid}-def456`));
      mkdirSync(join(root, 'wincheck-simrun-xyz'));
      expect(removeStaleSimDirs(root)).to.deep.equal([`wincheck-sim-${dead}-abc123`]);
      expect(existsSync(join(root, `wincheck-sim-${process.pid}-def456`))).to.equal(true);
      expect(existsSync(join(root, 'wincheck-simrun-xyz'))).to.equal(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
