// work.startup-latency: latencies read from the API server's and kubelet's times, percentiles as
// upstream's e2emetrics takes them, and the density budgets.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { percentile, STARTUP_BUDGET, startupLatencyMs, startupVerdict } from '../../../../lib/catalog/work/startupLatency.ts';

const pod = (created: string, ...started: (string | undefined)[]): V1Pod => ({
  metadata: { name: 'p', creationTimestamp: new Date(created) },
  status: {
    containerStatuses: started.map((s, i) => ({
      name: `c${i}`,
      image: 'i',
      imageID: '',
      ready: !!s,
      restartCount: 0,
      state: s ? { running: { startedAt: new Date(s) } } : { waiting: {} },
    })),
  },
});

describe('work.startup-latency', () => {
  it('takes a pod from its creation to the last of its containers running, and none before all run', () => {
    expect(startupLatencyMs(pod('2026-01-01T00:00:00Z', '2026-01-01T00:00:04Z', '2026-01-01T00:00:07Z'))).to.equal(7_000);
    expect(startupLatencyMs(pod('2026-01-01T00:00:00Z', '2026-01-01T00:00:04Z', undefined))).to.equal(undefined);
    expect(startupLatencyMs(pod('2026-01-01T00:00:00Z'))).to.equal(undefined);
  });

  it('takes percentiles as sorted[ceil(n·p/100) − 1]: for 10 pods p50 is the 5th, p90 the 9th, p99 the 10th', () => {
    const s = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect([percentile(s, 50), percentile(s, 90), percentile(s, 99)]).to.deep.equal([5, 9, 10]);
  });

  it('passes within every budget and names each one exceeded', () => {
    expect(STARTUP_BUDGET).to.include({ p50Ms: 30_000, p90Ms: 54_000, p99Ms: 59_000, batchMs: 600_000 });
    const fast = Array.from({ length: 10 }, (_, i) => 1_000 * (i + 1));
    expect(startupVerdict(fast, 12_000).over).to.deep.equal([]);
    // Five slow pods move p50 past 30 s; the slowest one past 59 s.
    const slow = [1, 2, 3, 4, 31, 40, 45, 50, 53, 60].map(s => s * 1_000);
    const v = startupVerdict(slow, 700_000);
    expect(v.p50Ms).to.equal(31_000);
    expect(v.over).to.deep.equal(['p50 31 s over 30 s', 'p99 60 s over 59 s', 'batch 700 s over 600 s']);
  });
});
