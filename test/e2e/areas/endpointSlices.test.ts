// net.endpointslices-windows against the sim: supported on the default profile; regressed,
// naming the pod, when the controller leaves nodeName out of Windows pods' endpoints.

import { expect } from 'chai';
import { runOnSim } from '../../support/simRun.ts';

const ID = 'net.endpointslices-windows';

describe('EndpointSlices of Windows pods against the sim', function () {
  this.timeout(3 * 60_000);

  it('default profile supported; endpointslice-windows broken: regressed naming the missing nodeName', async () => {
    const [ok, broken] = await Promise.all([runOnSim([ID]), runOnSim([ID], { breaks: ['endpointslice-windows'], timeouts: { podStart: 8_000 } })]);
    const r = ok.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary}`).to.equal('supported');
    expect(JSON.stringify(r.evidence)).to.match(/IPv4 .* ready=true node=win-2022-/);
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary}`).to.equal('regressed');
    expect(b.summary).to.match(/nodeName unset, not win-2022-/);
  });
});
