// stor.emptydir-readonly against the sim (upstream volumes.go "container should have readOnly
// permissions on emptyDir"): supported on the default profile (the readOnly container gets
// "Access is denied." and reads its read-write neighbour's file); with emptydir-readonly broken,
// regressed while the read-write control still writes.

import { expect } from 'chai';
import { runOnSim } from '../../support/simRun.ts';

const ID = 'stor.emptydir-readonly';

describe('a readOnly emptyDir mount beside a read-write one, against the sim', function () {
  this.timeout(3 * 60_000);

  it('default profile supported; emptydir-readonly broken: regressed, the read-write control writing', async () => {
    const [ok, broken] = await Promise.all([runOnSim([ID]), runOnSim([ID], { breaks: ['emptydir-readonly'] })]);
    const r = ok.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary}`).to.equal('supported');
    expect(JSON.stringify(r.evidence)).to.contain('Access is denied.').and.contain('windows-volume-test');
    expect(r.node).to.match(/^win-/);
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary}`).to.equal('regressed');
    expect(b.summary).to.match(/a write through the readOnly mount succeeded/);
    expect(b.reason).to.match(/readOnly mount of an emptyDir refuses writes/);
  });
});
