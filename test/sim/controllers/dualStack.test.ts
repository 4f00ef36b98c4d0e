// Dual-stack nodes: spec.podCIDRs of both families from the address plan (the built-in
// dual-stack profile), one IPv4 range on a single-stack cluster.

import { expect } from 'chai';
import type { V1Node } from '@kubernetes/client-node';
import { AddressPlan, toIPv4 } from '../../../sim/network/addresses.ts';
import { builtinProfileNames, loadProfile } from '../../../sim/profiles/load.ts';
import { startNodes } from '../../../sim/nodes/index.ts';
import { newStore } from '../../support/simControllers.ts';

function nodes(profileName: string) {
  const store = newStore();
  store.create('namespaces', { metadata: { name: 'kube-node-lease' } });
  const profile = loadProfile(profileName);
  const plan = new AddressPlan(profile);
  const n = startNodes(store, profile, { nodeAddress: x => plan.nodeAddress(x), podCIDR: x => plan.podCIDR(x), podCIDRs: x => plan.podCIDRs(x) });
  return { get: (name: string) => store.get('nodes', undefined, name) as unknown as V1Node, stop: () => n.stop(), profile };
}

describe('sim nodes: dual-stack pod CIDRs', () => {
  it('the built-in dual-stack profile: l2bridge, Windows Server 2022, dualStack on', () => {
    expect(builtinProfileNames()).to.include('dual-stack');
    const p = loadProfile('dual-stack');
    expect(p.network).to.include({ mode: 'l2bridge', dualStack: true });
    expect(p.nodes.filter(n => n.os === 'windows').every(n => n.windowsBuild?.startsWith('10.0.20348.'))).to.equal(true);
  });

  it('every node gets an IPv4 and an IPv6 pod CIDR (IPv4 first, podCIDR = podCIDRs[0])', async () => {
    const { get, stop } = nodes('dual-stack');
    for (const name of ['linux-1', 'win-2022-1']) {
      const n = get(name);
      expect(n.spec!.podCIDRs).to.have.length(2);
      expect(n.spec!.podCIDR).to.equal(n.spec!.podCIDRs![0]);
      expect(n.spec!.podCIDRs![0]).to.match(/^127\.\d+\.\d+\.0\/20$/);
      expect(n.spec!.podCIDRs![1]).to.match(/^fd00:10:244:\d+::\/64$/);
    }
    // Each node's IPv6 range carries its IPv4 pod range's index.
    const w = get('win-2022-1');
    const idx = Number(w.spec!.podCIDRs![0].split('.')[1]) - 20;
    expect(w.spec!.podCIDRs![1]).to.equal(`fd00:10:244:${idx}::/64`);
    expect(toIPv4(`fd00:10:244:${idx}::7f${(20 + idx).toString(16)}:2`)).to.equal(`127.${20 + idx}.0.2`);
    await stop();
  });

  it('a single-stack cluster keeps one IPv4 range', async () => {
    const { get, stop } = nodes('default');
    expect(get('win-2022-1').spec!.podCIDRs).to.have.length(1);
    await stop();
  });
});
