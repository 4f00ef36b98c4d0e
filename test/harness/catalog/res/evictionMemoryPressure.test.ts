// res.eviction-memory-pressure: upstream eviction.go's pod2 size and PodIsEvicted; disruptive
// (needs disruptive-node) and supported with its sources.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { features, isEvicted, pod2Chunks } from '../../../../lib/catalog/res/evictionMemoryPressure.ts';
import { isDisruptive } from '../../../../lib/run/disruptive.ts';
import type { ClusterInfo } from '../../../../lib/discovery/types.ts';

const MI = 2 ** 20;

describe('res.eviction-memory-pressure', () => {
  const f = features.find(x => x.id === 'res.eviction-memory-pressure')!;

  it('sizes pod2 as upstream: (capacity - threshold) / 300Mi + 3 chunks of 300 MB', () => {
    expect(pod2Chunks(16 * 1024 * MI, 500 * MI)).to.equal(55);
    expect(pod2Chunks(8 * 1024 * MI, 500 * MI)).to.equal(28);
  });

  it('counts a pod evicted only with phase Failed and reason Evicted (PodIsEvicted)', () => {
    expect(isEvicted({ status: { phase: 'Failed', reason: 'Evicted' } } as V1Pod)).to.equal(true);
    expect(isEvicted({ status: { phase: 'Failed', reason: 'Terminated' } } as V1Pod)).to.equal(false);
    expect(isEvicted({ status: { phase: 'Running', reason: 'Evicted' } } as V1Pod)).to.equal(false);
  });

  it('is disruptive (takes its turn on the --disruptive-node) and supported, citing eviction.go and the kubelet', () => {
    expect(isDisruptive(f)).to.equal(true);
    const e = f.expect({ nodes: [] } as unknown as ClusterInfo);
    expect(e.expected).to.equal('supported');
    expect(JSON.stringify(e.source)).to.contain('test/e2e/windows/eviction.go').and.contain('pkg/kubelet/eviction/helpers.go');
  });
});
