// The whole catalog against the simulated cluster, as the issues check it: every ID of
// the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) has a feature and a JUnit testcase (n/a ones skipped with their reason), a
// default run shows no regression, and a profile lifting every documented limitation turns
// every limited feature into "lifted" (so each limitation is observable both ways).

import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { loadCatalog } from '../../lib/catalog/registry.ts';
import type { Feature } from '../../lib/catalog/types.ts';
import { defaultTimeouts } from '../../lib/cluster/timeouts.ts';
import { byPriority } from '../../lib/run/priority.ts';
import { LIMITATION_KEYS } from '../../sim/profiles/limitations.ts';
import type { Limitations } from '../../sim/profiles/types.ts';
import { FAST_NET, runOnSim, type SimRun } from '../support/simRun.ts';

const FEATURES_MD = resolve(import.meta.dirname, '../../../shared/FEATURES.md');
const EGRESS = 'http://egress.wincheck.test/';

/** IDs in the first column of the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/)'s catalog tables ("stor.nfs / stor.block" rows name several). */
function featuresMdIds(text: string): string[] {
  const ids: string[] = [];
  for (const line of text.split('\n')) {
    const first = /^\|\s*([^|]+?)\s*\|/.exec(line)?.[1];
    if (!first) continue;
    for (const id of first.split('/').map(s => s.trim())) if (/^[a-z]+\.[a-z0-9-]+$/.test(id)) ids.push(id);
  }
  return ids;
}

interface JUnitCase {
  '@_name': string;
  skipped?: { '@_message'?: string } | string;
  failure?: unknown;
  error?: unknown;
}

function testcases(run: SimRun): JUnitCase[] {
  const parser = new XMLParser({ ignoreAttributes: false, isArray: name => name === 'testcase' || name === 'testsuite' });
  const out: JUnitCase[] = [];
  for (const xml of Object.values(run.junit)) {
    const doc = parser.parse(xml) as { testsuite?: { testcase?: JUnitCase[] }[]; testsuites?: { testsuite?: { testcase?: JUnitCase[] }[] } };
    for (const suite of doc.testsuite ?? doc.testsuites?.testsuite ?? []) out.push(...(suite.testcase ?? []));
  }
  return out;
}

describe('acceptance: the whole catalog on the simulated cluster', function () {
  this.timeout(900_000);
  let catalog: Feature[];
  let ids: string[];
  before(async () => {
    catalog = await loadCatalog();
    ids = catalog.map(f => f.id);
  });

  it('has a feature for every ID of FEATURES.md', function () {
    if (!existsSync(FEATURES_MD)) {
      console.log(`    (${FEATURES_MD} is not beside the checkout: skipped)`);
      this.skip();
    }
    const wanted = featuresMdIds(readFileSync(FEATURES_MD, 'utf8'));
    expect(wanted.length).to.be.greaterThan(70);
    expect(wanted.filter(id => !ids.includes(id))).to.deep.equal([]);
  });

  describe('the default profile', () => {
    let run: SimRun;
    before(async () => {
      run = await runOnSim(ids, { egressUrl: EGRESS, timeouts: FAST_NET });
    });

    it('exits 0 with no regression or error', () => {
      const bad = [...run.results.values()].filter(r => r.outcome === 'regressed' || r.outcome === 'error').map(r => `${r.id}: ${r.outcome}: ${r.summary}`);
      expect(bad, bad.join('\n')).to.deep.equal([]);
      expect(run.exitCode).to.equal(0);
    });

    it('writes one JUnit testcase per feature, none missing, n/a ones skipped with their reason', () => {
      const cases = testcases(run);
      const named = (id: string) => cases.filter(c => c['@_name'].includes(` ${id}: `));
      expect(
        ids.filter(id => named(id).length !== 1),
        'features without exactly one testcase',
      ).to.deep.equal([]);
      expect(cases).to.have.length(ids.length);
      for (const r of run.results.values()) {
        if (r.outcome !== 'n/a') continue;
        const skipped = named(r.id)[0].skipped;
        const message = typeof skipped === 'object' ? skipped['@_message'] : undefined;
        expect(message, `${r.id} is n/a`).to.be.a('string').and.not.equal('');
      }
    });

    it('leaves nothing labelled with the run behind', () => {
      expect(run.leftover).to.deep.equal([]);
    });

    it('creates first the fixtures of the checks that wait longest by design (critical path first)', () => {
      const line = run.output.find(l => l.startsWith('Deploying '));
      const listed = line!.slice(line!.indexOf(': ') + 2, -1).split(', ');
      const longest = byPriority(catalog, { ...defaultTimeouts(), ...FAST_NET })[0];
      expect(
        longest.fixtures.map(s => s.id),
        line,
      ).to.include(listed[0]);
      // The networking pods (steady periods) before the first fixture of the catalog (no designed wait).
      expect(listed.indexOf('net-win'), line).to.be.within(0, listed.indexOf('os-selector'));
    });
  });

  it('lifting every documented limitation turns every limited feature into lifted', async () => {
    const all = Object.fromEntries(LIMITATION_KEYS.map(k => [k, false])) as Limitations;
    const run = await runOnSim(ids, { limitations: all, egressUrl: EGRESS, timeouts: FAST_NET });
    const limited = [...run.results.values()].filter(r => r.expectation.expected === 'limited');
    expect(limited.length).to.be.greaterThan(15);
    const notLifted = limited.filter(r => r.outcome !== 'lifted').map(r => `${r.id}: ${r.outcome}: ${r.summary}`);
    expect(notLifted, notLifted.join('\n')).to.deep.equal([]);
    expect(run.summaryMd).to.match(/lifted/);
    expect(run.exitCode, 'lifted passes without --strict').to.equal(0);
  });
});
