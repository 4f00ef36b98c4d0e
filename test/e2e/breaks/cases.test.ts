// The break cases are test data keyed by feature ID: a typo (or a renamed feature) would make a
// case expect nothing of a feature that exists. Every ID they name must be in the catalog.

import { expect } from 'chai';
import { loadCatalog } from '../../../lib/catalog/registry.ts';
import { BREAK_CASES } from './cases.ts';

describe('break cases name only features of the catalog', () => {
  it('every id in regressed, error and outcomes is a feature', async () => {
    const ids = new Set((await loadCatalog()).map(f => f.id));
    const unknown = BREAK_CASES.flatMap(c =>
      [...c.regressed, ...c.error, ...Object.keys(c.outcomes ?? {})].filter(id => !ids.has(id)).map(id => `${c.name}: ${id}`),
    );
    expect(unknown).to.deep.equal([]);
    expect(BREAK_CASES.flatMap(c => c.regressed).length).to.be.greaterThan(0);
  });
});
