// What the cleanup says holds a terminating namespace: the namespace controller's True
// conditions and the pods still there (since when, their grace, their finalizers).

import { expect } from 'chai';
import type { V1Namespace, V1Pod } from '@kubernetes/client-node';
import { describeTerminating } from '../../../lib/cluster/namespace.ts';

describe('harness: a terminating namespace described', () => {
  it('names the True conditions, the namespace finalizers and each pod left', () => {
    const ns: V1Namespace = {
      metadata: { name: 'wincheck-abc', deletionTimestamp: new Date('2026-01-01T00:00:00Z') },
      spec: { finalizers: ['kubernetes'] },
      status: {
        phase: 'Terminating',
        conditions: [
          { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', message: 'All resources successfully discovered' },
          { type: 'NamespaceContentRemaining', status: 'True', message: 'Some resources are remaining: pods has 1 resource instances' },
          {
            type: 'NamespaceFinalizersRemaining',
            status: 'True',
            message: 'Some content in the namespace has finalizers remaining: kubernetes.io/pvc-protection in 1 resource instances',
          },
        ],
      },
    };
    const pod: V1Pod = {
      metadata: { name: 'iis', deletionTimestamp: new Date('2026-01-01T00:00:05Z'), deletionGracePeriodSeconds: 120, finalizers: ['example.com/hold'] },
      spec: { containers: [] },
    };
    expect(describeTerminating(ns, [pod])).to.equal(
      'phase Terminating, finalizers kubernetes; NamespaceContentRemaining: Some resources are remaining: pods has 1 resource instances; ' +
        'NamespaceFinalizersRemaining: Some content in the namespace has finalizers remaining: kubernetes.io/pvc-protection in 1 resource instances; ' +
        'pods: iis (terminating since 2026-01-01T00:00:05.000Z, grace 120s, finalizers example.com/hold)',
    );
    expect(describeTerminating(undefined, [])).to.equal('gone');
  });
});
