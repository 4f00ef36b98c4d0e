// The harness's watch (lib/cluster/watch.ts) through the API server's watch clock as upstream
// runs it, time-scaled (apiTimeScale 0.001: etcd compaction every 300 ms, watches closed after
// 1.8–3.6 s): an event watch (no bookmarks) whose resourceVersion was compacted meanwhile relists
// on the 410 and still sees what comes later; a watch with bookmarks resumes without a relist.

import { expect } from 'chai';
import type { CoreV1Event, V1Secret } from '@kubernetes/client-node';
import { makeClients } from '../../../lib/cluster/client.ts';
import { listAll } from '../../../lib/cluster/list.ts';
import type { KubeClients } from '../../../lib/cluster/types.ts';
import { watchUntil } from '../../../lib/cluster/watch.ts';
import { recordEvent } from '../../../sim/controllers/events.ts';
import { PROFILE, startEnv, type Env } from '../../support/simApi.ts';

/** The clients, counting the watches they open. */
function counting(kube: KubeClients, onWatch: (n: number) => void): KubeClients {
  let n = 0;
  const watch: KubeClients['watch'] = {
    watch: async (...args: Parameters<KubeClients['watch']['watch']>) => {
      const c = await kube.watch.watch(...args);
      onWatch(++n);
      return c;
    },
  };
  return { ...kube, watch };
}

describe('watchUntil through compaction and watch timeouts (sim apiTimeScale 0.001)', () => {
  let env: Env;
  let churn: NodeJS.Timeout;
  before(async () => {
    env = await startEnv({ profile: { ...PROFILE, apiTimeScale: 0.001 }, bookmarkIntervalMs: undefined });
    env.store.create('configmaps', { metadata: { name: 'churn', namespace: 'default' } });
    // Other writers move the revision on, as on any real cluster (a quiet etcd compacts nothing away).
    let i = 0;
    churn = setInterval(() => env.store.mutate('configmaps', 'default', 'churn', o => ({ ...o, data: { i: String(i++) } })), 50);
  });
  after(async () => {
    clearInterval(churn);
    await env.stop();
  });

  it('an event watch whose resourceVersion was compacted relists on the 410 and sees the event that comes after', async () => {
    const kube = makeClients(env.kc);
    const pod = env.store.create('pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'test' }, spec: { containers: [] } });
    recordEvent(env.store, pod, 'Warning', 'Early', 'before the watch', { component: 'kubelet', host: 'win-1' });
    let lists = 0;
    const ev = await watchUntil<CoreV1Event, CoreV1Event>({
      kube,
      path: '/api/v1/namespaces/test/events',
      list: async () => {
        const l = await listAll(q => kube.core.listNamespacedEvent({ namespace: 'test', ...q }));
        // The event comes only once the first watch expired and the 410 made the harness relist.
        if (++lists === 2) setImmediate(() => recordEvent(env.store, pod, 'Warning', 'Late', 'after the relist', { component: 'kubelet', host: 'win-1' }));
        return l;
      },
      check: e => (e.reason === 'Late' ? e : undefined),
      what: 'the late event',
      describe: e => e?.reason ?? 'none',
      timeoutMs: 15_000,
    });
    expect(ev.message).to.equal('after the relist');
    expect(lists).to.equal(2);
  });

  it('a watch with bookmarks resumes from the bookmark after the server closed it, without a relist', async () => {
    let lists = 0;
    let late: V1Secret | undefined;
    const base = makeClients(env.kc);
    const kube = counting(base, n => {
      if (n === 2) late = env.store.create('secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'late', namespace: 'test' } }) as V1Secret;
    });
    const seen = await watchUntil<V1Secret, V1Secret>({
      kube,
      path: '/api/v1/namespaces/test/secrets',
      list: async () => {
        lists++;
        return listAll(q => base.core.listNamespacedSecret({ namespace: 'test', ...q }));
      },
      check: s => (s.metadata?.name === 'late' ? s : undefined),
      what: 'the late secret',
      describe: s => s?.metadata?.name ?? 'none',
      timeoutMs: 15_000,
    });
    expect(seen.metadata?.uid).to.equal(late?.metadata?.uid);
    expect(lists).to.equal(1);
  });
});
