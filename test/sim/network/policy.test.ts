// The path policy as a table: each documented limitation holds by default and can be
// lifted; each break drops only its own path.

import { expect } from 'chai';
import { Policy, type Target } from '../../../sim/network/policy.ts';
import type { Endpoint } from '../../../sim/network/types.ts';
import type { BreakKey, Limitations } from '../../../sim/profiles/types.ts';
import { makeProfile } from '../../support/simNetwork.ts';

const pod = (os: 'linux' | 'windows', node: string): Endpoint => ({ kind: 'pod', id: `default/${node}-p`, os, node, address: '127.21.0.2' });
const node = (os: 'linux' | 'windows', name: string): Endpoint => ({ kind: 'node', id: name, os, node: name, address: '127.10.0.3' });
const outside: Endpoint = { kind: 'external', id: 'outside', os: 'linux', address: '127.250.0.2' };
const podT = (os: 'linux' | 'windows', n: string): Target => ({ kind: 'pod', address: '127.22.0.2', os, node: n });
const cip: Target = { kind: 'service', address: '127.96.0.11', via: 'clusterIP' };
const np = (os: 'linux' | 'windows', n: string): Target => ({ kind: 'service', address: '127.10.0.3', via: 'nodePort', os, node: n });
const ext: Target = { kind: 'external', address: '127.250.0.1' };

const W = pod('windows', 'win-2022'),
  W19 = pod('windows', 'win-2019'),
  L = pod('linux', 'lin-1');

function verdict(p: Policy, from: Endpoint, to: Target, proto: 'tcp' | 'icmp' = 'tcp'): string {
  const d = p.decide(from, to, proto);
  return d.allowed ? 'ok' : d.mode;
}

describe('sim network: path policy', () => {
  const cases: [BreakKey, Endpoint, Target][] = [
    ['w2w-same-node', W, podT('windows', 'win-2022')],
    ['w2w-cross-node', W, podT('windows', 'win-2019')],
    ['w2l', W, podT('linux', 'lin-1')],
    ['l2w', L, podT('windows', 'win-2022')],
    ['clusterip', W, cip],
    ['egress', W, ext],
    ['node-to-pod', node('windows', 'win-2022'), podT('linux', 'lin-1')],
    ['node-to-service', node('windows', 'win-2022'), cip],
    ['nodeport-external', outside, np('windows', 'win-2022')],
    ['loadbalancer', outside, { kind: 'service', address: '127.200.0.1', via: 'loadBalancer' }],
  ];
  for (const [brk, from, to] of cases) {
    it(`break ${brk} drops its path (timeout) and only it`, () => {
      expect(verdict(new Policy(makeProfile()), from, to)).to.equal('ok');
      expect(verdict(new Policy(makeProfile({ breaks: [brk] })), from, to)).to.equal('timeout');
      expect(verdict(new Policy(makeProfile({ breaks: [brk] })), L, podT('linux', 'lin-1'))).to.equal('ok');
    });
  }

  const limits: [keyof Limitations, Endpoint, Target, 'tcp' | 'icmp'][] = [
    ['icmpEgress', W, ext, 'icmp'],
    ['localNodePort', node('windows', 'win-2022'), np('windows', 'win-2022'), 'tcp'],
    ['localNodePort', { ...W, hostNetwork: true, address: '127.10.0.3' }, np('windows', 'win-2022'), 'tcp'],
  ];
  for (const [lim, from, to, proto] of limits) {
    it(`limitation ${lim} (${from.kind}${from.hostNetwork ? ', hostNetwork' : ''}) holds by default and lifts`, () => {
      expect(verdict(new Policy(makeProfile()), from, to, proto)).to.equal('timeout');
      expect(verdict(new Policy(makeProfile({ limitations: { [lim]: false } })), from, to, proto)).to.equal('ok');
    });
  }

  it('keeps Linux and cross-node NodePort paths open', () => {
    const p = new Policy(makeProfile());
    expect(verdict(p, node('linux', 'lin-1'), np('linux', 'lin-1'))).to.equal('ok');
    expect(verdict(p, node('windows', 'win-2022'), np('linux', 'lin-1'))).to.equal('ok');
    expect(verdict(p, W, podT('linux', 'lin-1'), 'icmp')).to.equal('ok');
    expect(verdict(p, L, ext, 'icmp')).to.equal('ok');
    expect(verdict(p, outside, cip)).to.equal('timeout'); // ClusterIPs do not exist outside
  });

  it('dual-stack: unreachable on a single-stack cluster, on overlay and on 2019; breakable', () => {
    const v6 = (t: Target): Target => ({ ...t, ipv6: true });
    const ds = { mode: 'l2bridge' as const, cni: 'flannel', dualStack: true };
    expect(verdict(new Policy(makeProfile()), L, v6(podT('linux', 'lin-1')))).to.equal('unreachable');
    expect(verdict(new Policy(makeProfile({ network: ds })), W, v6(podT('linux', 'lin-1')))).to.equal('ok');
    expect(verdict(new Policy(makeProfile({ network: ds })), W19, v6(podT('linux', 'lin-1')))).to.equal('unreachable');
    expect(verdict(new Policy(makeProfile({ network: { ...ds, mode: 'overlay' } })), W, v6(podT('linux', 'lin-1')))).to.equal('unreachable');
    expect(
      verdict(new Policy(makeProfile({ network: { ...ds, mode: 'overlay' }, limitations: { dualStackOverlay: false } })), W, v6(podT('linux', 'lin-1'))),
    ).to.equal('ok');
    expect(verdict(new Policy(makeProfile({ network: ds, breaks: ['dual-stack'] })), W, v6(podT('linux', 'lin-1')))).to.equal('timeout');
  });

  it('preserves the client IP with Local only where DSR allows it on Windows', () => {
    expect(new Policy(makeProfile()).preservesClientIP('lin-1', true)).to.equal(true);
    expect(new Policy(makeProfile()).preservesClientIP('win-2022', true)).to.equal(false);
    expect(new Policy(makeProfile()).preservesClientIP('lin-1', false)).to.equal(false);
    const dsr = makeProfile({ network: { mode: 'l2bridge', cni: 'flannel', kubeProxyEnableDSR: true } });
    expect(new Policy(dsr).preservesClientIP('win-2022', true)).to.equal(true);
    expect(new Policy({ ...dsr, breaks: ['preserve-client-ip'] }).preservesClientIP('win-2022', true)).to.equal(false);
    expect(new Policy(dsr).preservesDestination('win-2022', true)).to.equal(true);
    expect(new Policy(makeProfile()).preservesDestination('win-2022', true)).to.equal(false);
  });
});
