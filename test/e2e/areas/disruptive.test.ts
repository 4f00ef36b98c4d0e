// The disruptive features against the sim: n/a on a routine run (no flags), run on the node
// --disruptive-node names, each with its break. node.reboot: a HostProcess pod's shutdown.exe -r
// restarts win-2022-1 (new bootID, Ready False then True, the kubelet's Rebooted event) and the pod
// on it restarts its container once, a Linux pod reaching it before and after (upstream's
// connectivity check) and, with --egress-url, the Windows pod reaching the sim's egress host before and
// after (upstream's egress check, without an internet name); without --egress-url that part is not
// checked and the evidence says so; egress broken on the node: the part is not judged, the reboot
// verdict stands; breaks: node-reboot leaves the node as it was (regressed).
// node.graceful-shutdown: upstream node_shutdown.go's five pods, shutdown.exe -r -t 60; with the
// gate and the grace periods on, the kubelet kills the normal pods, then the critical ones (Failed,
// Terminated, DisruptionTarget) and the node comes back; n/a on 1.33 defaults (gate off, read from
// /configz); breaks: graceful-shutdown lets the pods die with the host (regressed). Both together:
// they take turns on the node (lib/run/tasks/checks.ts), each supported.
// res.eviction-memory-pressure: upstream eviction.go's two resource-consumer pods (testlimit.exe)
// on win-2022-1: the kubelet reports MemoryPressure (KubeletHasInsufficientMemory) and evicts pod2
// (Failed, Evicted, "The node was low on resource: memory. ..."), and the check waits for the
// condition to clear; breaks: eviction keeps the pods (regressed), the node recovering once they are deleted.

import { expect } from 'chai';
import type { CheckResult } from '../../../lib/catalog/types.ts';
import { DISRUPTIVE_NOT_ASKED } from '../../../lib/catalog/needs.ts';
import { NO_EGRESS_URL } from '../../../lib/catalog/node/reboot.ts';
import { FAST_NET, runOnSim, type SimRun } from '../../support/simRun.ts';
import type { Profile } from '../../../sim/profiles/types.ts';

const NODE = 'win-2022-1';
// The sim's host outside the cluster (sim/network/addresses.ts): the harness only gets a URL.
const EGRESS_URL = 'http://egress.wincheck.test/';
const result = (run: SimRun, id: string): CheckResult => {
  const r = run.results.get(id);
  expect(r, `${id} has a result`).to.exist;
  return r!;
};
const text = (r: CheckResult) => JSON.stringify([r.summary, r.evidence, r.steps]);

describe('disruptive features against the sim', function () {
  this.timeout(3 * 60_000);

  it('without --disruptive: n/a with the flags to give, and nothing is disrupted', async () => {
    const run = await runOnSim(['node.reboot', 'node.graceful-shutdown', 'res.eviction-memory-pressure']);
    for (const id of ['node.reboot', 'node.graceful-shutdown', 'res.eviction-memory-pressure']) {
      const r = result(run, id);
      expect(r.outcome, id).to.equal('n/a');
      expect(r.reason, id).to.equal(DISRUPTIVE_NOT_ASKED);
      expect(r.durationMs, id).to.be.below(1000);
    }
  });

  it('node.reboot with --disruptive-node: the node reboots and is back in service, its pod restarted once', async () => {
    const r = result(await runOnSim(['node.reboot'], { disruptiveNode: NODE, egressUrl: EGRESS_URL, timeouts: FAST_NET }), 'node.reboot');
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error}`).to.equal('supported');
    expect(r.node).to.equal(NODE);
    const t = text(r);
    expect(t).to.match(/bootID before \\"[0-9a-f-]{36}\\"/);
    expect(t).to.match(/went Ready False after [\d.]+ s; back Ready with bootID \\"[0-9a-f-]{36}\\"/);
    expect(t).to.match(/restartCount 0 -> 1; last state terminated exit 255 \(Unknown\)/);
    expect(t).to.match(/event Warning Rebooted from kubelet: Node win-2022-1 has been rebooted, boot id: [0-9a-f-]{36}/);
    expect(t).to.contain(`node ${NODE} is back in service`);
    // upstream's Linux → Windows connectivity, before (the control) and after the reboot.
    expect(t).to.match(/L → W before the reboot \(net-linux → reboot-survivor [\d.]+:80\): passed/);
    expect(t).to.match(/L → W after the reboot \(net-linux → reboot-survivor [\d.]+:80\): passed/);
    expect(r.summary).to.contain('a Linux pod reaches it');
    // upstream's egress from the Windows pod, to --egress-url, before and after the reboot.
    expect(t).to.match(/W → http:\/\/egress\.wincheck\.test\/ before the reboot \(reboot-survivor\): passed/);
    expect(t).to.match(/W → http:\/\/egress\.wincheck\.test\/ after the reboot \(reboot-survivor\): passed/);
    expect(r.summary).to.contain(`it reaches ${EGRESS_URL} before and after the reboot`);
  });

  it('node.reboot with egress broken on the node: the egress part is not judged, the reboot verdict stands', async () => {
    const r = result(await runOnSim(['node.reboot'], { disruptiveNode: NODE, egressUrl: EGRESS_URL, breaks: ['egress'], timeouts: FAST_NET }), 'node.reboot');
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error}`).to.equal('supported');
    expect(text(r)).to.match(/W → http:\/\/egress\.wincheck\.test\/ before the reboot \(reboot-survivor\): no pass within/);
    expect(text(r)).to.contain('so egress after it is not judged (net.egress reports egress)');
    expect(text(r)).to.not.contain('after the reboot (reboot-survivor)');
    expect(r.summary).to.contain(`egress not judged: it did not reach ${EGRESS_URL} before the reboot)`);
  });

  it('node-reboot broken: shutdown.exe -r leaves the node as it was: regressed, bootID unchanged', async () => {
    const r = result(
      await runOnSim(['node.reboot'], { disruptiveNode: NODE, breaks: ['node-reboot'], timeouts: { ...FAST_NET, nodeReboot: 3_000 } }),
      'node.reboot',
    );
    expect(r.outcome, r.reason).to.equal('regressed');
    expect(r.summary).to.match(/did not reboot: bootID unchanged/);
    expect(text(r)).to.contain('never went NotReady');
    expect(text(r), 'no --egress-url: the egress part says so').to.contain(NO_EGRESS_URL);
  });

  const shutdownOn = (p: Profile) => {
    p.featureGates = { ...p.featureGates, WindowsGracefulNodeShutdown: true };
    p.shutdownGracePeriod = '20s';
    p.shutdownGracePeriodCriticalPods = '10s';
  };

  it('node.graceful-shutdown on 1.33 defaults: n/a from /configz (the gate is alpha, off), the node left alone', async () => {
    const r = result(await runOnSim(['node.graceful-shutdown'], { disruptiveNode: NODE }), 'node.graceful-shutdown');
    expect(r.outcome, r.reason).to.equal('n/a');
    expect(r.reason).to.match(/WindowsGracefulNodeShutdown at the default of kubelet v1\.33\.2 \(alpha, off by default\).*the node was not shut down/);
    expect(text(r)).to.match(/proxy\/configz: featureGates .*, shutdownGracePeriod \\"0s\\"/);
  });

  it('node.graceful-shutdown with the gate and 20s/10s: normal pods first, then critical, Failed Terminated with DisruptionTarget; the node comes back', async () => {
    const r = result(await runOnSim(['node.graceful-shutdown'], { disruptiveNode: NODE, edit: shutdownOn }), 'node.graceful-shutdown');
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error}`).to.equal('supported');
    expect(r.node).to.equal(NODE);
    const t = text(r);
    expect(t).to.contain('WindowsGracefulNodeShutdown=true');
    expect(t).to.contain('kill groups priority >= 0: 10 s, priority >= 2000000000: 10 s');
    expect(t).to.match(
      /pod period-critical-5 Ready on win-2022-1: priority 2000001000 \(critical\), terminationGracePeriodSeconds 5; the kubelet should kill it with 5 s/,
    );
    expect(t).to.match(
      /pod period-25: shut down [\d.]+ s after .*phase Failed, reason Terminated, message \\"Pod was terminated in response to imminent node shutdown.\\", DisruptionTarget TerminationByKubelet/,
    );
    expect(t).to.contain('event Normal NodeShutdown from kubelet: Shutdown manager detected preshutdown event');
    expect(t).to.contain('node is shutting down');
    expect(t).to.contain('control passed');
  });

  it('graceful-shutdown broken: the pods die with the host, not Terminated: regressed', async () => {
    const r = result(
      await runOnSim(['node.graceful-shutdown'], { disruptiveNode: NODE, edit: shutdownOn, breaks: ['graceful-shutdown'], timeouts: { nodeReboot: 10_000 } }),
      'node.graceful-shutdown',
    );
    expect(r.outcome, `${r.reason} / ${r.error}`).to.equal('regressed');
    expect(r.summary).to.match(/pod period-20 was not shut down by the kubelet/);
  });

  it('node.reboot and node.graceful-shutdown in one run take turns on the node: both supported', async () => {
    const run = await runOnSim(['node.reboot', 'node.graceful-shutdown'], { disruptiveNode: NODE, edit: shutdownOn, timeouts: FAST_NET });
    for (const id of ['node.reboot', 'node.graceful-shutdown']) expect(result(run, id).outcome, `${id}: ${result(run, id).reason}`).to.equal('supported');
    expect(text(result(run, 'node.reboot')), 'without --egress-url the reboot verdict stands').to.contain(NO_EGRESS_URL);
    const [a, b] = ['node.reboot', 'node.graceful-shutdown'].map(id => result(run, id)).sort((x, y) => Date.parse(x.startedAt!) - Date.parse(y.startedAt!));
    expect(Date.parse(b.startedAt!), 'the second starts after the first ended').to.be.at.least(Date.parse(a.startedAt!) + a.durationMs - 1000);
  });

  it('res.eviction-memory-pressure with --disruptive-node: MemoryPressure, a consumer pod evicted with the kubelet reason, the node clears', async () => {
    const r = result(await runOnSim(['res.eviction-memory-pressure'], { disruptiveNode: NODE }), 'res.eviction-memory-pressure');
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error}`).to.equal('supported');
    expect(r.node).to.equal(NODE);
    const t = text(r);
    expect(t).to.match(/proxy\/configz: evictionHard \{\\"memory\.available\\":\\"500Mi\\"/);
    expect(t).to.match(/pod memory-pressure-pod1 ran on win-2022-1 and allocated: its working set is/);
    expect(t).to.match(/reported MemoryPressure True \(KubeletHasInsufficientMemory: \\"kubelet has insufficient memory available\\"\)/);
    expect(t).to.match(/pod memory-pressure-pod2: phase Failed, reason Evicted, message \\"The node was low on resource: memory\. Threshold quantity: 500Mi/);
    expect(t).to.match(/event Warning Evicted for pod memory-pressure-pod2 from kubelet: The node was low on resource: memory\./);
    expect(t).to.match(/MemoryPressure False \(KubeletHasSufficientMemory/);
    expect(t).to.contain('control passed');
  });

  it('eviction broken: the node reports MemoryPressure but no pod is evicted: regressed, and the node recovers once the pods are deleted', async () => {
    const r = result(
      await runOnSim(['res.eviction-memory-pressure'], { disruptiveNode: NODE, breaks: ['eviction'], timeouts: { memoryPressure: 10_000 } }),
      'res.eviction-memory-pressure',
    );
    expect(r.outcome, `${r.reason} / ${r.error}`).to.equal('regressed');
    expect(r.summary).to.match(/no consumer pod was evicted/);
    expect(r.summary).to.not.match(/never reported the MemoryPressure condition/);
    expect(text(r)).to.match(/MemoryPressure False \(KubeletHasSufficientMemory/);
  });
});
