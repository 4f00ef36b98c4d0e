// The controllers' building blocks: the work queue and the event recorder.

import { expect } from 'chai';
import type { CoreV1Event } from '@kubernetes/client-node';
import { StoreError } from '../../../sim/api/store.ts';
import { WorkQueue } from '../../../sim/controllers/workqueue.ts';
import { recordEvent } from '../../../sim/controllers/events.ts';
import { failedSchedulingMessage } from '../../../sim/controllers/fit.ts';
import { createNamespace, newStore } from '../../support/simControllers.ts';

const turn = () => new Promise(r => setImmediate(r));

describe('sim controller building blocks', () => {
  it('runs each queued key once per burst, later, never inside add()', async () => {
    const seen: string[] = [];
    const q = new WorkQueue('test', k => {
      seen.push(k);
    });
    q.add('a');
    q.add('b');
    q.add('a');
    expect(seen).to.deep.equal([]);
    await turn();
    await turn();
    expect(seen).to.deep.equal(['a', 'b']);
    await q.stop();
  });

  it('retries a failing key, drops one whose object is gone, and stops', async () => {
    let calls = 0;
    let goneCalls = 0;
    const done = new Promise<void>(resolve => {
      const q = new WorkQueue('test', k => {
        if (k === 'gone') {
          goneCalls++;
          throw new StoreError(404, 'NotFound', 'gone');
        }
        if (++calls < 3) throw new Error('transient');
        void q.stop().then(resolve);
      });
      q.add('gone');
      q.add('flaky');
    });
    await done;
    expect(calls).to.equal(3);
    expect(goneCalls).to.equal(1);
  });

  it('folds repeated events into one with a count', () => {
    const store = newStore();
    const ns = createNamespace(store, 'ev');
    const pod = store.create('pods', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ev' }, spec: { containers: [] } });
    recordEvent(store, pod, 'Warning', 'FailedScheduling', 'no', 'default-scheduler');
    const again = recordEvent(store, pod, 'Warning', 'FailedScheduling', 'no', 'default-scheduler') as unknown as CoreV1Event;
    recordEvent(store, pod, 'Warning', 'FailedScheduling', 'other', 'default-scheduler');
    expect(again.count).to.equal(2);
    const events = store.list('events', { namespace: 'ev' }).items.map(e => e as unknown as CoreV1Event);
    expect(events).to.have.length(2);
    expect(again.involvedObject).to.include({ kind: 'Pod', name: 'p', namespace: 'ev', uid: pod.metadata.uid });
    expect(again).to.include({ type: 'Warning', reason: 'FailedScheduling', reportingComponent: 'default-scheduler' });
    expect(again.source).to.deep.equal({ component: 'default-scheduler' });
    // Events about cluster-scoped objects go to "default"; a missing namespace is not an error.
    expect(recordEvent(store, ns, 'Normal', 'X', 'y')).to.equal(undefined);
  });

  it('sorts FailedScheduling reasons as kube-scheduler does, counts included', () => {
    const msg = failedSchedulingMessage(12, [
      ...Array(10).fill({ reasons: ["node(s) didn't match Pod's node affinity/selector"], resolvable: false }),
      { reasons: ['Insufficient cpu', 'Insufficient memory'], resolvable: true },
      { reasons: ['Too many pods'], resolvable: true },
    ]);
    expect(msg).to.equal(
      "0/12 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 Too many pods, 10 node(s) didn't match Pod's node affinity/selector. " +
        'preemption: 0/12 nodes are available: 10 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
    );
    expect(failedSchedulingMessage(0, [])).to.equal('no nodes available to schedule pods');
  });
});
