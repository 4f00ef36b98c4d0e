// stor.subpath-cleanup against the sim (upstream subpath_cleanup.go): on the default profile
// (v1.33) the pod with several subPath mounts stays Terminating while its control (the same volumes,
// no subPath) goes: limited; with the limitation lifted it goes: lifted; on v1.37 (the fix) it goes:
// supported; with the leak back on v1.37 (breaks: subpath-handle-leak): regressed, the control gone.
// A stuck pod is force-deleted by the check, so the run's namespace still goes, also when the check
// fails before its deletion (breaks: exec).

import { expect } from 'chai';
import type { Profile } from '../../../sim/profiles/types.ts';
import { runOnSim } from '../../support/simRun.ts';

const ID = 'stor.subpath-cleanup';
const v137 = (p: Profile) => {
  p.kubernetesVersion = 'v1.37.0';
};
const timeouts = { podGoneConfirm: 3_000 };

describe('a pod with several subPath mounts terminates cleanly, against the sim', function () {
  this.timeout(5 * 60_000);

  it('v1.33: limited (stays Terminating, control gone); lifted: lifted; v1.37: supported; v1.37 with the leak: regressed', async () => {
    const [old, lifted, fixed, broken, noExec] = await Promise.all([
      runOnSim([ID], { timeouts }),
      runOnSim([ID], { timeouts, limitations: { subPathHandleLeak: false } }),
      runOnSim([ID], { timeouts, edit: v137 }),
      runOnSim([ID], { timeouts, edit: v137, breaks: ['subpath-handle-leak'] }),
      // The check fails before its deletion (no exec): its pods are still forced, not left to the namespace.
      runOnSim([ID], { timeouts, breaks: ['exec'] }),
    ]);
    const o = old.results.get(ID)!;
    expect(o.outcome, `${o.reason} / ${o.summary}`).to.equal('limited');
    expect(o.summary).to.match(/stayed Terminating/);
    expect(JSON.stringify(o.evidence))
      .to.match(/subpath-cleanup-control gone \d+ ms after the deletion/)
      .and.match(/Terminating since/);
    expect(o.node).to.match(/^win-/);
    const l = lifted.results.get(ID)!;
    expect(l.outcome, `${l.reason} / ${l.summary}`).to.equal('lifted');
    const f = fixed.results.get(ID)!;
    expect(f.outcome, `${f.reason} / ${f.summary}`).to.equal('supported');
    expect(f.summary).to.match(/was gone \d+ ms after its deletion/);
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary}`).to.equal('regressed');
    expect(b.reason).to.match(/terminates cleanly/);
    const e = noExec.results.get(ID)!;
    expect(e.outcome, `${e.reason} / ${e.summary}`).to.equal('error');
    expect(e.reason).to.match(/exec/);
    // Every run cleaned up: the stuck pod was forced, its namespace went.
    for (const r of [old, lifted, fixed, broken, noExec]) expect(r.output.join('\n')).to.match(/Deleted namespace wincheck-/);
  });
});
