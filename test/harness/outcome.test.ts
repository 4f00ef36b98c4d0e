import { expect } from 'chai';
import { isFailing, outcomeOf } from '../../lib/catalog/outcome.ts';
import type { Expectation, Observation } from '../../lib/catalog/types.ts';

const sup: Expectation = { expected: 'supported', reason: 'documented', source: 'seed 000' };
const lim: Expectation = { expected: 'limited', reason: 'no ICMP', source: 'seed 003' };
const na: Expectation = { expected: 'n/a', reason: 'no RuntimeClass', source: 'FEATURES.md' };
const works: Observation = { works: true, summary: 'it answered', evidence: [] };
const fails: Observation = { works: false, summary: 'no answer', evidence: [] };

describe('outcomeOf', () => {
  const table: [string, Expectation, Observation | undefined, unknown, string][] = [
    ['supported + works = supported', sup, works, undefined, 'supported'],
    ['supported + fails = regressed', sup, fails, undefined, 'regressed'],
    ['limited + fails = limited', lim, fails, undefined, 'limited'],
    ['limited + works = lifted', lim, works, undefined, 'lifted'],
    ['n/a is n/a without probing', na, undefined, undefined, 'n/a'],
    ['n/a wins over an error', na, undefined, new Error('x'), 'n/a'],
    ['a probe that threw = error', sup, undefined, new Error('exec failed'), 'error'],
    ['no observation = error', sup, undefined, undefined, 'error'],
    ['a probe finding a precondition missing = n/a', sup, { ...fails, notApplicable: 'no LB' }, undefined, 'n/a'],
  ];
  for (const [name, e, o, err, want] of table)
    it(name, () => expect(outcomeOf(e, o, err).outcome).to.equal(want));

  it('says why a regression happened', () => {
    expect(outcomeOf(sup, fails).reason).to.equal('documented to work (documented), but no answer');
  });

  it('keeps the error chain in the reason', () => {
    const e = new Error('failed to deploy fixture "iis"', { cause: new Error('quota exceeded') });
    expect(outcomeOf(sup, undefined, e).reason).to.equal('the check could not tell: failed to deploy fixture "iis": quota exceeded');
  });

  it('fails the run on regressed and error, on lifted only under --strict', () => {
    expect(isFailing('regressed', false)).to.equal(true);
    expect(isFailing('error', false)).to.equal(true);
    expect(isFailing('lifted', false)).to.equal(false);
    expect(isFailing('lifted', true)).to.equal(true);
    expect(isFailing('limited', true)).to.equal(false);
    expect(isFailing('n/a', true)).to.equal(false);
  });
});
