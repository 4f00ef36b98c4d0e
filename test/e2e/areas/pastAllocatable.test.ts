// res.past-allocatable against the sim: on the default profile the pod asking for more than its
// Windows node's allocatable memory gets FailedScheduling "Insufficient memory" (the small pod, its
// control, runs) and is deleted at once (not counted by the run's capacity planning); with scheduler-memory-fit broken it is bound to the node
// (the kubelet then rejects it, OutOfmemory) and the feature regresses.

import { expect } from 'chai';
import { runOnSim } from '../../support/simRun.ts';

const ID = 'res.past-allocatable';

describe('scheduling past allocatable memory against the sim', function () {
  this.timeout(3 * 60_000);

  it('default profile supported; scheduler-memory-fit broken: regressed', async () => {
    const [ok, broken] = await Promise.all([runOnSim([ID]), runOnSim([ID], { breaks: ['scheduler-memory-fit'] })]);
    const r = ok.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error ?? ''}`).to.equal('supported');
    expect(r.summary).to.match(/FailedScheduling "Insufficient memory"/);
    expect(r.steps.join('\n')).to.match(/requesting 31Gi \(allocatable of win-2022-\d is 30Gi\)/);
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary} / ${b.error ?? ''}`).to.equal('regressed');
    expect(b.summary).to.match(/was bound to win-2022-\d/);
  });
});
