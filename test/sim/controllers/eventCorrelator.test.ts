// The kubelet's events as client-go's EventCorrelator writes them (tools/record/events_cache.go):
// identical events fold into one Event (count, lastTimestamp), the tenth similar one within ten
// minutes is combined, and a source's budget per object is 25 writes, then one per 5 minutes.

import { expect } from 'chai';
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { EventCorrelator, COMBINED_PREFIX, type EventDraft } from '../../../sim/controllers/eventCorrelator.ts';
import { EventRecorder } from '../../../sim/runtime/events.ts';
import { newStore } from '../../support/simControllers.ts';

const draft = (message: string, reason = 'Unhealthy', name = 'p'): EventDraft => ({
  involvedObject: { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name, uid: `uid-${name}`, fieldPath: 'spec.containers{c}' },
  type: 'Warning',
  reason,
  message,
  source: { component: 'kubelet', host: 'win-1' },
});

function clock(start = Date.parse('2026-01-01T00:00:00Z')) {
  const c = { now: start, fn: () => c.now };
  return c;
}

describe('sim: the event correlator (client-go EventCorrelator)', () => {
  it('folds identical events into one name with a growing count and the first time kept', () => {
    const t = clock();
    const c = new EventCorrelator(t.fn);
    const first = c.correlate(draft('Readiness probe failed: x'));
    t.now += 60_000;
    const second = c.correlate(draft('Readiness probe failed: x'));
    expect(first.skip || second.skip).to.equal(false);
    if (first.skip || second.skip) return;
    expect(second.name).to.equal(first.name);
    expect(second.count).to.equal(2);
    expect(second.firstTimestamp).to.equal(first.firstTimestamp);
    expect(first.name).to.match(/^p\.[0-9a-f]{15,16}$/);
  });

  it('two recorders writing about objects of one name in the same millisecond name their Events apart', () => {
    // The kubelet (about pod pvc-1) and the resizer (about claim pvc-1) in one millisecond: the
    // second Event must not be lost as AlreadyExists.
    const t = clock();
    const kubelet = new EventCorrelator(t.fn).correlate(draft('MountVolume.NodeExpandVolume failed', 'FileSystemResizeFailed', 'pvc-1'));
    const resizer = new EventCorrelator(t.fn).correlate({
      ...draft('External resizer is resizing volume', 'Resizing', 'pvc-1'),
      involvedObject: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', namespace: 'ns', name: 'pvc-1', uid: 'uid-claim' },
      source: { component: 'external-resizer' },
    });
    expect(kubelet.skip || resizer.skip).to.equal(false);
    if (kubelet.skip || resizer.skip) return;
    expect(kubelet.name).to.not.equal(resizer.name);
  });

  it('combines the tenth similar message within ten minutes, and later ones into the same Event', () => {
    const t = clock();
    const c = new EventCorrelator(t.fn);
    const out = [];
    for (let i = 0; i < 12; i++) {
      out.push(c.correlate(draft(`Readiness probe failed: attempt ${i}`)));
      t.now += 1_000;
    }
    const written = out.filter(o => !o.skip);
    expect(written.slice(0, 9).every(o => !o.combined)).to.equal(true);
    const combined = written.slice(9);
    expect(combined.map(o => o.combined)).to.deep.equal([true, true, true]);
    expect(combined[0].message).to.equal(`${COMBINED_PREFIX}Readiness probe failed: attempt 9`);
    expect(new Set(combined.map(o => o.name)).size).to.equal(1);
    expect(combined.map(o => o.count)).to.deep.equal([1, 2, 3]);
    expect(combined[2].message).to.equal(`${COMBINED_PREFIX}Readiness probe failed: attempt 11`);
  });

  it('starts a fresh group once ten minutes passed since the last similar event', () => {
    const t = clock();
    const c = new EventCorrelator(t.fn);
    for (let i = 0; i < 9; i++) c.correlate(draft(`m${i}`));
    t.now += 600_001;
    const next = c.correlate(draft('m9'));
    expect(!next.skip && next.combined).to.equal(false);
  });

  it('drops writes beyond a burst of 25 per source and object, refilled one per 5 minutes; the count still grows', () => {
    const t = clock();
    const c = new EventCorrelator(t.fn);
    const results = Array.from({ length: 30 }, () => c.correlate(draft('Back-off pulling image "x"', 'BackOff')));
    expect(results.filter(r => !r.skip)).to.have.length(25);
    // Another object of the same source has its own budget.
    expect(c.correlate(draft('Back-off pulling image "x"', 'BackOff', 'other')).skip).to.equal(false);
    t.now += 299_000;
    expect(c.correlate(draft('Back-off pulling image "x"', 'BackOff')).skip).to.equal(true);
    t.now += 2_000;
    const after = c.correlate(draft('Back-off pulling image "x"', 'BackOff'));
    expect(after.skip).to.equal(false);
    if (!after.skip) expect(after.count).to.equal(32);
  });

  it('the kubelet writes through it: one Event per repeat, combined probes, a deleted Event written again under its name', () => {
    const store = newStore();
    store.create('namespaces', { metadata: { name: 'ns' } });
    const t = clock(Date.now());
    const rec = new EventRecorder(store, 'win-1', t.fn);
    const pod: V1Pod = { metadata: { name: 'p', namespace: 'ns', uid: 'uid-p', resourceVersion: '1' } };
    for (let i = 0; i < 3; i++) rec.pod(pod, 'Warning', 'FailedCreatePodSandBox', 'Failed to create pod sandbox: boom');
    let events = store.list('events', { namespace: 'ns' }).items as unknown as CoreV1Event[];
    expect(events.map(e => [e.reason, e.count])).to.deep.equal([['FailedCreatePodSandBox', 3]]);
    expect(events[0].source).to.deep.equal({ component: 'kubelet', host: 'win-1' });
    store.delete('events', 'ns', events[0].metadata.name!);
    rec.pod(pod, 'Warning', 'FailedCreatePodSandBox', 'Failed to create pod sandbox: boom');
    events = store.list('events', { namespace: 'ns' }).items as unknown as CoreV1Event[];
    expect(events.map(e => e.count)).to.deep.equal([4]);
    for (let i = 0; i < 12; i++) rec.pod(pod, 'Warning', 'Unhealthy', `Readiness probe failed: ${i}`, 'c');
    events = store.list('events', { namespace: 'ns', fieldSelector: 'reason=Unhealthy' }).items as unknown as CoreV1Event[];
    expect(events).to.have.length(10);
    const combined = events.filter(e => e.message!.startsWith(COMBINED_PREFIX));
    expect(combined.map(e => [e.count, e.message])).to.deep.equal([[3, `${COMBINED_PREFIX}Readiness probe failed: 11`]]);
    expect(combined[0].involvedObject.fieldPath).to.equal('spec.containers{c}');
  });
});
