// net.service-churn against the sim: supported on the default profile (the control answers, the
// deleted Service's ClusterIP goes quiet, the recreated one answers); with service-churn broken,
// regressed while the control before the deletion still answers.

import { expect } from 'chai';
import { FAST_NET, runOnSim } from '../../support/simRun.ts';

const ID = 'net.service-churn';

describe('a Service deleted and recreated against the sim', function () {
  this.timeout(3 * 60_000);

  it('default profile supported; service-churn broken: regressed, the control before deletion answering', async () => {
    const [ok, broken] = await Promise.all([runOnSim([ID], { timeouts: FAST_NET }), runOnSim([ID], { breaks: ['service-churn'], timeouts: FAST_NET })]);
    const r = ok.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error}`).to.equal('supported');
    expect(r.summary).to.match(/went quiet once net-svc-churn was deleted/);
    expect(r.node).to.match(/^win-/);
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary} / ${b.error}`).to.equal('regressed');
    expect(b.summary).to.match(/recreated net-svc-churn .*no pass within the .* warm-up/);
    expect(b.reason).to.match(/deleted Service|recreated/);
  });
});
