// The address plan at scale: 100 Windows nodes (the scale-100 profile) get distinct pod ranges
// that never reach the service or load-balancer ranges, and several sims still fit side by side.

import { expect } from 'chai';
import { loadProfile } from '../../../sim/profiles/load.ts';
import type { Profile } from '../../../sim/profiles/types.ts';
import { AddressPlan, ipv6Of, MAX_INSTANCES, MAX_NODES, toIPv4 } from '../../../sim/network/addresses.ts';

/** [first, last] address of an IPv4 CIDR, as 32-bit numbers. */
function range(cidr: string): [number, number] {
  const [ip, bits] = cidr.split('/');
  const n = ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
  const size = 2 ** (32 - Number(bits));
  return [n, n + size - 1];
}
const overlaps = (a: [number, number], b: [number, number]) => a[0] <= b[1] && b[0] <= a[1];

function profileWith(nodes: number): Profile {
  const base = loadProfile('default');
  const win = base.nodes.find(n => n.os === 'windows')!;
  return { ...base, nodes: Array.from({ length: nodes }, (_, i) => ({ ...win, name: `win-${i + 1}` })) };
}

describe('sim network: the address plan at scale', () => {
  it('the scale-100 profile has 100 Windows nodes and every node gets a pod range', () => {
    const p = loadProfile('scale-100');
    expect(p.nodes.filter(n => n.os === 'windows')).to.have.length(100);
    const plan = new AddressPlan(p);
    expect(p.nodes.map(n => plan.podCIDR(n.name))).to.have.length(p.nodes.length);
  });

  it(`${MAX_NODES} nodes in each of 3 instances: pod ranges pairwise distinct, none overlapping services or load balancers`, () => {
    const profile = profileWith(MAX_NODES);
    const ranges: { what: string; r: [number, number] }[] = [];
    for (const k of [0, 1, MAX_INSTANCES - 1]) {
      const plan = new AddressPlan(profile, k);
      for (const n of profile.nodes) ranges.push({ what: `instance ${k} ${n.name}`, r: range(plan.podCIDR(n.name)) });
      ranges.push({ what: `instance ${k} services`, r: range(plan.serviceCIDR()) });
      const lb = plan.allocateLoadBalancerIP();
      ranges.push({ what: `instance ${k} LB`, r: range(`${lb}/32`) });
    }
    // Sorted by first address, ranges are disjoint when each ends before the next begins.
    ranges.sort((a, b) => a.r[0] - b.r[0]);
    for (let i = 1; i < ranges.length; i++) expect(overlaps(ranges[i - 1].r, ranges[i].r), `${ranges[i - 1].what} vs ${ranges[i].what}`).to.equal(false);
  });

  it('a pod on a node past the 75th gets an address in its own range, with an IPv6 twin that maps back', () => {
    const profile = profileWith(100);
    const plan = new AddressPlan(profile, 2);
    const ip = plan.allocatePodIP('ns', 'p', 'win-100');
    const [lo, hi] = range(plan.podCIDR('win-100'));
    const n = ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
    expect(n).to.be.within(lo, hi);
    expect(plan.podByAddress(ip)?.name).to.equal('p');
    expect(ipv6Of(ip)).to.match(/^fd00:10:244:100::/);
    expect(toIPv4(ipv6Of(ip))).to.equal(ip);
  });

  it('past the 178th node: a /24 pod range each, node addresses past 127.10.k.254 in 127.11, every address mapped back to its node', () => {
    const profile = profileWith(MAX_NODES);
    const plan = new AddressPlan(profile, 1);
    expect(plan.podCIDR('win-179')).to.equal('127.201.16.0/24');
    expect(plan.podCIDR('win-195')).to.equal('127.202.16.0/24');
    expect(plan.nodeAddress('win-254')).to.equal('127.10.1.254');
    expect(plan.nodeAddress('win-255')).to.equal('127.11.1.1');
    const seen = new Set<string>();
    for (const n of profile.nodes) {
      const addr = plan.nodeAddress(n.name);
      expect(seen.has(addr), addr).to.equal(false);
      seen.add(addr);
      expect(plan.nodeByAddress(addr)).to.equal(n.name);
    }
    const ip = plan.allocatePodIP('ns', 'p', `win-${MAX_NODES}`);
    const [lo, hi] = range(plan.podCIDR(`win-${MAX_NODES}`));
    expect(ip.split('.').reduce((a, o) => a * 256 + Number(o), 0)).to.be.within(lo, hi);
    expect(ipv6Of(ip)).to.match(new RegExp(`^fd00:10:244:${MAX_NODES}::`));
    expect(toIPv4(ipv6Of(ip))).to.equal(ip);
  });

  it(`a node past ${MAX_NODES} is refused with the reason`, () => {
    const plan = new AddressPlan(profileWith(MAX_NODES + 1));
    expect(() => plan.podCIDR(`win-${MAX_NODES + 1}`)).to.throw(/do not fit the address plan/);
  });
});
