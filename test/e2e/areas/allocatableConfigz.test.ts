// res.allocatable-configz against the sim: the kubelet's /configz (through nodes/proxy) accounts for
// status.allocatable on the default profile and on EKS's Windows node (allocatable as the real node
// reported it); with allocatable-configz broken (the hard eviction threshold left out of
// allocatable) or node-reserved broken (allocatable = capacity), regressed by the difference.

import { expect } from 'chai';
import { runOnSim } from '../../support/simRun.ts';

const ID = 'res.allocatable-configz';

describe('allocatable memory from the kubelet /configz against the sim', function () {
  this.timeout(3 * 60_000);

  it('default and eks supported; allocatable-configz or node-reserved broken: regressed', async () => {
    const [ok, eks, broken, unreserved] = await Promise.all([
      runOnSim([ID]),
      runOnSim([ID], { base: 'eks' }),
      runOnSim([ID], { breaks: ['allocatable-configz'] }),
      runOnSim([ID], { breaks: ['node-reserved'] }),
    ]);
    const r = ok.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error ?? ''}`).to.equal('supported');
    expect(JSON.stringify(r.evidence)).to.match(/evictionHard \{\\"memory\.available\\":\\"500Mi\\"/);
    expect(JSON.stringify(r.evidence)).to.match(/systemReserved \{\\"memory\\":\\"1548Mi\\"/);
    const e = eks.results.get(ID)!;
    expect(e.outcome, `${e.reason} / ${e.summary} / ${e.error ?? ''}`).to.equal('supported');
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary}`).to.equal('regressed');
    expect(b.summary).to.match(/off by 500(\.0)? ?Mi/);
    const u = unreserved.results.get(ID)!;
    expect(u.outcome, `${u.reason} / ${u.summary}`).to.equal('regressed');
    expect(u.summary).to.match(/off by 2(\.0)? ?Gi/);
  });
});
