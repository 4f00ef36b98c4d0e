// The API server's watch clock (sim/api/timing.ts), time-scaled by the profile's apiTimeScale:
// etcd compaction by age (every 5 minutes, to the revision of the previous tick), 410 for a watch
// from a compacted resourceVersion in the watch cache's words and, for events (served from etcd),
// in etcd's; watches without timeoutSeconds closed after minRequestTimeout × [1, 2).

import { expect } from 'chai';
import { apiTimings, watchTimeoutMs, COMPACTION_INTERVAL_MS, MIN_REQUEST_TIMEOUT_MS, BOOKMARK_INTERVAL_MS } from '../../../sim/api/timing.ts';
import { PROFILE, rawWatch, startEnv, waitFor, type Env } from '../../support/simApi.ts';

describe('sim api: the watch clock', () => {
  it('runs at kube-apiserver defaults unless the profile scales it: 5 min compaction, 30–60 min watches, bookmarks each minute', () => {
    expect(apiTimings(PROFILE)).to.deep.equal({ compactionIntervalMs: 300_000, minRequestTimeoutMs: 1_800_000, bookmarkIntervalMs: 60_000 });
    expect([COMPACTION_INTERVAL_MS, MIN_REQUEST_TIMEOUT_MS, BOOKMARK_INTERVAL_MS]).to.deep.equal([300_000, 1_800_000, 60_000]);
    const scaled = apiTimings({ ...PROFILE, apiTimeScale: 0.01 });
    expect(scaled.compactionIntervalMs).to.equal(3_000);
    expect(watchTimeoutMs({ minRequestTimeoutMs: 1_800_000 }, () => 0)).to.equal(1_800_000);
    expect(watchTimeoutMs({ minRequestTimeoutMs: 1_800_000 }, () => 0.999)).to.be.below(3_600_000);
  });

  describe('on a profile with apiTimeScale 0.001 (compaction every 300 ms, watches of 1.8–3.6 s)', () => {
    let env: Env;
    before(async () => {
      env = await startEnv({ profile: { ...PROFILE, apiTimeScale: 0.001 }, bookmarkIntervalMs: undefined });
    });
    after(async () => env.stop());

    const configMap = (name: string) =>
      env.store.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'test' } }).metadata.resourceVersion!;
    const compactedPast = (rv: string) => waitFor(() => (!env.store.continuable(Number(rv)) ? true : undefined), 10_000, env.store);

    it('compacts by age: a watch from a resourceVersion older than the window gets 410 "too old resource version"; a recent one resumes', async () => {
      const old = configMap('old-a');
      configMap('old-b');
      await compactedPast(old);
      const gone = await rawWatch(env, `/api/v1/namespaces/test/configmaps?watch=true&resourceVersion=${old}`, ev => ev.length > 0);
      expect(gone.events[0].type).to.equal('ERROR');
      expect(gone.events[0].object).to.include({ kind: 'Status', code: 410, reason: 'Expired' });
      expect(gone.events[0].object.message).to.match(/^too old resource version: \d+ \(\d+\)$/);
      const recent = env.store.currentRV();
      const resumed = rawWatch(env, `/api/v1/namespaces/test/configmaps?watch=true&resourceVersion=${recent}`, ev => ev.some(e => e.type === 'ADDED'));
      configMap('fresh');
      const r = await resumed;
      expect(r.events.map(e => `${e.type} ${e.object.metadata?.name}`)).to.deep.equal(['ADDED fresh']);
    });

    it("answers an event watch from a compacted resourceVersion in etcd's words (events have no watch cache)", async () => {
      const old = configMap('old-c');
      configMap('old-d');
      await compactedPast(old);
      for (const path of ['/api/v1/namespaces/test/events', '/apis/events.k8s.io/v1/namespaces/test/events']) {
        const gone = await rawWatch(env, `${path}?watch=true&resourceVersion=${old}`, ev => ev.length > 0);
        expect(gone.events[0].object).to.include({ code: 410, reason: 'Expired', message: 'The resourceVersion for the provided watch is too old.' });
      }
    });

    it('closes a watch that gave no timeoutSeconds after minRequestTimeout × [1, 2), event watches alike', async () => {
      for (const path of [
        '/api/v1/namespaces/test/configmaps?watch=true&allowWatchBookmarks=true',
        '/api/v1/namespaces/test/events?watch=true&allowWatchBookmarks=true',
      ]) {
        const w = await rawWatch(env, path, () => false, 10_000);
        expect(w.ended, path).to.equal(true);
        expect(w.events.filter(e => e.type === 'BOOKMARK').length > 0, path).to.equal(!path.includes('events'));
      }
    });
  });
});
