// The sim's /metrics: apiserver_request_total counts every authenticated request by verb and
// code, as kube-apiserver does (bench/ reads it for "API requests per run").

import { expect } from 'chai';
import { sumRequestTotal } from '../../../bench/apiRequests.ts';
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
