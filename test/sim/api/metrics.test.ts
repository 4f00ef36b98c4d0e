// The sim's /metrics: apiserver_request_total counts every authenticated request by verb and
// code, as kube-apiserver does (bench/ reads it for "API requests per run").

import { expect } from 'chai';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sumRequestTotal } from '../../../bench/apiRequests.ts';
import { REQUEST_LOG_ENV, parseRequestLog } from '../../../sim/api/requestLog.ts';
import { raw, startEnv, type Env } from '../../support/simApi.ts';

describe('sim api: /metrics apiserver_request_total', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
  });
  after(async () => {
    await env.stop();
  });

  it('counts each request once it completes, by verb and code; scrapes of /metrics are not counted', async () => {
    const before = sumRequestTotal((await raw(env, 'GET', '/metrics')).body);
    await raw(env, 'GET', '/api/v1/namespaces');
    await raw(env, 'GET', '/api/v1/namespaces/default');
    await raw(env, 'GET', '/api/v1/namespaces/nope');
    const text = (await raw(env, 'GET', '/metrics')).body;
    expect(sumRequestTotal(text) - before).to.equal(3);
    expect(text).to.match(/^# TYPE apiserver_request_total counter$/m);
    expect(text).to.match(/^apiserver_request_total\{verb="GET",code="404"\} [1-9]\d*$/m);
  });

  it('needs credentials like any other path', async () => {
    expect((await raw(env, 'GET', '/metrics', { auth: false })).status).to.equal(401);
  });

  it('sumRequestTotal adds every sample and ignores other metrics', () => {
    expect(
      sumRequestTotal(
        '# TYPE apiserver_request_total counter\napiserver_request_total{verb="GET",code="200"} 7\napiserver_request_total{verb="POST",code="201"} 3\nother_total 100\n',
      ),
    ).to.equal(10);
  });
});

describe('sim api: the request log (WINCHECK_SIM_REQUEST_LOG)', () => {
  it('writes one line per request once it completes: method, path, query, code and the body size', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'sim-requests-')), 'requests.log');
    const before = process.env[REQUEST_LOG_ENV];
    process.env[REQUEST_LOG_ENV] = file;
    let env: Env | undefined;
    try {
      env = await startEnv();
      const list = await raw(env, 'GET', '/api/v1/namespaces?limit=2');
      await raw(env, 'GET', '/api/v1/namespaces/nope');
      await raw(env, 'GET', '/metrics');
      await env.stop();
      env = undefined;
      const lines = parseRequestLog(readFileSync(file, 'utf8'));
      expect(lines.map(l => [l.method, l.path, l.query, l.code])).to.deep.equal([
        ['GET', '/api/v1/namespaces', 'limit=2', 200],
        ['GET', '/api/v1/namespaces/nope', '', 404],
      ]);
      expect(lines[0].bytes).to.equal(Buffer.byteLength(list.body));
      expect(lines[1].bytes).to.be.greaterThan(0);
    } finally {
      await env?.stop();
      if (before === undefined) delete process.env[REQUEST_LOG_ENV];
      else process.env[REQUEST_LOG_ENV] = before;
    }
  });
});
