// store.onAny with named buckets: a listener hears only those (a 100-node sim has a kubelet
// listening per node, and every delivery costs two object copies).

import { expect } from 'chai';
import { newStore } from '../sim-controllers/helpers.ts';

describe('sim store: onAny filtered by bucket', () => {
  it('delivers writes of the named buckets only; without names, every write', () => {
    const store = newStore();
    const named: string[] = [];
    const all: string[] = [];
    const a = store.onAny(bucket => named.push(bucket), ['configmaps']);
    const b = store.onAny(bucket => all.push(bucket));
    store.create('namespaces', { metadata: { name: 'ns' } });
    store.create('configmaps', { metadata: { name: 'c', namespace: 'ns' } });
    store.create('secrets', { metadata: { name: 's', namespace: 'ns' } });
    a.stop();
    b.stop();
    expect(named).to.deep.equal(['configmaps']);
    expect(all).to.deep.equal(['namespaces', 'configmaps', 'secrets']);
  });
});
