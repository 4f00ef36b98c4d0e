// net.pod-to-nodeport against the sim: supported on the default profile (the ClusterIP control and
// the NodePort both answer); with pod-to-nodeport broken, regressed while the control still answers.

import { expect } from 'chai';
import { FAST_NET, runOnSim } from '../../support/simRun.ts';

const ID = 'net.pod-to-nodeport';

describe('a Windows pod to a NodePort against the sim', function () {
  this.timeout(3 * 60_000);

  it('default profile supported; pod-to-nodeport broken: regressed, the ClusterIP control answering', async () => {
    const [ok, broken] = await Promise.all([runOnSim([ID], { timeouts: FAST_NET }), runOnSim([ID], { breaks: ['pod-to-nodeport'], timeouts: FAST_NET })]);
    const r = ok.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary}`).to.equal('supported');
    expect(r.summary).to.match(/answered by net-win-peer/);
    expect(r.node).to.match(/^win-/);
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary}`).to.equal('regressed');
    expect(b.summary).to.match(/no pass within the .* warm-up/);
    expect(b.reason).to.match(/should be able to create a functioning NodePort service for Windows|NodePort/);
  });
});
