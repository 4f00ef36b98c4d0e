// work.stop-signal-windows against the sim: supported where ContainerStopSignals is on (the
// default profile turns it on), regressed when the API server takes any signal on a Windows pod,
// n/a at run time where the gate is off (the field dropped) and by expectation before 1.33.

import { expect } from 'chai';
import type { CheckResult } from '../../../lib/catalog/types.ts';
import { runOnSim, type SimRun } from '../../support/simRun.ts';

const ID = 'work.stop-signal-windows';
const result = (run: SimRun): CheckResult => {
  const r = run.results.get(ID);
  expect(r, `${ID} has a result`).to.exist;
  return r!;
};

describe('lifecycle.stopSignal validation for Windows pods against the sim', function () {
  this.timeout(3 * 60_000);

  it('default profile: SIGTERM/SIGKILL kept, SIGQUIT/SIGUSR1 refused with causes naming the field', async () => {
    const r = result(await runOnSim([ID]));
    expect(r.outcome, `${r.reason} / ${r.summary}`).to.equal('supported');
    expect(JSON.stringify(r.evidence)).to.contain('SIGQUIT: refused-naming-field — HTTP 422: spec.containers[0].lifecycle.stopSignal');
  });

  it('stop-signal-validation broken: regressed, naming the signals taken', async () => {
    const r = result(await runOnSim([ID], { breaks: ['stop-signal-validation'] }));
    expect(r.outcome, r.reason).to.equal('regressed');
    expect(r.summary).to.match(/SIGQUIT kept, SIGUSR1 kept/);
  });

  it('gate off: n/a saying the field was dropped; before 1.33: n/a by expectation', async () => {
    const off = result(await runOnSim([ID], { edit: p => void (p.featureGates = {}) }));
    expect(off.outcome).to.equal('n/a');
    expect(off.reason).to.match(/dropped lifecycle\.stopSignal .*off by default/);
    const old = result(await runOnSim([ID], { edit: p => void (p.kubernetesVersion = 'v1.32.4') }));
    expect(old.outcome).to.equal('n/a');
    expect(old.reason).to.match(/v1\.32\.4 has no lifecycle\.stopSignal/);
  });
});
