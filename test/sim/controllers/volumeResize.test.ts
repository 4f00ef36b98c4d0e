// The controller side of volume expansion (sim/controllers/volumeResizer.ts): a grown
// request on an expandable class grows the PV and leaves FileSystemResizePending for the
// kubelet; a class without allowVolumeExpansion is never resized.

import { expect } from 'chai';
import type { V1PersistentVolume, V1PersistentVolumeClaim } from '@kubernetes/client-node';
import type { KubeObject } from '../../../sim/api/store.ts';
import { createNamespace, startTestCluster, waitFor, type TestCluster } from '../../support/simControllers.ts';

const NS = 'resize';

function claim(name: string, className?: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: NS },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...(className ? { storageClassName: className } : {}) },
  };
}

const getClaim = (c: TestCluster, name: string) => c.store.get('persistentvolumeclaims', NS, name) as unknown as V1PersistentVolumeClaim;

async function bound(c: TestCluster, name: string): Promise<V1PersistentVolumeClaim> {
  return waitFor(c.store, `claim ${name} Bound`, () => {
    const p = getClaim(c, name);
    return p.status?.phase === 'Bound' && p;
  });
}

function grow(c: TestCluster, name: string, storage: string): void {
  c.store.mutate('persistentvolumeclaims', NS, name, o => {
    const p = o as unknown as V1PersistentVolumeClaim;
    p.spec!.resources = { requests: { storage } };
  });
}

describe('sim volume resizer', () => {
  let c: TestCluster;
  afterEach(async () => {
    await c.stop();
  });

  it('grows the PV and marks the claim FileSystemResizePending, capacity unchanged until the node grows it', async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
    c.store.create('persistentvolumeclaims', claim('data'));
    const pvc = await bound(c, 'data');
    grow(c, 'data', '2Gi');
    const pending = await waitFor(c.store, 'FileSystemResizePending', () => {
      const p = getClaim(c, 'data');
      return p.status?.conditions?.find(x => x.type === 'FileSystemResizePending') && p;
    });
    expect(pending.status!.capacity).to.deep.equal({ storage: '1Gi' });
    const cond = pending.status!.conditions!.find(x => x.type === 'FileSystemResizePending')!;
    expect(cond.status).to.equal('True');
    expect(cond.message).to.equal('Waiting for user to (re-)start a pod to finish file system resize of volume on node.');
    const pv = c.store.get('persistentvolumes', undefined, pvc.spec!.volumeName!) as unknown as V1PersistentVolume;
    expect(pv.spec!.capacity).to.deep.equal({ storage: '2Gi' });
    const reasons = c.store.list('events', { namespace: NS }).items.map(e => (e as unknown as { reason: string }).reason);
    expect(reasons).to.include.members(['Resizing', 'FileSystemResizeRequired']);
  });

  it('never resizes a claim whose class does not allow expansion', async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
    c.store.create('storageclasses.storage.k8s.io', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'fixed' },
      provisioner: 'disk.csi.azure.com',
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'Immediate',
      allowVolumeExpansion: false,
    } as unknown as KubeObject);
    c.store.create('persistentvolumeclaims', claim('fixed', 'fixed'));
    const pvc = await bound(c, 'fixed');
    grow(c, 'fixed', '2Gi');
    await new Promise(r => setTimeout(r, 300));
    expect(getClaim(c, 'fixed').status!.conditions ?? []).to.deep.equal([]);
    const pv = c.store.get('persistentvolumes', undefined, pvc.spec!.volumeName!) as unknown as V1PersistentVolume;
    expect(pv.spec!.capacity).to.deep.equal({ storage: '1Gi' });
  });
});
