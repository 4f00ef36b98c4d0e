// results.json schema 2: a per-build check is written with the feature ID in `id` and its build in
// `build`; merge and --rerun-failed read schema 1 (build inside the id) and 2 alike.

import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckResult, Outcome } from '../../../lib/catalog/types.ts';
import { renderResultsJson } from '../../../lib/report/json.ts';
import { failedFeatureIds, readResults } from '../../../lib/report/resultsFile.ts';
import { emptyCounts, type RunInfo, type RunSummary } from '../../../lib/run/events.ts';
import { RESULTS_SCHEMA_VERSION } from '../../../lib/facts/wincheck.ts';
import { cluster } from '../../support/clusterFixture.ts';
import { cite } from '../../../lib/facts/sources.ts';

function result(id: string, outcome: Outcome): CheckResult {
  return {
    id,
    area: 'isolation',
    suite: 'isolation',
    title: `title of ${id}`,
    expectation: { expected: 'supported', reason: 'r', source: [cite.v122Intro()] },
    outcome,
    reason: 'why',
    summary: 'seen',
    evidence: [],
    steps: [],
    durationMs: 10,
  };
}

const results = [result('iso.hostprocess [ltsc2022]', 'regressed'), result('iso.hostprocess [ltsc2019]', 'supported'), result('iso.process', 'error')];

const run: RunInfo = {
  runId: 'rtest02',
  namespace: 'wincheck-rtest02',
  simulated: false,
  cluster: cluster(),
  strict: false,
  startedAt: '2026-12-02T00:00:00.000Z',
  selected: [],
  reportDir: '/tmp',
  kubeconfigSource: 'test',
};

function summary(rs: CheckResult[]): RunSummary {
  const counts = emptyCounts();
  for (const r of rs) counts[r.outcome]++;
  return { status: 'failed', counts, results: rs, durationMs: 1, errors: [] };
}

function fileWith(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'wincheck-results-')), 'results.json');
  writeFileSync(file, text);
  return file;
}

describe('results.json schema 2', () => {
  it('writes the feature ID in id and the Windows build in build', () => {
    const j = JSON.parse(renderResultsJson(run, summary(results)));
    expect(j.schemaVersion).to.equal(RESULTS_SCHEMA_VERSION).and.equal('2');
    expect(j.summary.results.map((r: { id: string; build?: string }) => [r.id, r.build])).to.deep.equal([
      ['iso.hostprocess', 'ltsc2022'],
      ['iso.hostprocess', 'ltsc2019'],
      ['iso.process', undefined],
    ]);
  });

  it('reads back what it writes: the run keeps one result per build', () => {
    const loaded = readResults(fileWith(renderResultsJson(run, summary(results))));
    expect(loaded.summary.results.map(r => r.id)).to.deep.equal(results.map(r => r.id));
    expect(failedFeatureIds(loaded)).to.deep.equal(['iso.hostprocess', 'iso.process']);
  });

  it('reads schema 1, where the build was part of the id', () => {
    const v1 = JSON.stringify({ schemaVersion: '1', wincheckVersion: '0.1.0', run, summary: summary(results) });
    const loaded = readResults(fileWith(v1));
    expect(loaded.schemaVersion).to.equal('1');
    expect(loaded.summary.results.map(r => r.id)).to.deep.equal(results.map(r => r.id));
  });

  it('refuses a newer major schema, naming the file', () => {
    const file = fileWith(JSON.stringify({ schemaVersion: '3', run, summary: summary([]) }));
    expect(() => readResults(file)).to.throw(/schema 3; this wincheck/);
    expect(() => readResults(file)).to.throw(file);
  });
});
