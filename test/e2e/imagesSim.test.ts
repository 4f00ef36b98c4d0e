// Images per build against the simulated cluster: a build with no published image makes the
// features that need one n/a (naming the image and build); a build with no tag of its own (23H2)
// runs the ltsc2022 images; the pause image's expectation holds per build.

import { expect } from 'chai';
import type { CheckResult } from '../../lib/catalog/types.ts';
import type { Profile } from '../../sim/index.ts';
import { runOnSim, type SimRun } from '../support/simRun.ts';

const setWindowsBuild = (build: string) => (p: Profile) => {
  for (const n of p.nodes) if (n.os === 'windows') n.windowsBuild = build;
};
function result(run: SimRun, id: string): CheckResult {
  const r = run.results.get(id);
  expect(r, id).to.exist;
  return r!;
}

describe('images per build on the simulated cluster', function () {
  this.timeout(5 * 60_000);

  it('Windows Server 2004 (no image published): the IIS pod is n/a naming the image; pause is limited', async () => {
    const run = await runOnSim(['work.iis-pod', 'node.pause-image'], { edit: setWindowsBuild('10.0.19041.1415'), timeouts: { podStart: 20_000 } });
    const iis = result(run, 'work.iis-pod');
    expect(iis.outcome, iis.reason).to.equal('n/a');
    expect(iis.reason).to.match(/no mcr\.microsoft\.com\/windows\/servercore\S* image is published for Windows build 10\.0\.19041/);
    const pause = result(run, 'node.pause-image');
    expect(pause.expectation.expected).to.equal('limited');
    expect(pause.outcome, `${pause.reason} / ${pause.summary}`).to.equal('limited');
    expect(pause.summary).to.match(/no match for platform in manifest/);
    expect(run.leftover).to.deep.equal([]);
  });

  it('Windows Server 23H2 (no tag of its own): fixtures run the ltsc2022 images', async () => {
    const run = await runOnSim(['work.iis-pod', 'node.pause-image'], { edit: setWindowsBuild('10.0.25398.1189') });
    for (const id of ['work.iis-pod', 'node.pause-image']) {
      const r = result(run, id);
      expect(r.outcome, `${id}: ${r.reason} / ${r.summary} / ${r.error ?? ''}`).to.equal('supported');
    }
    expect(result(run, 'node.pause-image').expectation.reason).to.match(/build 10\.0\.25398: no variant of its own; the ltsc2022 variant runs/);
  });
});
