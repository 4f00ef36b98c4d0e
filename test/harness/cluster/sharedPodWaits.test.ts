// PodReadyHub (lib/cluster/sharedPodWaits.ts): Ready waits for many pods over one list and watch
// (the per-node HostProcess pods of a 100-node run), each wait as waitTimeoutForPodReady would
// end: Ready, failing fast with the pod's events, deleted, or at its own deadline.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { PodGoneError, PodStartError } from '../../../lib/cluster/podWait.ts';
import { PodReadyHub } from '../../../lib/cluster/sharedPodWaits.ts';
import type { KubeClients } from '../../../lib/cluster/types.ts';
import { WaitTimeoutError } from '../../../lib/cluster/watch.ts';
import { simClients } from '../../support/simClients.ts';

describe('PodReadyHub: many Ready waits, one watch', function () {
  this.timeout(120_000);
  let kube: KubeClients;
  let stop: (() => Promise<void>) | undefined;
  const ns = 'wincheck-hub';
  const sel = 'hub=yes';

  before(async () => {
    ({ kube, stop } = await simClients(ns));
  });
  after(async () => {
    await stop?.();
  });

  const pod = (name: string, image = 'registry.k8s.io/e2e-test-images/agnhost:2.52'): V1Pod => ({
    metadata: { name, namespace: ns, labels: { hub: 'yes' } },
    spec: { containers: [{ name: 'c', image, args: ['pause'] }], nodeSelector: { 'kubernetes.io/os': 'linux' } },
  });
  const create = (p: V1Pod) => kube.core.createNamespacedPod({ namespace: ns, body: p });
  const failure = async (p: Promise<unknown>) => {
    try {
      await p;
    } catch (e) {
      return e as Error;
    }
    throw new Error('expected the wait to fail');
  };

  it('resolves every pod Ready over one watch, including one already Ready when its wait begins', async () => {
    const hub = new PodReadyHub(kube, ns, sel);
    await create(pod('early'));
    await hub.waitReady('early', 60_000);
    const names = ['a', 'b', 'c', 'd'];
    const waits = names.map(n => hub.waitReady(n, 60_000));
    await Promise.all(names.map(n => create(pod(n))));
    const pods = await Promise.all(waits);
    expect(pods.map(p => p.metadata?.name)).to.deep.equal(names);
    // The first wait's watch stopped when it was done; the four shared the second.
    expect(hub.watchesOpened).to.equal(2);
    const again = hub.waitReady('a', 60_000);
    expect((await again).metadata?.name).to.equal('a');
  });

  it('fails one wait fast with the events (an image that cannot be pulled) while the others resolve', async () => {
    const hub = new PodReadyHub(kube, ns, sel);
    const bad = failure(hub.waitReady('bad', 60_000));
    const good = hub.waitReady('good', 60_000);
    await create(pod('bad', 'registry.k8s.io/no-such-image:1'));
    await create(pod('good'));
    const e = await bad;
    expect(e).to.be.instanceOf(PodStartError);
    expect(e.message).to.match(/expected pod wincheck-hub\/bad to be Ready, got (ErrImagePull|ImagePullBackOff)/);
    expect(e.message).to.contain('events:');
    expect((await good).metadata?.name).to.equal('good');
    expect(hub.watchesOpened).to.equal(1);
  });

  it('ends a wait when its pod is deleted, and at its own deadline with the last state seen', async () => {
    const hub = new PodReadyHub(kube, ns, sel);
    const gone = failure(hub.waitReady('gone', 60_000));
    await create(pod('gone', 'registry.k8s.io/e2e-test-images/agnhost:2.52-never'));
    await kube.core.deleteNamespacedPod({ namespace: ns, name: 'gone', gracePeriodSeconds: 0 });
    expect(await gone).to.be.instanceOf(PodGoneError);
    const never = await failure(hub.waitReady('never-created', 300));
    expect(never).to.be.instanceOf(WaitTimeoutError);
    expect(never.message).to.match(/timed out after 0s waiting for pod wincheck-hub\/never-created to be Ready; last state seen: /);
  });

  it('an abort ends every wait at once', async () => {
    const abort = new AbortController();
    const hub = new PodReadyHub(kube, ns, sel, abort.signal);
    const w = hub.waitReady('nobody', 60_000);
    abort.abort();
    expect((await failure(w)).message).to.contain('interrupted while waiting for pod wincheck-hub/nobody');
  });
});
