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
