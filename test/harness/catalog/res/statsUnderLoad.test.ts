// res.stats-under-load's judgement, as upstream's kubelet_stats.go judges: every pod listed with
// CPU and working set above zero, every container with log stats, and a 10 s average.

import { expect } from 'chai';
import { latencyVerdict, STATS_LOAD, statsProblems } from '../../../../lib/catalog/res/statsUnderLoad.ts';
import type { PodStats, StatsSummary } from '../../../../lib/catalog/kit/kubeletStats.ts';

const pod = (name: string, over: Partial<PodStats> = {}): PodStats => ({
  podRef: { name, namespace: 'ns' },
  cpu: { usageCoreNanoSeconds: 1_000 },
  memory: { workingSetBytes: 4096 },
  containers: [{ name: 'stat-container', logs: { availableBytes: 1 << 30 } }],
  ...over,
});
const summary = (pods: PodStats[]): StatsSummary => ({ node: { nodeName: 'win-1' }, pods });

describe('res.stats-under-load judgement', () => {
  it('finds nothing missing when every pod has its figures', () => {
    expect(statsProblems(summary([pod('a'), pod('b')]), 'ns', ['a', 'b'])).to.deep.equal([]);
  });

  it('names a pod not listed, one listed in another namespace, zero CPU, absent working set and absent log stats', () => {
    const problems = statsProblems(
      summary([
        { ...pod('a'), podRef: { name: 'a', namespace: 'other' } },
        pod('b', { cpu: { usageCoreNanoSeconds: 0 } }),
        pod('c', { memory: {} }),
        pod('d', { containers: [{ name: 'stat-container' }] }),
      ]),
      'ns',
      ['a', 'b', 'c', 'd'],
    );
    expect(problems).to.deep.equal([
      'pod a is not listed',
      'pod b: cpu.usageCoreNanoSeconds 0',
      'pod c: memory.workingSetBytes absent',
      'pod d container stat-container: logs.availableBytes absent',
    ]);
  });

  it('holds the average to the 10 s budget: 9.9 s passes, 10.1 s fails, one slow read among fast ones averages out', () => {
    expect(STATS_LOAD.budgetMs).to.equal(10_000);
    expect(latencyVerdict([9_900, 9_900, 9_900, 9_900, 9_900])).to.deep.equal({ averageMs: 9_900, within: true });
    expect(latencyVerdict([10_100, 10_100, 10_100, 10_100, 10_100]).within).to.equal(false);
    expect(latencyVerdict([30_000, 100, 100, 100, 100])).to.deep.equal({ averageMs: 6_080, within: true });
  });
});
