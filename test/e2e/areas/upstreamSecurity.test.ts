// The security specs of upstream's test/e2e/windows/security_context.go against the sim: on the
// default profile each is supported; each sim switch that takes its mechanism away regresses
// exactly the features that depend on it; an unpatched kubelet makes the any-case check limited.

import { expect } from 'chai';
import type { CheckResult } from '../../../lib/catalog/types.ts';
import { runOnSim, type SimRun } from '../../support/simRun.ts';

const SEC = ['sec.unknown-username-refused', 'sec.username-override', 'sec.run-as-nonroot', 'sec.run-as-nonroot-any-case'];

function outcome(run: SimRun, id: string): CheckResult {
  const r = run.results.get(id);
  expect(r, `${id} has a result`).to.exist;
  return r!;
}
const line = (r: CheckResult) => `${r.outcome}: ${r.reason} / ${r.summary} / ${JSON.stringify(r.evidence).slice(0, 600)}`;

describe('upstream security_context.go specs against the sim', function () {
  this.timeout(5 * 60_000);

  it('default profile: all supported, with the runtime and kubelet words in the evidence', async () => {
    const run = await runOnSim(SEC, { timeouts: { podStart: 30_000 } });
    for (const id of SEC) expect(outcome(run, id).outcome, line(outcome(run, id))).to.equal('supported');
    expect(JSON.stringify(outcome(run, 'sec.unknown-username-refused').evidence)).to.match(/The user name or password is incorrect/);
    expect(JSON.stringify(outcome(run, 'sec.run-as-nonroot').evidence)).to.contain(
      "container's runAsUserName (ContainerAdministrator) which will be regarded as root identity and will break non-root policy",
    );
    expect(JSON.stringify(outcome(run, 'sec.run-as-nonroot-any-case').evidence)).to.contain("container's runAsUserName (CONTAINERADMINISTRATOR)");
  });

  it('each break regresses exactly its dependents', async () => {
    const [unknown, precedence, nonRoot] = await Promise.all([
      runOnSim(SEC, { breaks: ['unknown-username'], timeouts: { podStart: 30_000 } }),
      runOnSim(SEC, { breaks: ['username-precedence'], timeouts: { podStart: 30_000 } }),
      runOnSim(SEC, { breaks: ['run-as-nonroot'], timeouts: { podStart: 30_000 } }),
    ]);
    const by = (run: SimRun) => Object.fromEntries(SEC.map(id => [id, outcome(run, id).outcome]));
    expect(by(unknown)).to.deep.equal({
      'sec.unknown-username-refused': 'regressed',
      'sec.username-override': 'supported',
      'sec.run-as-nonroot': 'supported',
      'sec.run-as-nonroot-any-case': 'supported',
    });
    expect(outcome(unknown, 'sec.unknown-username-refused').summary).to.match(/not refused at pod level and container level/);
    // The container-level refusal rests on the container's name winning over the pod's.
    expect(by(precedence)).to.deep.equal({
      'sec.unknown-username-refused': 'regressed',
      'sec.username-override': 'regressed',
      'sec.run-as-nonroot': 'supported',
      'sec.run-as-nonroot-any-case': 'supported',
    });
    expect(outcome(precedence, 'sec.unknown-username-refused').summary).to.match(/not refused at container level$/);
    // Without the kubelet's check the any-case feature's control (the exact name refused) fails: error.
    expect(by(nonRoot)).to.deep.equal({
      'sec.unknown-username-refused': 'supported',
      'sec.username-override': 'supported',
      'sec.run-as-nonroot': 'regressed',
      'sec.run-as-nonroot-any-case': 'error',
    });
    expect(outcome(nonRoot, 'sec.run-as-nonroot-any-case').reason).to.match(/positive control failed/);
  });

  it('a kubelet that holds runAsUser against runAsNonRoot: sec.run-as-nonroot regresses on its non-admin pod, the rest stay supported', async () => {
    const run = await runOnSim(SEC, { breaks: ['run-as-user-nonroot'], timeouts: { podStart: 8_000 } });
    expect(Object.fromEntries(SEC.map(id => [id, outcome(run, id).outcome]))).to.deep.equal({
      'sec.unknown-username-refused': 'supported',
      'sec.username-override': 'supported',
      'sec.run-as-nonroot': 'regressed',
      'sec.run-as-nonroot-any-case': 'supported',
    });
    expect(outcome(run, 'sec.run-as-nonroot').summary).to.match(/the non-admin runAsNonRoot pod did not run/);
  });

  it('a kubelet before the CVE-2021-25749 fix: the any-case check is limited, its control passing', async () => {
    const run = await runOnSim(['sec.run-as-nonroot', 'sec.run-as-nonroot-any-case'], {
      timeouts: { podStart: 30_000 },
      edit: p => {
        for (const n of p.nodes.filter(x => x.os === 'windows')) n.kubeletVersion = 'v1.24.4';
      },
    });
    expect(outcome(run, 'sec.run-as-nonroot').outcome, line(outcome(run, 'sec.run-as-nonroot'))).to.equal('supported');
    const any = outcome(run, 'sec.run-as-nonroot-any-case');
    expect(any.outcome, line(any)).to.equal('limited');
    expect(any.reason).to.match(/v1\.24\.4 .*CVE-2021-25749/);
  });
});
