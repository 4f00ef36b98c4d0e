// The simulated kubelet's eviction manager for memory (sim/runtime/eviction.ts), with upstream
// eviction.go's two resource-consumer pods on one Windows node: pod1 (requests 500Mi, testlimit
// 5 x 100 MB) runs; pod2 (testlimit 300 MB chunks past capacity - threshold) drives memory.available
// under the 500Mi hard threshold: MemoryPressure True (KubeletHasInsufficientMemory), pod2 evicted
// (Failed, Evicted, helpers.go's message, DisruptionTarget), pod1 kept; the condition clears after
// the (scaled) transition period. breaks: eviction: pressure, no eviction.

import { expect } from 'chai';
import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { createPod, events, getPod, isReady, NS, startFixture, testProfile, waitPod, WIN, type Fixture } from '../../support/runtime.ts';

const IMAGE = 'registry.k8s.io/e2e-test-images/resource-consumer:1.13';
const MI = 2 ** 20;

const consumer = (name: string, mb: number, every: number, count: number, request?: string): Partial<NonNullable<V1Pod['spec']>> => ({
  os: { name: 'windows' },
  restartPolicy: 'Always',
  containers: [
    {
      name,
      image: IMAGE,
      command: ['/bin/testlimit.exe', '-accepteula', '-d', `${mb}Mb`, '-e', String(every), '20000s', '-c', String(count)],
      ...(request ? { resources: { requests: { memory: request } } } : {}),
    },
  ],
});

const memoryPressure = (f: Fixture) => (f.store.get('nodes', undefined, WIN) as unknown as V1Node).status?.conditions?.find(c => c.type === 'MemoryPressure');

function waitNode(f: Fixture, what: string, pred: (n: V1Node) => boolean, timeoutMs = 15_000): Promise<V1Node> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => {
      w.stop();
      reject(new Error(`timed out waiting for node ${WIN} ${what}: ${JSON.stringify(memoryPressure(f))}`));
    }, timeoutMs);
    const w = f.store.watch('nodes', { fieldSelector: `metadata.name=${WIN}` }, e => {
      const n = e.object as unknown as V1Node;
      if (e.type !== 'DELETED' && pred(n)) {
        clearTimeout(t);
        queueMicrotask(() => w.stop());
        resolve(n);
      }
    });
  });
}

const pressureIs = (status: string) => (n: V1Node) => n.status?.conditions?.some(c => c.type === 'MemoryPressure' && c.status === status) ?? false;

async function withNode(breaks: string[] = []): Promise<Fixture> {
  const f = await startFixture(testProfile({ evictionScale: 0.01, ...(breaks.length ? { breaks: breaks as never } : {}) }));
  f.store.create('nodes', {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: WIN },
    status: {
      conditions: [
        { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
        { type: 'Ready', status: 'True' },
      ],
    },
  });
  return f;
}

/** pod1 (500Mi request, 5 x 100 MB) Ready, then pod2 with upstream's chunk count: (capacity - threshold) / 300Mi + 3. */
async function consume(f: Fixture): Promise<void> {
  createPod(f.store, WIN, 'pod1', consumer('pod1', 100, 5, 5, '500Mi'));
  await waitPod(f.store, 'pod1', 'Ready', isReady);
  const chunks = Math.floor((16 * 1024 * MI - 500 * MI) / (300 * MI)) + 3;
  createPod(f.store, WIN, 'pod2', consumer('pod2', 300, 1, chunks));
}

describe('sim runtime: the kubelet evicts under memory pressure', function () {
  this.timeout(30_000);
  let f: Fixture | undefined;
  afterEach(async () => {
    await f?.stop();
    f = undefined;
  });

  it('reports MemoryPressure, evicts the pod using most above its request with the kubelet reason, keeps the other, then clears', async () => {
    f = await withNode();
    await consume(f);
    const evicted = await waitPod(f.store, 'pod2', 'evicted', p => p.status?.phase === 'Failed');
    expect(evicted.status?.reason).to.equal('Evicted');
    expect(evicted.status?.message).to.match(
      /^The node was low on resource: memory\. Threshold quantity: 500Mi, available: \d+(Ki|Mi)?\. Container pod2 was using \d+(Mi|Ki), request is 0, has larger consumption of memory\. $/,
    );
    expect(evicted.status?.conditions?.find(c => c.type === 'DisruptionTarget')).to.include({ status: 'True', reason: 'TerminationByKubelet' });
    const mp = memoryPressure(f)!;
    expect(mp).to.include({ status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' });
    const ev = events(f.store, 'pod2').find(e => e.reason === 'Evicted');
    expect(ev?.type).to.equal('Warning');
    expect(ev?.message).to.equal(evicted.status?.message);
    expect(getPod(f.store, 'pod1')?.status?.phase, 'pod1 is not evicted').to.equal('Running');
    // BestEffort pods are not admitted while the condition is True.
    createPod(f.store, WIN, 'late', consumer('late', 1, 0, 1));
    const late = await waitPod(f.store, 'late', 'rejected', p => p.status?.phase === 'Failed');
    expect(late.status).to.include({ reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' });
    // evictionPressureTransitionPeriod (5 min) x 0.01 after the last time the threshold was met.
    await waitNode(f, 'MemoryPressure False', pressureIs('False'));
    expect(memoryPressure(f)).to.include({ reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' });
    const nodeEvents = f.store.list('events', { namespace: 'default' }).items.map(e => (e as unknown as { reason: string }).reason);
    expect(nodeEvents).to.include.members(['NodeHasInsufficientMemory', 'EvictionThresholdMet', 'NodeHasSufficientMemory']);
  });

  it('breaks: eviction: the node reports MemoryPressure but no pod is ever evicted, until the pods are deleted', async () => {
    f = await withNode(['eviction']);
    await consume(f);
    await waitNode(f, 'MemoryPressure True', pressureIs('True'));
    // Several monitoring periods (10 s x 0.01) pass under pressure.
    await new Promise(r => setTimeout(r, 500));
    expect(getPod(f.store, 'pod2')?.status?.phase).to.equal('Running');
    expect(getPod(f.store, 'pod1')?.status?.phase).to.equal('Running');
    for (const name of ['pod1', 'pod2']) f.store.delete('pods', NS, name, { gracePeriodSeconds: 0 });
    await waitNode(f, 'MemoryPressure False once the pods are gone', pressureIs('False'));
  });
});
