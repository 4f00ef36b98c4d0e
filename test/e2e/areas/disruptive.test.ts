// The disruptive features against the sim: n/a on a routine run (no flags), run on the node
// --disruptive-node names, each with its break. node.reboot: a HostProcess pod's shutdown.exe -r
// restarts win-2022-1 (new bootID, Ready False then True, the kubelet's Rebooted event) and the pod
// on it restarts its container once; breaks: node-reboot leaves the node as it was (regressed).

import { expect } from 'chai';
import type { CheckResult } from '../../../lib/catalog/types.ts';
import { DISRUPTIVE_NOT_ASKED } from '../../../lib/catalog/needs.ts';
import { runOnSim, type SimRun } from '../../support/simRun.ts';

const NODE = 'win-2022-1';
const result = (run: SimRun, id: string): CheckResult => {
  const r = run.results.get(id);
  expect(r, `${id} has a result`).to.exist;
  return r!;
};
const text = (r: CheckResult) => JSON.stringify([r.summary, r.evidence, r.steps]);

describe('disruptive features against the sim', function () {
  this.timeout(3 * 60_000);

  it('without --disruptive: n/a with the flags to give, and nothing is disrupted', async () => {
    const run = await runOnSim(['node.reboot']);
    const r = result(run, 'node.reboot');
    expect(r.outcome).to.equal('n/a');
    expect(r.reason).to.equal(DISRUPTIVE_NOT_ASKED);
    expect(r.durationMs).to.be.below(1000);
  });

  it('node.reboot with --disruptive-node: the node reboots and is back in service, its pod restarted once', async () => {
    const r = result(await runOnSim(['node.reboot'], { disruptiveNode: NODE }), 'node.reboot');
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error}`).to.equal('supported');
    expect(r.node).to.equal(NODE);
    const t = text(r);
    expect(t).to.match(/bootID before \\"[0-9a-f-]{36}\\"/);
    expect(t).to.match(/went Ready False after [\d.]+ s; back Ready with bootID \\"[0-9a-f-]{36}\\"/);
    expect(t).to.match(/restartCount 0 -> 1; last state terminated exit 255 \(Unknown\)/);
    expect(t).to.match(/event Warning Rebooted from kubelet: Node win-2022-1 has been rebooted, boot id: [0-9a-f-]{36}/);
    expect(t).to.contain(`node ${NODE} is back in service`);
  });

  it('node-reboot broken: shutdown.exe -r leaves the node as it was: regressed, bootID unchanged', async () => {
    const r = result(await runOnSim(['node.reboot'], { disruptiveNode: NODE, breaks: ['node-reboot'], timeouts: { nodeReboot: 3_000 } }), 'node.reboot');
    expect(r.outcome, r.reason).to.equal('regressed');
    expect(r.summary).to.match(/did not reboot: bootID unchanged/);
    expect(text(r)).to.contain('never went NotReady');
  });
});
