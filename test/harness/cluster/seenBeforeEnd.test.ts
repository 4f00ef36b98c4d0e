// seenBeforeEnd: a wait that ran out is "not seen" (an observation); the harness's own failure
// while waiting, or the run's interrupt, is not, and stays an error.

import { expect } from 'chai';
import { seenBeforeEnd, WaitTimeoutError } from '../../../lib/cluster/watch.ts';

describe('seenBeforeEnd', () => {
  const live = () => new AbortController();

  it('true when seen; false at the deadline or when stopped on purpose', async () => {
    expect(await seenBeforeEnd(Promise.resolve(true), live().signal, live().signal)).to.equal(true);
    expect(await seenBeforeEnd(Promise.reject(new WaitTimeoutError('timed out')), live().signal, live().signal)).to.equal(false);
    const ended = live();
    ended.abort();
    expect(await seenBeforeEnd(Promise.reject(new Error('interrupted while waiting')), ended.signal, live().signal)).to.equal(false);
  });

  it("rethrows the harness's own failure (a 403) and the run's interrupt: nothing was observed", async () => {
    const forbidden = new Error('HTTP 403 Forbidden');
    const e1 = await seenBeforeEnd(Promise.reject(forbidden), live().signal, live().signal).catch((e: unknown) => e);
    expect(e1).to.equal(forbidden);
    const run = live();
    run.abort();
    const e2 = await seenBeforeEnd(Promise.reject(new WaitTimeoutError('timed out')), run.signal, run.signal).catch((e: unknown) => e);
    expect(e2).to.be.instanceOf(WaitTimeoutError);
  });
});
