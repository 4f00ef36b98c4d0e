// iso.hostprocess-command-paths against the sim: upstream's 33 command path cases all start and exit
// 0 on the default profile (containerd 1.7, mount point C:\hpc\) and on a containerd 1.6 node (C:\C\<id>\);
// with hostprocess-command-paths broken (the mount-point variable kept, the working directory
// ignored) regressed, naming the cases that failed to start and containerd's words.

import { expect } from 'chai';
import { runOnSim } from '../../support/simRun.ts';

const ID = 'iso.hostprocess-command-paths';

describe('HostProcess command paths against the sim', function () {
  this.timeout(3 * 60_000);

  it('default and containerd 1.6 supported; hostprocess-command-paths broken: regressed, iso.hostprocess still supported', async () => {
    const [ok, old, broken] = await Promise.all([
      runOnSim([ID]),
      runOnSim([ID], {
        edit: p => {
          for (const n of p.nodes) if (n.os === 'windows') n.containerRuntime = 'containerd://1.6.28';
        },
      }),
      runOnSim([ID, 'iso.hostprocess'], { breaks: ['hostprocess-command-paths'] }),
    ]);
    for (const run of [ok, old]) {
      const r = run.results.get(ID)!;
      expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error ?? ''}`).to.equal('supported');
      expect(JSON.stringify(r.evidence)).to.contain('33 of 33 cases exited 0');
    }
    expect(old.results.get(ID)!.reason).to.contain('C:\\C\\<container id>\\');
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary}`).to.equal('regressed');
    expect(b.summary).to.match(/of upstream's 33 HostProcess command path cases did not start and exit 0: .*case-03/);
    expect(JSON.stringify(b.evidence)).to.contain('failed to find executable');
    expect(broken.results.get('iso.hostprocess')!.outcome).to.equal('supported');
  });
});
