import { expect } from 'chai';
import { calculateAllocatable } from '../../../../lib/catalog/res/allocatable.ts';

const GI = 2 ** 30;
const MI = 2 ** 20;

describe('res.allocatable-configz: the calculation', () => {
  it('subtracts systemReserved, kubeReserved and the hard eviction threshold from capacity', () => {
    const c = calculateAllocatable(32 * GI, {
      systemReserved: { memory: '1Gi', cpu: '500m' },
      kubeReserved: { memory: '512Mi' },
      evictionHard: { 'memory.available': '500Mi', 'nodefs.available': '10%' },
    });
    expect(c.allocatable).to.equal(32 * GI - GI - 512 * MI - 500 * MI);
  });

  it('reads a percentage threshold as a share of capacity, and leaves soft thresholds out as the kubelet does', () => {
    const c = calculateAllocatable(10 * GI, { evictionHard: { 'memory.available': '5%' }, evictionSoft: { 'memory.available': '1Gi' } });
    expect(c.evictionHard).to.equal(GI / 2);
    expect(c.evictionSoft).to.equal(GI);
    expect(c.allocatable).to.equal(9.5 * GI);
  });

  it('takes absent sections and unparsable values as zero (upstream does the same)', () => {
    expect(calculateAllocatable(8 * GI, { systemReserved: { memory: 'lots' } }).allocatable).to.equal(8 * GI);
  });
});
