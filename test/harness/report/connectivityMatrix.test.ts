// The connectivity matrix of summary.md, from a set of results: each networking path lands in
// its source × destination cell with the word of its outcome; other areas are ignored.

import { expect } from 'chai';
import type { CheckResult, Outcome } from '../../../lib/catalog/types.ts';
import { buildConnectivityMatrix, renderConnectivityMatrix } from '../../../lib/report/connectivityMatrix.ts';
import { renderSummary } from '../../../lib/report/summary.ts';
import { emptyCounts, type RunInfo } from '../../../lib/run/events.ts';
import { cluster } from '../../support/clusterFixture.ts';

function result(id: string, outcome: Outcome): CheckResult {
  const area = id.startsWith('net.') ? 'networking' : 'workloads';
  return {
    id,
    area,
    suite: area,
    title: id,
    outcome,
    reason: 'r',
    summary: 's',
    evidence: [],
    steps: [],
    durationMs: 1,
    expectation: { expected: outcome === 'limited' || outcome === 'lifted' ? 'limited' : outcome === 'n/a' ? 'n/a' : 'supported', reason: 'r', source: [] },
  };
}

const RESULTS: CheckResult[] = [
  result('net.w2w-same-node', 'supported'),
  result('net.w2l', 'regressed'),
  result('net.l2w', 'supported'),
  result('net.icmp-egress', 'limited'),
  result('net.egress', 'n/a'),
  result('net.node-to-pod', 'error'),
  result('net.nodeport-local', 'lifted'),
  result('net.nodeport-external', 'supported'),
  result('net.session-affinity', 'supported'), // a property of a path: not in the matrix
  result('work.iis-pod', 'regressed'), // another area: ignored
];

describe('connectivity matrix', () => {
  it('puts each path in its cell with ok / limited / failed / n/a (error and lifted said as such)', () => {
    const m = buildConnectivityMatrix(RESULTS);
    expect(m.sources).to.deep.equal(['windows-pod', 'linux-pod', 'windows-node', 'outside']);
    expect(m.cells['windows-pod']?.['windows-pod-same-node']?.word).to.equal('ok');
    expect(m.cells['windows-pod']?.['linux-pod']?.word).to.equal('failed');
    expect(m.cells['linux-pod']?.['windows-pod-other-node']?.word).to.equal('ok');
    expect(m.cells['windows-pod']?.['outside-icmp']?.word).to.equal('limited');
    expect(m.cells['windows-pod']?.['outside-tcp']?.word).to.equal('n/a');
    expect(m.cells['windows-node']?.['windows-pod-same-node']?.word).to.equal('error');
    expect(m.cells['windows-node']?.['own-nodeport']?.word).to.equal('ok (lifted)');
    expect(m.cells.outside?.nodeport?.word).to.equal('ok');
  });

  it('leaves out destinations no result reached and features that are not paths', () => {
    const m = buildConnectivityMatrix(RESULTS);
    expect(m.destinations).to.not.include('loadbalancer');
    const ids = Object.values(m.cells).flatMap(row => Object.values(row ?? {}).flatMap(c => c?.features.map(f => f.id) ?? []));
    expect(ids).to.not.include('net.session-affinity');
    expect(ids).to.not.include('work.iis-pod');
    expect(ids).to.have.length(8);
  });

  it('shows the worst outcome first when several features share a cell', () => {
    const m = buildConnectivityMatrix([
      result('net.pod-to-clusterip', 'supported'),
      result('net.node-to-service', 'supported'),
      result('net.w2w-cross-node', 'supported'),
      result('net.l2w', 'regressed'),
    ]);
    expect(m.cells['linux-pod']?.['windows-pod-other-node']?.word).to.equal('failed');
    const shared = buildConnectivityMatrix([result('net.w2w-same-node', 'limited'), result('net.node-to-pod', 'supported')]);
    expect(shared.cells['windows-node']?.['windows-pod-same-node']?.word).to.equal('ok');
  });

  it('renders a markdown table naming the feature behind each cell', () => {
    const md = renderConnectivityMatrix(RESULTS).join('\n');
    expect(md).to.contain('## Connectivity matrix');
    expect(md).to.match(/\| \*\*Windows pod\*\* \| ok <sub>w2w-same-node<\/sub> \| {2}\| \*\*failed\*\* <sub>w2l<\/sub> \|/);
    expect(md).to.contain('**ok (lifted)** ⚑ <sub>nodeport-local</sub>');
    const header = md.split('\n').find(l => l.startsWith('| from'))!;
    const rows = md.split('\n').filter(l => l.startsWith('| **'));
    for (const r of rows) expect(r.split(' | ').length).to.equal(header.split(' | ').length);
  });

  it('is empty without networking results, and part of summary.md with them', () => {
    expect(renderConnectivityMatrix([result('work.iis-pod', 'supported')])).to.deep.equal([]);
    const run: RunInfo = {
      runId: 'r',
      namespace: 'ns',
      simulated: false,
      cluster: cluster(),
      strict: false,
      startedAt: '',
      selected: [],
      reportDir: '.',
      kubeconfigSource: 'test',
    };
    const md = renderSummary(run, { status: 'failed', counts: emptyCounts(), results: RESULTS, durationMs: 1, errors: [] });
    expect(md).to.contain('## Connectivity matrix');
    expect(md.indexOf('## Connectivity matrix')).to.be.lessThan(md.indexOf('## Cluster'));
  });
});
