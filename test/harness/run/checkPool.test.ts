import { expect } from 'chai';
import type { CheckResult, Feature } from '../../../lib/catalog/types.ts';
import { CheckPool } from '../../../lib/run/checkPool.ts';

const feature = (id: string) => ({ id, area: 'scheduling', title: id, fixtures: [] }) as unknown as Feature;
const result = (f: Feature, outcome: CheckResult['outcome']) => ({ id: f.id, outcome }) as CheckResult;

describe('CheckPool', () => {
  it('runs at most `limit` checks at once, starting them in order', async () => {
    const features = ['a', 'b', 'c', 'd', 'e'].map(feature);
    let running = 0,
      peak = 0;
    const started: string[] = [];
    const pool = new CheckPool(
      features,
      2,
      async f => {
        started.push(f.id);
        peak = Math.max(peak, ++running);
        await new Promise(r => setTimeout(r, 10));
        running--;
        return result(f, 'supported');
      },
      f => result(f, 'error'),
      new AbortController().signal,
    );
    pool.start();
    const all = await Promise.all(features.map(f => pool.result(f)));
    expect(all.map(r => r.id)).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    expect(started).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    expect(peak).to.equal(2);
  });

  it('does not start checks after an interrupt; they resolve as not run', async () => {
    const abort = new AbortController();
    const features = ['a', 'b', 'c'].map(feature);
    const pool = new CheckPool(
      features,
      1,
      async f => {
        abort.abort();
        return result(f, 'supported');
      },
      f => result(f, 'error'),
      abort.signal,
    );
    pool.start();
    const all = await Promise.all(features.map(f => pool.result(f)));
    expect(all.map(r => r.outcome)).to.deep.equal(['supported', 'error', 'error']);
  });
});
