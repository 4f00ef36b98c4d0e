// net.network-policy against the sim: the default profile's flannel has no policy engine (n/a,
// saying so, the probe never runs); with Calico (the kubeadm way) deny-all, allow by pod label,
// by namespace label and by port are enforced on the Windows pod (supported); with Calico and the
// break network-policy (nothing programmed on Windows nodes) regressed, the pre-policy control
// and the unpoliced control answering.

import { expect } from 'chai';
import { FAST_NET, runOnSim } from '../../support/simRun.ts';
import type { Profile } from '../../../sim/profiles/types.ts';

const ID = 'net.network-policy';
const calico = (p: Profile) => {
  p.network.cni = 'calico';
};

describe('NetworkPolicy on a Windows pod against the sim', function () {
  this.timeout(3 * 60_000);

  it('flannel: n/a; calico: supported; calico with network-policy broken: regressed', async () => {
    const [flannel, ok, broken] = await Promise.all([
      runOnSim([ID], { timeouts: FAST_NET }),
      runOnSim([ID], { timeouts: FAST_NET, edit: calico }),
      runOnSim([ID], { timeouts: FAST_NET, edit: calico, breaks: ['network-policy'] }),
    ]);
    const na = flannel.results.get(ID)!;
    expect(na.outcome, `${na.reason} / ${na.summary}`).to.equal('n/a');
    expect(na.reason).to.match(/no NetworkPolicy engine seen in kube-system \(CNI flannel/);
    const r = ok.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error}`).to.equal('supported');
    expect(r.summary).to.match(/^enforced on win-/);
    expect(r.reason).to.match(/NetworkPolicy engine calico/);
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary} / ${b.error}`).to.equal('regressed');
    expect(b.summary).to.match(/not enforced: deny-all: .*still answers/);
    for (const run of [ok, broken]) {
      expect(
        run.created.some(o => /^networkpolicies/.test(o)),
        run.created.join(', '),
      ).to.equal(true);
      expect(run.leftoverObjects).to.deep.equal([]);
    }
  });
});
