// The one retry policy (lib/cluster/resilience.ts) against a scripted HTTP server: 429 with
// Retry-After, 5xx and connection resets are retried; 4xx are not; a stalled answer hits the
// per-attempt deadline; an abort ends a call at once. Plus the watch's connect deadline, and
// rawGet (lib/cluster/rawGet.ts) under the same policy, also against the sim's injected faults.

import { expect } from 'chai';
import http from 'node:http';
import type { Socket } from 'node:net';
import { ApiException, KubeConfig } from '@kubernetes/client-node';
import { makeClients } from '../../../lib/cluster/client.ts';
import { createObject } from '../../../lib/cluster/create.ts';
import { connectWithRetries, DEFAULT_RETRY_POLICY, isTransportFailure, retryAfterMs } from '../../../lib/cluster/resilience.ts';
import { openWatch } from '../../../lib/cluster/watch.ts';
import { rawGet } from '../../../lib/cluster/rawGet.ts';
import { PROFILE, startEnv } from '../../support/simApi.ts';

type Step = 'reset' | 'stall' | 'slow-body' | 'stalled-body' | { status: number; body?: unknown; headers?: Record<string, string> };

describe('API call retries and deadlines', function () {
  this.timeout(30_000);
  let server: http.Server;
  let script: Step[] = [];
  let seen: string[] = [];
  const sockets = new Set<Socket>();
  let kc: KubeConfig;

  before(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url?.split('?')[0]}`);
      const step = script.shift() ?? { status: 200, body: { kind: 'NamespaceList', apiVersion: 'v1', metadata: {}, items: [] } };
      if (step === 'reset') {
        req.socket.destroy();
        return;
      }
      if (step === 'stall') return;
      if (step === 'slow-body' || step === 'stalled-body') {
        // The answer at once, its body in pieces: after 1.5 s (past the answer's deadline), or never.
        const body = JSON.stringify({ kind: 'NamespaceList', apiVersion: 'v1', metadata: {}, items: [{ metadata: { name: 'slow' } }] });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write(body.slice(0, 10));
        if (step === 'slow-body') setTimeout(() => res.end(body.slice(10)), 1_500);
        return;
      }
      res.writeHead(step.status, { 'Content-Type': 'application/json', ...step.headers });
      res.end(JSON.stringify(step.body ?? { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: step.status, message: `scripted ${step.status}` }));
    });
    server.on('connection', s => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', () => r()));
    kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `http://127.0.0.1:${(server.address() as { port: number }).port}`, skipTLSVerify: true }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
      currentContext: 'x',
    });
  });
  beforeEach(() => {
    script = [];
    seen = [];
  });
  after(async () => {
    for (const s of sockets) s.destroy();
    await new Promise(r => server.close(r));
  });

  const fast = { policy: { ...DEFAULT_RETRY_POLICY, baseBackoffMs: 10, maxBackoffMs: 50, requestTimeoutMs: 1_000 } };

  it('retries 500, 503 and a connection reset, then succeeds', async () => {
    script = [{ status: 500 }, 'reset', { status: 503 }];
    const list = await makeClients(kc, fast).core.listNamespace();
    expect(list.items).to.deep.equal([]);
    expect(seen).to.have.length(4);
  });

  it('honours Retry-After on 429', async () => {
    script = [{ status: 429, headers: { 'Retry-After': '1' } }];
    const t = Date.now();
    await makeClients(kc, fast).core.listNamespace();
    expect(Date.now() - t).to.be.at.least(950);
    expect(seen).to.have.length(2);
    expect(retryAfterMs('2')).to.equal(2000);
    expect(retryAfterMs(new Date(Date.now() + 3000).toUTCString())).to.be.within(1000, 3000);
  });

  it('does not retry a 403 or 404, and gives up after its attempts naming the last status', async () => {
    script = [{ status: 403 }];
    const e = await makeClients(kc, fast)
      .core.listNamespace()
      .catch(x => x);
    expect(e).to.be.instanceOf(ApiException);
    expect((e as ApiException<unknown>).code).to.equal(403);
    expect(seen).to.have.length(1);
    seen = [];
    script = Array(5).fill({ status: 500 });
    const e2 = await makeClients(kc, fast)
      .core.listNamespace()
      .catch(x => x);
    expect((e2 as ApiException<unknown>).code).to.equal(500);
    expect(String((e2 as ApiException<string>).body)).to.contain('scripted 500');
    expect(seen).to.have.length(5);
  });

  it('a stalled answer ends at the per-attempt deadline, naming it', async () => {
    script = ['stall'];
    const t = Date.now();
    const e = await makeClients(kc, fast)
      .core.listNamespace()
      .catch(x => x);
    expect(Date.now() - t).to.be.below(2_500);
    expect((e as Error).message).to.equal('GET /api/v1/namespaces: no answer from the API server within 1s');
  });

  it("a body slower than the answer's deadline is read under its own deadline; a body that never ends hits that one, naming it", async () => {
    script = ['slow-body'];
    const list = await makeClients(kc, fast).core.listNamespace();
    expect(list.items.map(n => n.metadata?.name)).to.deep.equal(['slow']);
    script = Array(5).fill('stalled-body');
    const e = await makeClients(kc, { policy: { ...fast.policy, attempts: 1, bodyTimeoutMs: 1_000 } })
      .core.listNamespace()
      .catch(x => x);
    expect((e as Error).message).to.equal("GET /api/v1/namespaces: the answer's body did not arrive within 1s");
    expect(isTransportFailure(e)).to.equal(true);
  });

  it('an abort ends the call in flight at once', async () => {
    script = ['stall'];
    const stop = new AbortController();
    const t = Date.now();
    setTimeout(() => stop.abort(new Error('interrupted by SIGINT')), 100);
    const e = await makeClients(kc, { signal: stop.signal })
      .core.listNamespace()
      .catch(x => x);
    expect(Date.now() - t).to.be.below(1_000);
    expect((e as Error).message).to.match(/interrupted/);
  });

  it('a create retried after a reset that comes back 409 is ours when it carries our run label', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'n', labels: { 'wincheck.io/run-id': 'r1' } } };
    script = [
      {
        status: 200,
        body: { kind: 'APIResourceList', groupVersion: 'v1', resources: [{ name: 'configmaps', namespaced: true, kind: 'ConfigMap', verbs: [] }] },
      },
      'reset',
      { status: 409, body: { kind: 'Status', code: 409, reason: 'AlreadyExists', message: 'configmaps "x" already exists' } },
      { status: 200, body: cm },
    ];
    const got = await createObject(makeClients(kc, fast), cm);
    expect(got.metadata?.name).to.equal('x');
    script = [
      { status: 409, body: { kind: 'Status', code: 409, message: 'configmaps "x" already exists' } },
      { status: 200, body: { ...cm, metadata: { ...cm.metadata, labels: { 'wincheck.io/run-id': 'someone-else' } } } },
    ];
    const e = await createObject(makeClients(kc, fast), cm).catch(x => x);
    expect((e as Error).message).to.match(/failed to create ConfigMap n\/x: configmaps "x" already exists/);
  });

  it('rawGet (paths the generated clients lack) follows the same policy: retries, Retry-After, deadline, abort', async () => {
    const client = makeClients(kc, fast);
    script = [{ status: 500 }, 'reset', { status: 429, headers: { 'Retry-After': '0' } }, { status: 200, body: { gitVersion: 'v1.33.1' } }];
    const r = await rawGet(client, '/version');
    expect(r).to.deep.equal({ status: 200, body: JSON.stringify({ gitVersion: 'v1.33.1' }) });
    expect(seen).to.have.length(4);
    script = ['stall'];
    const slow = await rawGet(client, '/version', { attempts: 1 }).catch(x => x);
    expect((slow as Error).message).to.equal('GET /version: no answer from the API server within 1s');
    script = ['stall'];
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const t = Date.now();
    const cut = await rawGet({ kc, signal: stop.signal }, '/version').catch(x => x);
    expect(Date.now() - t).to.be.below(1_000);
    expect((cut as Error).message).to.match(/interrupted/);
  });

  it("rawGet gets through the sim's injected faults (30% 429/500, 20% resets) where one attempt does not", async () => {
    const env = await startEnv({ profile: { ...PROFILE, faults: { seed: 4, apiErrorRate: 0.3, connResetRate: 0.2 } } });
    try {
      const client = makeClients(env.kc, fast);
      const statuses = await Promise.all(Array.from({ length: 20 }, () => rawGet(client, '/api/v1/nodes').then(r => r.status)));
      expect(statuses).to.deep.equal(Array(20).fill(200));
      const once = await Promise.all(
        Array.from({ length: 20 }, () =>
          rawGet(client, '/api/v1/nodes', { attempts: 1 }).then(
            r => String(r.status),
            e => (e as Error).message,
          ),
        ),
      );
      expect(
        once.filter(x => x !== '200'),
        'the faults are on',
      ).to.not.be.empty;
    } finally {
      await env.stop();
    }
  });

  it('a streaming connect (exec, port-forward) is retried on resets; after its attempts a reset is a transport failure, a refusal is not retried', async () => {
    const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    let calls = 0;
    const closed: string[] = [];
    const ws = await connectWithRetries(
      'port-forward to ns/p:8080',
      fast.policy,
      undefined,
      async () => {
        if (++calls < 3) throw reset();
        return 'socket';
      },
      w => closed.push(w),
    );
    expect([ws, calls, closed]).to.deep.equal(['socket', 3, []]);
    calls = 0;
    const e = await connectWithRetries(
      'port-forward to ns/p:8080',
      { ...fast.policy, attempts: 3 },
      undefined,
      async () => {
        calls++;
        throw reset();
      },
      () => undefined,
    ).catch(x => x);
    expect(calls).to.equal(3);
    expect(isTransportFailure(e)).to.equal(true);
    expect((e as Error).message).to.equal('port-forward to ns/p:8080: ECONNRESET socket hang up (after 3 attempts)');
    // The websocket library rejects with an ErrorEvent ({ message, error }), not an Error: its words still name the fault.
    const event = await connectWithRetries(
      'exec into ns/p',
      { ...fast.policy, attempts: 2 },
      undefined,
      async () => {
        throw { message: 'Unexpected server response: 500', error: new Error('x') };
      },
      () => undefined,
    ).catch(x => x);
    expect((event as Error).message).to.equal('exec into ns/p: Unexpected server response: 500 (after 2 attempts)');
    expect(isTransportFailure(event), 'an upgrade the API server kept refusing 5xx is the path failing').to.equal(true);
    calls = 0;
    const refused = await connectWithRetries(
      'exec into ns/p',
      fast.policy,
      undefined,
      async () => {
        calls++;
        throw new Error('Unexpected server response: 403');
      },
      () => undefined,
    ).catch(x => x);
    expect(calls).to.equal(1);
    expect(isTransportFailure(refused)).to.equal(false);
  });

  it('a watch whose headers never come ends at its connect deadline', async () => {
    script = ['stall'];
    const t = Date.now();
    const err = await new Promise<unknown>(resolve => {
      void openWatch(kc, '/api/v1/pods', {}, () => undefined, resolve, 500);
    });
    expect(Date.now() - t).to.be.below(1_500);
    expect(String(err)).to.contain('no answer to the watch of /api/v1/pods within 1s');
  });
});
