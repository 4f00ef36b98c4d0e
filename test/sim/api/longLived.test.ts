// Long-lived responses: log follow, exec over the websocket upgrade (sim/api/streaming.ts),
// namespace finalize, and the seeded faults (API errors, dropped watches).

import { expect } from 'chai';
import { PassThrough, Writable } from 'node:stream';
import * as k8s from '@kubernetes/client-node';
import { startEnv, raw, rawWatch, waitFor, PROFILE, type Env } from '../../support/simApi.ts';
import type { SubresourceHandlers } from '../../../sim/api/runtimeContract.ts';

function handlers(over: Partial<SubresourceHandlers> = {}): SubresourceHandlers {
  return {
    async exec(req, streams) {
      streams.stdout.write(`ran ${req.command.join(' ')} in ${req.container}\r\n`);
      return { exitCode: req.command.includes('fail') ? 3 : 0 };
    },
    async log(req, out, signal) {
      out.write('first\n');
      if (!req.follow) return;
      // Follow: one more line per tick until the client goes away.
      for (let i = 0; !signal.aborted; i++) {
        out.write(`tick ${i}\n`);
        await new Promise(r => setTimeout(r, 20));
      }
    },
    portForward: async () => new PassThrough(),
    nodeProxy: async () => ({ status: 200, contentType: 'text/plain', body: 'ok' }),
    ...over,
  };
}

async function rejects409(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 0;
  } catch (e) {
    return (e as k8s.ApiException<string>).code;
  }
}

describe('sim api: streams and faults', function () {
  let env: Env;
  before(async () => {
    env = await startEnv({ handlers: handlers() });
    env.store.create('pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'run', namespace: 'test' },
      spec: { nodeName: 'win-1', containers: [{ name: 'c', image: 'x' }] },
      status: { phase: 'Running' },
    });
  });
  after(async () => {
    await env.stop();
  });

  it('follows logs until the client disconnects', async () => {
    const lines: string[] = [];
    let buf = '';
    const out = new Writable({
      write(chunk, _e, cb) {
        buf += String(chunk);
        lines.push(...buf.split('\n').slice(0, -1));
        buf = buf.slice(buf.lastIndexOf('\n') + 1);
        cb();
      },
    });
    const ac = await new k8s.Log(env.kc).log('test', 'run', 'c', out, { follow: true });
    await waitFor(() => (lines.length >= 4 ? true : undefined));
    ac.abort();
    expect(lines.slice(0, 3)).to.deep.equal(['first', 'tick 0', 'tick 1']);
  });

  it('runs exec over the websocket channel protocol', async () => {
    let stdout = '';
    const out = new Writable({
      write(c, _e, cb) {
        stdout += String(c);
        cb();
      },
    });
    const status = await new Promise<k8s.V1Status>((resolve, reject) => {
      new k8s.Exec(env.kc).exec('test', 'run', 'c', ['cmd', '/c', 'fail'], out, null, null, false, s => resolve(s)).catch(reject);
    });
    expect(stdout).to.equal('ran cmd /c fail in c\r\n');
    expect(status.status).to.equal('Failure');
    expect(status.details?.causes?.[0]).to.include({ reason: 'ExitCode', message: '3' });
  });

  it('finalizes a terminating namespace through namespaces/{name}/finalize', async () => {
    const core = env.kc.makeApiClient(k8s.CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'gone' }, spec: { finalizers: ['kubernetes'] } } });
    await core.deleteNamespace({ name: 'gone' });
    const ns = await core.readNamespace({ name: 'gone' });
    expect(ns.status?.phase).to.equal('Terminating');
    await core.patchNamespace({ name: 'gone', body: { metadata: { labels: { x: 'y' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    expect(env.store.tryGet('namespaces', undefined, 'gone')).to.not.equal(undefined);
    const stale = await rejects409(core.replaceNamespaceFinalize({ name: 'gone', body: { ...ns, spec: { finalizers: [] } } }));
    expect(stale).to.equal(409);
    const cur = await core.readNamespace({ name: 'gone' });
    await core.replaceNamespaceFinalize({ name: 'gone', body: { ...cur, spec: { finalizers: [] } } });
    expect(env.store.tryGet('namespaces', undefined, 'gone')).to.equal(undefined);
  });

  it('injects seeded 429/500 answers and drops watches early when the profile asks', async () => {
    const faulty = await startEnv({ profile: { ...PROFILE, faults: { seed: 3, apiErrorRate: 0.5, dropWatchRate: 1 } } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 20; i++) codes.push((await raw(faulty, 'GET', '/api/v1/nodes')).status);
      expect(codes.filter(c => c === 200).length).to.be.within(3, 17);
      expect(codes.filter(c => c === 429 || c === 500).length).to.be.greaterThan(2);
      // Discovery and health are not subject to faults.
      expect((await raw(faulty, 'GET', '/version')).status).to.equal(200);
      let w;
      for (let i = 0; i < 20 && !w; i++) {
        try {
          w = await rawWatch(faulty, '/api/v1/nodes?watch=true&resourceVersion=' + faulty.store.currentRV(), () => false, 8000);
        } catch {
          /* a fault before the stream started */
        }
        if (w && !w.ended) w = undefined;
      }
      expect(w?.ended).to.equal(true);
    } finally {
      await faulty.stop();
    }
  });

  it('answers a watch resumed from a resourceVersion 410 Expired when the profile asks (a fresh watch is served)', async () => {
    const faulty = await startEnv({ profile: { ...PROFILE, faults: { seed: 5, watchExpiredRate: 1 } } });
    try {
      const resumed = await rawWatch(faulty, '/api/v1/nodes?watch=true&resourceVersion=' + faulty.store.currentRV(), ev => ev.length > 0, 8000);
      expect(resumed.events[0]).to.deep.include({ type: 'ERROR' });
      expect(resumed.events[0].object).to.include({ code: 410, reason: 'Expired' });
      const fresh = await rawWatch(faulty, '/api/v1/nodes?watch=true', ev => ev.length > 0, 8000);
      expect(fresh.events[0].type).to.equal('ADDED');
    } finally {
      await faulty.stop();
    }
  });
});
