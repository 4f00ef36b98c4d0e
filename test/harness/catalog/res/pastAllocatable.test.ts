import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { pastAllocatablePod } from '../../../../lib/catalog/res/pastAllocatable.ts';

describe('res.past-allocatable: the oversized pod', () => {
  it('asks for the memory on the one node by node affinity, never by nodeName (the scheduler must judge it)', () => {
    const pod: V1Pod = {
      metadata: { name: 'mem-fit' },
      spec: {
        nodeName: 'win-1',
        nodeSelector: { 'kubernetes.io/os': 'windows' },
        containers: [{ name: 'agnhost', resources: { requests: { memory: '100Mi' } } }],
      },
    };
    pastAllocatablePod(pod, 'win-1', 31.5 * 2 ** 30);
    expect(pod.spec!.nodeName).to.equal(undefined);
    expect(pod.spec!.containers[0].resources).to.deep.equal({ requests: { memory: '32256Mi' }, limits: { memory: '32256Mi' } });
    expect(pod.spec!.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms[0].matchFields).to.deep.equal([
      { key: 'metadata.name', operator: 'In', values: ['win-1'] },
    ]);
    expect(pod.spec!.nodeSelector).to.deep.equal({ 'kubernetes.io/os': 'windows' });
  });
});
