// store.onAny: a listener hears only the named buckets (a 100-node sim has a kubelet listening
// per node), and it is handed the stored objects themselves, read-only: no copy per listener
// (that was most of a 100-node sim's CPU). That is safe only while the store never changes a
// stored object in place and no listener changes what it is handed: both are checked here.

import { expect } from 'chai';
import type { V1DaemonSet, V1Deployment, V1Pod } from '@kubernetes/client-node';
import type { KubeObject } from '../../../sim/api/store.ts';
import { startControllers } from '../../../sim/controllers/index.ts';
import { loadProfile } from '../../../sim/profiles/load.ts';
import { createNamespace, isReady, newStore, podsIn, startFakeKubelet, waitFor, windowsPod } from '../../support/simControllers.ts';

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

describe('sim store: onAny', () => {
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

  it('a watch selecting one node or one name hears its objects arrive, change and leave, in the order listeners were added', () => {
    const store = newStore();
    createNamespace(store, 'ns');
    const heard: string[] = [];
    const first = store.onAny((bucket, e) => bucket === 'pods' && heard.push(`any ${e.type}`));
    const onN1 = store.watch('pods', { fieldSelector: 'spec.nodeName=n1' }, e => heard.push(`n1 ${e.type} ${e.object.metadata.name}`));
    const onN2 = store.watch('pods', { fieldSelector: 'spec.nodeName=n2,status.phase!=Failed' }, e => heard.push(`n2 ${e.type} ${e.object.metadata.name}`));
    const byName = store.watch('pods', { namespace: 'ns', fieldSelector: 'metadata.name=b' }, e => heard.push(`b ${e.type}`));
    const last = store.onAny((bucket, e) => bucket === 'pods' && heard.push(`last ${e.type}`));
    const spec = windowsPod('a', 'ns').spec as object;
    store.create('pods', { ...windowsPod('a', 'ns'), spec: { ...spec, nodeName: 'n1' } });
    store.create('pods', windowsPod('b', 'ns'));
    store.mutate('pods', 'ns', 'b', o => {
      (o.spec as { nodeName?: string }).nodeName = 'n2';
    });
    store.mutate('pods', 'ns', 'b', o => {
      o.status = { phase: 'Failed' };
    });
    store.delete('pods', 'ns', 'a', { gracePeriodSeconds: 0 });
    for (const w of [first, onN1, onN2, byName, last]) w.stop();
    store.create('pods', { ...windowsPod('c', 'ns'), spec: { ...spec, nodeName: 'n1' } });
    expect(heard).to.deep.equal([
      'any ADDED',
      'n1 ADDED a',
      'last ADDED',
      'any ADDED',
      'b ADDED',
      'last ADDED',
      'any MODIFIED',
      'n2 ADDED b',
      'b MODIFIED',
      'last MODIFIED',
      'any MODIFIED',
      // No longer matching the whole selector: sent as DELETED.
      'n2 DELETED b',
      'b MODIFIED',
      'last MODIFIED',
      'any DELETED',
      'n1 DELETED a',
      'last DELETED',
    ]);
  });

  it('hands over objects that later writes never change: update, mutate, graceful delete, removal', () => {
    const store = newStore();
    const seen: { type: string; object: KubeObject; old?: KubeObject }[] = [];
    store.onAny((bucket, e, old) => {
      if (bucket === 'configmaps' || bucket === 'pods') seen.push({ type: e.type, object: e.object, old });
    });
    createNamespace(store, 'ns');
    store.create('configmaps', { metadata: { name: 'c', namespace: 'ns' }, data: { k: '1' } });
    store.update('configmaps', { ...store.get('configmaps', 'ns', 'c'), data: { k: '2' } });
    store.mutate('configmaps', 'ns', 'c', o => {
      (o as unknown as { data: Record<string, string> }).data.k = '3';
    });
    store.create('pods', { ...windowsPod('p', 'ns'), spec: { ...(windowsPod('p', 'ns').spec as object), nodeName: 'n1' } });
    store.delete('pods', 'ns', 'p');
    store.delete('pods', 'ns', 'p', { gracePeriodSeconds: 0 });
    const data = (o?: KubeObject) => (o as { data?: Record<string, string> } | undefined)?.data?.k;
    const cms = seen.filter(s => s.object.metadata.name === 'c');
    expect(cms.map(s => [s.type, data(s.object), data(s.old)])).to.deep.equal([
      ['ADDED', '1', undefined],
      ['MODIFIED', '2', '1'],
      ['MODIFIED', '3', '2'],
    ]);
    const pods = seen.filter(s => s.object.metadata.name === 'p');
    expect(pods.map(s => [s.type, !!s.object.metadata.deletionTimestamp])).to.deep.equal([
      ['ADDED', false],
      ['MODIFIED', true],
      ['DELETED', true],
    ]);
    expect(pods[0].object.metadata.deletionTimestamp, 'the first object handed over is unchanged by the deletion').to.equal(undefined);
    // What get() returns is a copy: changing it changes nothing stored or handed over.
    const copy = store.get('configmaps', 'ns', 'c') as unknown as { data: Record<string, string> };
    copy.data.k = 'changed';
    expect(data(store.get('configmaps', 'ns', 'c'))).to.equal('3');
    expect(data(cms[2].object)).to.equal('3');
  });

  it('no controller changes what it is handed: a run of workloads with every delivered object frozen logs no listener failure', async () => {
    const store = newStore();
    // Registered first, so every later listener (controllers, kubelet) is handed frozen objects:
    // a listener that changed one would throw, and guarded() would log it.
    store.onAny((_b, e, old) => {
      deepFreeze(e.object);
      if (old) deepFreeze(old);
    });
    const errors: unknown[][] = [];
    const consoleError = console.error;
    console.error = (...args: unknown[]) => {
      errors.push(args);
    };
    const kubelet = startFakeKubelet(store);
    const controllers = startControllers(store, loadProfile('default'));
    try {
      createNamespace(store, 'w');
      const spec = windowsPod('x', 'w').spec as V1Pod['spec'];
      store.create('deployments.apps', {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', namespace: 'w' },
        spec: { replicas: 2, selector: { matchLabels: { app: 'd' } }, template: { metadata: { labels: { app: 'd' } }, spec } },
      } as unknown as KubeObject);
      store.create('daemonsets.apps', {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'ds', namespace: 'w' },
        spec: { selector: { matchLabels: { app: 'ds' } }, template: { metadata: { labels: { app: 'ds' } }, spec } },
      } as unknown as KubeObject);
      store.create('services', {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's', namespace: 'w' },
        spec: { selector: { app: 'd' }, ports: [{ port: 80 }] },
      });
      await waitFor(store, 'the Deployment and DaemonSet pods Ready', () => {
        const d = store.get('deployments.apps', 'w', 'd') as unknown as V1Deployment;
        const ds = store.get('daemonsets.apps', 'w', 'ds') as unknown as V1DaemonSet;
        return d.status?.readyReplicas === 2 && (ds.status?.numberReady ?? 0) > 0 && ds.status?.numberReady === ds.status?.desiredNumberScheduled;
      });
      expect(podsIn(store, 'w').filter(isReady).length).to.be.greaterThan(2);
      store.delete('namespaces', undefined, 'w');
      await waitFor(store, 'namespace w gone', () => !store.tryGet('namespaces', undefined, 'w'));
    } finally {
      console.error = consoleError;
      kubelet.stop();
      await controllers.stop();
    }
    expect(errors.map(a => a.map(String).join(' '))).to.deep.equal([]);
  });
});
