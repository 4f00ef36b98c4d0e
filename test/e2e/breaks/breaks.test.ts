// Every break the sim profile supports, against the whole catalog: exactly the features that
// depend on the broken behaviour regress, the features whose means it breaks are `error` (naming
// the means or the failed control), every other feature keeps its outcome of the unbroken run,
// and nothing turns limited or lifted without a passing positive control.
//
// Each run takes about a minute on the sim, so `npm test` runs the breaks of the means most checks rest on (exec,
// cluster DNS, PVC binding, the Service path, RBAC on logs/port-forward/metrics, the secret
// volume, the DaemonSet controller) in four runs; WINCHECK_BREAKS=all runs every case below.

import { expect } from 'chai';
import { loadCatalog } from '../../../lib/catalog/registry.ts';
import type { CheckResult, Outcome } from '../../../lib/catalog/types.ts';
import { BREAKABLE, type BreakKey } from '../../../sim/profiles/types.ts';
import { FAST_NET, runOnSim, type SimRun, type SimRunOptions } from '../../support/simRun.ts';
import { BREAK_CASES, DEFAULT_CASES, type BreakCase } from './cases.ts';

const EGRESS = 'http://egress.wincheck.test/';
/** Node checks over SSH (the sim's keys), so that breaks of Windows pods leave node access alone. */
const OPTIONS: SimRunOptions = {
  ssh: true,
  egressUrl: EGRESS,
  inChild: true,
  timeouts: { ...FAST_NET, netLoadBalancer: 30_000, podStart: 30_000, rollout: 30_000 },
};

const all = process.env.WINCHECK_BREAKS === 'all';
// WINCHECK_BREAKS=<name>,<name> runs those cases only.
const named = !all && process.env.WINCHECK_BREAKS ? process.env.WINCHECK_BREAKS.split(',') : undefined;
const selected = all ? BREAK_CASES : BREAK_CASES.filter(c => (named ?? DEFAULT_CASES).includes(c.name));

const name = (c: BreakCase) => `${c.name} [${c.breaks.join(', ')}]`;
const line = (r: CheckResult | undefined) => (r ? `${r.outcome}: ${r.outcome === 'error' ? r.reason : r.summary}`.slice(0, 400) : 'no result');

describe('every break regresses exactly its dependents, and nothing turns limited or lifted unseen', function () {
  this.timeout(30 * 60_000);
  let ids: string[];
  let baseline: SimRun;
  const runs = new Map<string, SimRun>();

  before(async () => {
    ids = (await loadCatalog()).map(f => f.id);
    // One run at a time: whole-catalog runs side by side overload a 2-core machine (API calls time
    // out), and an overloaded run differs from the baseline for reasons no break explains.
    // WINCHECK_BREAKS=all runs two at a time, each in its own process.
    const jobs: { key: string; breaks: BreakKey[] }[] = [{ key: '', breaks: [] }, ...selected.map(c => ({ key: c.name, breaks: c.breaks }))];
    const worker = async () => {
      for (let j = jobs.shift(); j; j = jobs.shift()) runs.set(j.key, await runOnSim(ids, { ...OPTIONS, breaks: j.breaks }));
    };
    await Promise.all(all ? [worker(), worker()] : [worker()]);
    baseline = runs.get('')!;
  });

  it('the table names only breaks the sim knows, and every break has a case', () => {
    const covered = new Set(BREAK_CASES.flatMap(c => c.breaks));
    expect(
      BREAKABLE.filter(b => !covered.has(b)),
      'breaks without a case',
    ).to.deep.equal([]);
    for (const c of BREAK_CASES)
      for (const id of [...c.regressed, ...c.error, ...Object.keys(c.outcomes ?? {})]) expect(ids, `${c.name}: ${id}`).to.include(id);
  });

  it('the unbroken run has no regression and no error', () => {
    const bad = [...baseline.results.values()].filter(r => r.outcome === 'regressed' || r.outcome === 'error').map(r => `${r.id}: ${line(r)}`);
    expect(bad).to.deep.equal([]);
  });

  for (const c of selected) {
    describe(name(c), () => {
      if (c.random) {
        it(`regresses at most: ${c.regressed.join(', ')} (${c.random})`, () => {
          const run = runs.get(c.name)!;
          const extra = [...run.results.values()].filter(r => r.outcome === 'regressed' && !c.regressed.includes(r.id)).map(r => `${r.id}: ${line(r)}`);
          expect(extra).to.deep.equal([]);
        });
      } else {
        it(`regresses exactly: ${c.regressed.join(', ') || 'nothing'}`, () => {
          const run = runs.get(c.name)!;
          const regressed = [...run.results.values()]
            .filter(r => r.outcome === 'regressed')
            .map(r => r.id)
            .sort();
          expect(
            regressed,
            [...run.results.values()]
              .filter(r => r.outcome === 'regressed')
              .map(r => `${r.id}: ${line(r)}`)
              .join('\n'),
          ).to.deep.equal([...c.regressed].sort());
          for (const id of c.regressed) expect(run.results.get(id)!.evidence.length, `${id} evidence`).to.be.greaterThan(0);
        });

        it(`errors exactly where its means broke: ${c.error.length} feature(s)`, () => {
          const run = runs.get(c.name)!;
          const errors = [...run.results.values()]
            .filter(r => r.outcome === 'error')
            .map(r => r.id)
            .sort();
          expect(
            errors,
            [...run.results.values()]
              .filter(r => r.outcome === 'error')
              .map(r => `${r.id}: ${line(r)}`)
              .join('\n'),
          ).to.deep.equal([...c.error].sort());
        });

        it('every other feature keeps its unbroken outcome', () => {
          const run = runs.get(c.name)!;
          const changed: string[] = [];
          for (const id of ids) {
            if (c.regressed.includes(id) || c.error.includes(id)) continue;
            const want: Outcome = c.outcomes?.[id] ?? baseline.results.get(id)!.outcome;
            const got = run.results.get(id);
            if (got?.outcome !== want) changed.push(`${id}: want ${want}, got ${line(got)}`);
          }
          expect(changed).to.deep.equal([]);
        });
      }

      it('nothing is limited or lifted without a passing positive control', () => {
        const run = runs.get(c.name)!;
        for (const r of run.results.values()) {
          if (r.outcome !== 'limited' && r.outcome !== 'lifted') continue;
          expect(
            r.evidence.some(e => typeof e === 'string' && e.startsWith('control passed: ')),
            `${r.id}: ${line(r)}`,
          ).to.equal(true);
        }
      });
    });
  }
});
