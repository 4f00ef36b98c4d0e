// The harness under the sim's faults: with API errors (429/500), dropped
// watches, connection resets and slow answers, every verdict equals the clean run's; under
// faults too heavy to get through, a check ends as `error` naming the fault, never as another
// verdict. Sized for `npm test` (a subset, two seeds); bench/faults.ts runs 10 seeds on the catalog.

import { expect } from 'chai';
import { FAULT_FEATURES, FAULT_WORDS, faulty } from '../support/faults.ts';
import { FAST_NET, runOnSim, type SimRun } from '../support/simRun.ts';

const outcomes = (r: SimRun) => Object.fromEntries([...r.results.values()].map(c => [c.id, c.outcome]));

describe('the harness under injected faults', function () {
  this.timeout(600_000);
  let clean: SimRun;

  before(async () => {
    clean = await runOnSim(FAULT_FEATURES, { timeouts: FAST_NET });
    expect(clean.results.size).to.equal(FAULT_FEATURES.length);
  });

  for (const seed of [7, 42])
    it(`5% API errors, dropped watches, resets, slow answers and a flapping node (seed ${seed}): every verdict equals the clean run's, nothing left behind`, async () => {
      const r = await runOnSim(FAULT_FEATURES, { timeouts: FAST_NET, edit: faulty(seed) });
      expect(outcomes(r), r.output.join('\n')).to.deep.equal(outcomes(clean));
      expect(r.leftoverObjects).to.deep.equal([]);
    });

  it("the API server's watch clock 500x faster (compaction every 0.6 s, bookmarks every 0.12 s, watches closed after 3.6 to 7.2 s): every verdict equals the clean run's, nothing left behind", async () => {
    // Real servers compact etcd every 5 minutes and close watches after 30 to 60 (sim/api/timing.ts):
    // a long run resumes many closed watches, each from the last resourceVersion it saw. Bookmarks
    // keep those inside the window here (no 410 was counted in this run); the relist on a 410 is
    // test/harness/cluster/watchExpiry.test.ts.
    let firstOldest = 0;
    let lastOldest = 0;
    const r = await runOnSim(FAULT_FEATURES, {
      timeouts: FAST_NET,
      edit: p => {
        p.apiTimeScale = 0.002;
      },
      onSim: sim => {
        firstOldest = sim.store.oldestRV();
        // The sim is the run's own and stops with it, listener and all.
        sim.store.onAny(() => {
          lastOldest = sim.store.oldestRV();
        });
      },
    });
    expect(lastOldest, 'etcd was compacted during the run').to.be.greaterThan(firstOldest);
    expect(outcomes(r), r.output.join('\n')).to.deep.equal(outcomes(clean));
    expect(r.leftoverObjects).to.deep.equal([]);
  });

  it('faults too heavy to get through: a check is the clean verdict or an error naming the fault, never another verdict', async () => {
    let r: SimRun;
    try {
      r = await runOnSim(FAULT_FEATURES, { timeouts: FAST_NET, edit: faulty(3, { apiErrorRate: 0.35, connResetRate: 0.2 }) });
    } catch (e) {
      // Stopped before any check (preflight, RBAC questions): acceptable if it names the fault.
      expect(String((e as Error).message)).to.match(FAULT_WORDS);
      return;
    }
    const wrong = [...r.results.values()].filter(
      c => c.outcome !== clean.results.get(c.id)?.outcome && !(c.outcome === 'error' && FAULT_WORDS.test(`${c.reason} ${c.error ?? ''}`)),
    );
    expect(
      wrong.map(c => `${c.id}: ${c.outcome}: ${c.reason}`),
      r.output.join('\n'),
    ).to.deep.equal([]);
  });
});
