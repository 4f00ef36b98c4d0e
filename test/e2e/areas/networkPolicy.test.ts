// net.network-policy against the sim: the default profile's flannel has no policy engine (n/a,
// saying so, the probe never runs), nor does AKS's Azure NPM on its 2019 pool (its 2022 pool is supported); with Calico (the kubeadm way) deny-all, allow by pod label,
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

  it('AKS with Azure NPM (azure-npm, azure-npm-win in kube-system): n/a on the Windows Server 2019 pool, supported on the 2022 pool', async () => {
    const run = await runOnSim([ID], {
      base: 'aks',
      timeouts: FAST_NET,
      edit: p => {
        p.network.networkPolicy = 'azure-npm';
      },
    });
    const byBuild = [...run.results.entries()].filter(([k]) => k.startsWith(ID));
    const ws2019 = byBuild.find(([k]) => /2019/.test(k))?.[1];
    const ws2022 = byBuild.find(([k]) => /2022/.test(k))?.[1];
    expect(ws2019?.outcome, `${[...run.results.keys()].join(', ')} / ${ws2019?.reason}`).to.equal('n/a');
    expect(ws2019!.reason).to.match(/< 20348: Azure NPM enforces NetworkPolicy on Windows Server 2022 and later only/);
    expect(ws2022?.outcome, `${ws2022?.reason} / ${ws2022?.summary} / ${ws2022?.error}`).to.equal('supported');
    expect(ws2022!.reason).to.match(/NetworkPolicy engine azure-npm/);
  });

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
