// The upstream Windows e2e spec map: every claimed feature is in the catalog, every row says
// what covers it or why nothing does, and docs/upstream-e2e.md is the table as rendered now.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { loadCatalog } from '../../../lib/catalog/registry.ts';
import { coverageOf, renderUpstreamDoc, UPSTREAM_SPECS } from '../../data/upstreamE2e.ts';

const DOC = new URL('../../../docs/upstream-e2e.md', import.meta.url);

describe('upstream Windows e2e spec map', () => {
  let ids: Set<string>;
  before(async () => {
    ids = new Set((await loadCatalog()).map(f => f.id));
  });

  it('every feature a row claims is in the catalog', () => {
    const unknown = UPSTREAM_SPECS.flatMap(r => (r.features ?? []).filter(id => !ids.has(id)).map(id => `${r.file}: ${r.spec}: ${id}`));
    expect(unknown).to.deep.equal([]);
  });

  it('every row is covered, or says why not', () => {
    const silent = UPSTREAM_SPECS.filter(r => coverageOf(r, ids) === 'missing' && !r.note && !r.planned?.length && !r.notApplicable).map(r => r.spec);
    expect(silent).to.deep.equal([]);
    const keys = UPSTREAM_SPECS.map(r => `${r.file} ${r.spec}`);
    expect(keys.length, 'rows listed twice').to.equal(new Set(keys).size);
  });

  it('a planned feature counts once it is in the catalog', () => {
    const row = { file: 'x.go', spec: 'x', planned: ['net.pod-ip'] };
    expect(coverageOf(row, ids)).to.equal('covered');
    expect(coverageOf({ ...row, planned: ['net.not-yet'] }, ids)).to.equal('missing');
  });

  it('docs/upstream-e2e.md is the table as rendered against the catalog (npm run docs)', () => {
    expect(readFileSync(DOC, 'utf8')).to.equal(renderUpstreamDoc(ids));
  });
});
