// Waits end on evidence: with the run's real deadlines (a 10-minute pod start, a 15-minute check),
// a check whose evidence already says what will come concludes well inside its deadline, with the
// verdict the feature documents. Bounds are fractions of the check's own deadline, not timings.

import { expect } from 'chai';
import type { CheckResult } from '../../lib/catalog/types.ts';
import { defaultTimeouts } from '../../lib/cluster/timeouts.ts';
import type { Profile } from '../../sim/profiles/types.ts';
import { runOnSim } from '../support/simRun.ts';

const TIMEOUTS = defaultTimeouts();
const line = (r: CheckResult | undefined) => (r ? `${r.outcome} after ${r.durationMs} ms: ${r.outcome === 'error' ? r.reason : r.summary}` : 'no result');

describe('waits end on evidence, with the real deadlines', function () {
  this.timeout(5 * 60_000);

  it('node.version-skew on a 1.30 cluster with kubelets 4 minors behind and one ahead regresses from discovery', async () => {
    const run = await runOnSim(['node.version-skew'], {
      base: 'k8s-1-30',
      timeouts: TIMEOUTS,
      edit: (p: Profile) => {
        const [behind, ahead] = p.nodes.filter(n => n.os === 'windows');
        behind.kubeletVersion = 'v1.26.15';
        ahead.kubeletVersion = 'v1.31.2';
      },
    });
    const r = run.results.get('node.version-skew');
    expect(r?.outcome, line(r)).to.equal('regressed');
    expect(r!.summary)
      .to.match(/4 minor versions behind/)
      .and.match(/newer than the API server/);
    expect(r!.durationMs, line(r)).to.be.below(TIMEOUTS.check / 20);
  });

  it('iso.hostprocess on Kubernetes 1.22 (HostProcess alpha, gate off) on both builds: limited, the API server dropped the field, read back at once', async () => {
    const run = await runOnSim(['iso.hostprocess'], { base: 'k8s-1-22', timeouts: TIMEOUTS });
    const results = [...run.results.values()];
    expect(results.map(r => r.id).sort()).to.deep.equal(['iso.hostprocess [ltsc2019]', 'iso.hostprocess [ltsc2022]']);
    for (const r of results) {
      expect(r.expectation.expected, line(r)).to.equal('limited');
      expect(r.outcome, line(r)).to.equal('limited');
      // The positive control: the pod we sent with hostProcess: true was stored without it.
      expect(line(r)).to.match(/dropped securityContext\.windowsOptions\.hostProcess/);
      expect(JSON.stringify(r)).to.match(/hostProcess sent true, absent from the stored pod/);
      expect(r.durationMs, line(r)).to.be.below(60_000);
    }
  });

  it('iso.hostprocess on Kubernetes 1.22 with the alpha gate turned on (WindowsHostProcessContainers): the field is kept and the limitation is lifted', async () => {
    const run = await runOnSim(['iso.hostprocess'], {
      base: 'k8s-1-22',
      timeouts: TIMEOUTS,
      edit: (p: Profile) => {
        p.featureGates = { ...p.featureGates, WindowsHostProcessContainers: true };
      },
    });
    for (const r of run.results.values()) {
      expect(r.expectation.expected, line(r)).to.equal('limited');
      expect(r.outcome, line(r)).to.equal('lifted');
      expect(line(r)).to.match(/runs as NT AUTHORITY\\SYSTEM/i);
    }
  });

  it('the pause image broken: every check that starts a Windows pod ends on its sandbox failures, not at the pod start deadline', async () => {
    const run = await runOnSim(['node.pause-image', 'iso.process', 'cfg.configmap-env', 'stor.emptydir'], {
      breaks: ['pause-image'],
      ssh: true,
      timeouts: TIMEOUTS,
    });
    const r = run.results.get('node.pause-image');
    expect(r?.outcome, line(r)).to.equal('regressed');
    for (const id of ['iso.process', 'cfg.configmap-env', 'stor.emptydir']) {
      const e = run.results.get(id);
      expect(e?.outcome, line(e)).to.equal('error');
      expect(line(e)).to.match(/sandbox/);
    }
    for (const x of run.results.values()) expect(x.durationMs, line(x)).to.be.below(60_000);
  });
});
