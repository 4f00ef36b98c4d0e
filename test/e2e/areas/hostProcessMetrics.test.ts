// iso.hostprocess-metrics against the sim: the kubelet's /metrics (through nodes/proxy) counts the
// HostProcess starts and failed starts of our pods on the default profile (the bad-user-name
// containers fail with hcsshim's logon error, RunContainerError); with hostprocess-metrics broken
// (HostProcess containers counted as ordinary ones only) regressed, naming the counts that stayed.

import { expect } from 'chai';
import { runOnSim } from '../../support/simRun.ts';

const ID = 'iso.hostprocess-metrics';

describe('HostProcess start counters in the kubelet /metrics against the sim', function () {
  this.timeout(3 * 60_000);

  it('default supported; hostprocess-metrics broken: regressed, iso.hostprocess still supported', async () => {
    const [ok, broken] = await Promise.all([runOnSim([ID]), runOnSim([ID, 'iso.hostprocess'], { breaks: ['hostprocess-metrics'] })]);
    const r = ok.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error ?? ''}`).to.equal('supported');
    const ev = JSON.stringify(r.evidence);
    expect(ev).to.match(/errors by type\/code: [^"]*container\/RunContainerError=1/);
    expect(ev).to.match(/init_container\/RunContainerError=1/);
    expect(ev).to.contain('failed to logon user: The user name or password is incorrect.');
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary}`).to.equal('regressed');
    expect(b.summary).to.match(/did not count our HostProcess starts: started containers 0 -> 0 \(our pods: \+2\)/);
    expect(broken.results.get('iso.hostprocess')!.outcome).to.equal('supported');
  });
});
