// The run's cleanup as real clusters make it: a namespace held by an unavailable APIService never
// finishes; the run says what is left and why (the namespace controller's own conditions) and the
// `wincheck cleanup` command, and exits 1 for it. Where nothing blocks, nothing of ours is left.

import { expect } from 'chai';
import { runOnSim } from '../support/simRun.ts';

describe('cleanup of what real clusters hold back (sim)', function () {
  this.timeout(5 * 60_000);

  it('a namespace held by an unavailable APIService: what is left, why, and the command; exit 1', async () => {
    const r = await runOnSim(['node.os-supported'], {
      edit: p => {
        p.unavailableAPIServices = ['custom.metrics.k8s.io/v1beta1'];
      },
      timeouts: { namespaceDelete: 3_000 },
    });
    expect(r.results.get('node.os-supported')!.outcome).to.equal('supported');
    const log = r.output.join('\n');
    expect(log).to.match(/namespace wincheck-[a-z0-9-]+ is still there after 3s: phase Terminating/);
    expect(log).to.contain(
      'NamespaceDeletionDiscoveryFailure: Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: custom.metrics.k8s.io/v1beta1: the server is currently unable to handle the request',
    );
    expect(log).to.match(/left behind: Namespace wincheck-[a-z0-9-]+; run "wincheck cleanup [^"]*--run-id [a-z0-9-]+"/);
    expect(r.exitCode).to.equal(1);
  });

  it('where nothing blocks, nothing of ours is left and the run passes', async () => {
    const r = await runOnSim(['node.os-supported', 'cfg.configmap-env'], {});
    expect(r.leftoverObjects).to.deep.equal([]);
    expect(r.exitCode).to.equal(0);
  });

  it('pods that run out their grace period and a protected claim: the cleanup waits for them, then nothing is left', async () => {
    const r = await runOnSim(['cfg.configmap-env', 'stor.pvc'], {
      edit: p => {
        // 30 s of grace, time-scaled to 3 s: longer than the namespace deadline asked for below.
        p.terminationGraceScale = 0.1;
      },
      timeouts: { namespaceDelete: 1_000 },
    });
    expect(r.results.get('stor.pvc')!.outcome, r.results.get('stor.pvc')!.reason).to.equal('supported');
    expect(r.output.join('\n')).to.match(/Deleted namespace wincheck-/);
    expect(r.leftoverObjects).to.deep.equal([]);
    expect(r.exitCode).to.equal(0);
  });
});
