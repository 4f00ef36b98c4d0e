// Creating many objects at once (100 nodes' HostProcess pods): the generic object client reads
// the apiVersion's resource list (is the kind namespaced?) once, not once per object. Counted in
// the sim's request log.

import { expect } from 'chai';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { makeClients } from '../../../lib/cluster/client.ts';
import { createObject } from '../../../lib/cluster/create.ts';
import { REQUEST_LOG_ENV, parseRequestLog } from '../../../sim/api/requestLog.ts';
import { startEnv, type Env } from '../../support/simApi.ts';

const configMap = (name: string): V1ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'test' }, data: { k: 'v' } });

describe('object creates: one resource-list read per apiVersion', function () {
  this.timeout(30_000);
  let env: Env;
  let file: string;
  const before = process.env[REQUEST_LOG_ENV];
  beforeEach(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'object-creates-')), 'requests.log');
    process.env[REQUEST_LOG_ENV] = file;
    env = await startEnv();
  });
  afterEach(async () => {
    await env.stop();
    if (before === undefined) delete process.env[REQUEST_LOG_ENV];
    else process.env[REQUEST_LOG_ENV] = before;
  });

  it('20 creates at once read /api/v1 once, and later creates not at all', async () => {
    const kube = makeClients(env.kc);
    await Promise.all(Array.from({ length: 20 }, (_, i) => createObject(kube, configMap(`at-once-${i}`))));
    await createObject(kube, configMap('later'));
    await env.stop();
    const lines = parseRequestLog(readFileSync(file, 'utf8'));
    expect(lines.filter(l => l.method === 'POST' && l.path === '/api/v1/namespaces/test/configmaps')).to.have.length(21);
    expect(lines.filter(l => l.method === 'GET' && l.path === '/api/v1')).to.have.length(1);
  });
});
