// Session-affinity timeout: honoured by Linux kube-proxy, ignored on Windows unless lifted.

import { expect } from 'chai';
import type { V1Service } from '@kubernetes/client-node';
import { BackendPicker } from '../../../sim/network/backends.ts';
import { Policy } from '../../../sim/network/policy.ts';
import { makeProfile } from '../../support/simNetwork.ts';

const svc: V1Service = { spec: { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 10 } } } };
const backends = [
  { address: '127.21.0.2', port: 80 },
  { address: '127.22.0.2', port: 80 },
];

function afterTimeout(policy: Policy, node: string): [string, string] {
  const p = new BackendPicker();
  const rule = policy.affinity(node);
  const first = p.pick('f', svc, backends, '127.23.0.2', rule, 0);
  const later = p.pick('f', svc, backends, '127.23.0.2', rule, 11_000);
  return [first.address, later.address];
}

describe('sim network: session affinity timeout', () => {
  it('expires after timeoutSeconds on Linux', () => {
    const [a, b] = afterTimeout(new Policy(makeProfile()), 'lin-1');
    expect(a).to.not.equal(b);
  });
  it('is ignored on Windows (stays sticky) while the limitation holds', () => {
    const [a, b] = afterTimeout(new Policy(makeProfile()), 'win-2022');
    expect(a).to.equal(b);
  });
  it('expires on Windows when the limitation is lifted', () => {
    const [a, b] = afterTimeout(new Policy(makeProfile({ limitations: { sessionAffinityTimeout: false } })), 'win-2022');
    expect(a).to.not.equal(b);
  });
  it('is not sticky at all on 2019 builds, or when broken', () => {
    expect(new Policy(makeProfile()).affinity('win-2019').sticky).to.equal(false);
    expect(new Policy(makeProfile({ breaks: ['session-affinity'] })).affinity('win-2022').sticky).to.equal(false);
    expect(new Policy(makeProfile()).affinity('win-2022').sticky).to.equal(true);
  });
});
