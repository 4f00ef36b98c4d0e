// The pager (lib/cluster/list.ts) against the sim's chunked lists: every object in pages of the
// limit, the first page's resourceVersion, a relist from scratch when a continue has expired
// (the sim compacts between pages), and the 410 itself as kube-apiserver words it.

import { expect } from 'chai';
import * as k8s from '@kubernetes/client-node';
import { foldPages, listAll, type PageQuery } from '../../../lib/cluster/list.ts';
import { startEnv, type Env } from '../../support/simApi.ts';

describe('the pager: every list in pages, relisted on an expired continue', function () {
  this.timeout(30_000);
  let env: Env;
  let core: k8s.CoreV1Api;
  before(async () => {
    env = await startEnv();
    core = env.kc.makeApiClient(k8s.CoreV1Api);
    for (let i = 0; i < 23; i++)
      env.store.create('configmaps', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `cm-${String(i).padStart(2, '0')}`, namespace: 'test', labels: { set: 'pager' } },
      });
  });
  after(async () => {
    await env.stop();
  });

  it('reads every object in pages of the limit, with the first page resourceVersion and no continue', async () => {
    const asked: PageQuery[] = [];
    const all = await listAll(
      q => {
        asked.push(q);
        return core.listNamespacedConfigMap({ namespace: 'test', labelSelector: 'set=pager', ...q });
      },
      { limit: 5 },
    );
    expect(all.items.map(c => c.metadata?.name)).to.deep.equal(Array.from({ length: 23 }, (_, i) => `cm-${String(i).padStart(2, '0')}`));
    expect(asked).to.have.length(5);
    expect(asked.every(q => q.limit === 5)).to.equal(true);
    expect(asked[0]._continue).to.equal(undefined);
    expect(all.metadata?._continue).to.equal(undefined);
    expect(all.metadata?.remainingItemCount).to.equal(undefined);
    expect(all.metadata?.resourceVersion).to.match(/^\d+$/);
  });

  it('answers a continue whose revision is compacted 410 Expired, with a token to go on inconsistently', async () => {
    const p1 = await core.listNamespacedConfigMap({ namespace: 'test', labelSelector: 'set=pager', limit: 10 });
    expect(p1.metadata?.remainingItemCount).to.equal(13);
    env.store.create('configmaps', { metadata: { name: 'later', namespace: 'test' } });
    env.store.compact();
    const e = (await core
      .listNamespacedConfigMap({ namespace: 'test', labelSelector: 'set=pager', limit: 10, _continue: p1.metadata?._continue })
      .catch(x => x)) as k8s.ApiException<string>;
    expect(e).to.be.instanceOf(k8s.ApiException);
    expect(e.code).to.equal(410);
    const status = JSON.parse(e.body) as { reason: string; message: string; metadata: { continue?: string } };
    expect(status.reason).to.equal('Expired');
    expect(status.message).to.match(/^The provided continue parameter is too old to display a consistent list result/);
    const rest = await core.listNamespacedConfigMap({ namespace: 'test', labelSelector: 'set=pager', limit: 100, _continue: status.metadata.continue });
    expect(rest.items.map(c => c.metadata?.name)[0]).to.equal('cm-10');
  });

  it('starts the fold again from scratch when a continue expires mid-list', async () => {
    let pages = 0;
    const relists: number[] = [];
    const { acc } = await foldPages(
      async (q: PageQuery) => {
        const page = await core.listNamespacedConfigMap({ namespace: 'test', labelSelector: 'set=pager', ...q });
        // The server compacts once, after the second page of the first attempt.
        if (++pages === 2) {
          env.store.create('configmaps', { metadata: { name: `bump-${pages}`, namespace: 'test' } });
          env.store.compact();
        }
        return page;
      },
      () => [] as string[],
      (names, items) => [...names, ...items.map(c => c.metadata!.name!)],
      { limit: 5, onRelist: n => relists.push(n) },
    );
    expect(relists).to.deep.equal([1]);
    expect(acc).to.have.length(23);
    expect(new Set(acc).size).to.equal(23);
  });

  it('does not take a 410 on the first page for an expired continue', async () => {
    let calls = 0;
    const gone = new k8s.ApiException(410, 'Gone', '{"reason":"Expired"}', {});
    const e = await listAll(async () => {
      calls++;
      throw gone;
    }).catch(x => x);
    expect(e).to.equal(gone);
    expect(calls).to.equal(1);
  });
});
