// The user-name features' pure parts: which kubelets refuse ContainerAdministrator in any letter
// case (CVE-2021-25749), the expectation that follows from the target node's kubelet, and how a
// pod with an unknown runAsUserName counts as refused (upstream's two accepted shapes).

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { MeansError } from '../../../../lib/cluster/meansError.ts';
import { PodStartError } from '../../../../lib/cluster/podWait.ts';
import { features, userRefusal } from '../../../../lib/catalog/sec/userNames.ts';
import { kubeletRefusesAdminAnyCase } from '../../../../lib/facts/kubernetes.ts';
import { runAsNonRootAnyCase } from '../../../../sim/nodes/versions.ts';
import { cluster, winNode } from '../../../support/clusterFixture.ts';

const anyCase = features.find(f => f.id === 'sec.run-as-nonroot-any-case')!;

describe('sec user names: kubelet versions, expectations, refusals', () => {
  it('the any-case fix: 1.22.14, 1.23.11, 1.24.5, 1.25.0 and later; harness and sim agree', () => {
    const cases: [string, boolean][] = [
      ['v1.21.9', false],
      ['v1.22.13', false],
      ['v1.22.14', true],
      ['v1.23.10', false],
      ['v1.23.11', true],
      ['v1.24.4', false],
      ['v1.24.5', true],
      ['v1.25.0', true],
      ['v1.33.2', true],
      ['v1.29.3-eks-ae9a62a', true],
    ];
    for (const [v, fixed] of cases) {
      expect(kubeletRefusesAdminAnyCase(v), v).to.equal(fixed);
      expect(runAsNonRootAnyCase(v), `sim ${v}`).to.equal(fixed);
    }
    expect(kubeletRefusesAdminAnyCase('unknown')).to.equal(undefined);
  });

  it('sec.run-as-nonroot-any-case: supported on a patched kubelet, limited before the fix, naming node and version', () => {
    expect(anyCase.expect(cluster()).expected).to.equal('supported');
    const old = cluster({ nodes: [winNode('win-1', '10.0.20348', { kubeletVersion: 'v1.24.4' })] });
    const e = anyCase.expect(old);
    expect(e.expected).to.equal('limited');
    expect(e.reason).to.match(/kubelet v1\.24\.4 on \S+ predates the fix of CVE-2021-25749/);
    expect(JSON.stringify(e.source)).to.contain('security_context.go');
  });

  const pod = (phase: string, terminated?: string): V1Pod => ({
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c' }] },
    status: {
      phase,
      containerStatuses: terminated
        ? [{ name: 'c', image: 'x', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 128, reason: terminated } } }]
        : [],
    },
  });

  it("refused: the sandbox event with hcsshim's words, or Failed with StartError; not: Ready, other failures", () => {
    const sandbox =
      'Failed to create pod sandbox: rpc error: code = Unknown desc = hcs::CreateComputeSystem x: The user name or password is incorrect.: unknown';
    expect(userRefusal('p', { kind: 'event', reason: 'FailedCreatePodSandBox', message: sandbox, events: [] }).refused).to.equal(true);
    expect(userRefusal('p', { kind: 'failed', error: new PodStartError('failed', 'Failed', pod('Failed', 'StartError'), []) }).refused).to.equal(true);
    expect(userRefusal('p', { kind: 'failed', error: new PodStartError('failed', 'Failed', pod('Failed', 'ContainerCannotRun'), []) }).refused).to.equal(true);
    expect(userRefusal('p', { kind: 'ready', pod: pod('Running') }).refused).to.equal(false);
    expect(userRefusal('p', { kind: 'failed', error: new PodStartError('crash', 'CrashLoopBackOff', pod('Running'), []) }).refused).to.equal(false);
    // A sandbox failure for another reason (the pause image) is the node's means, not the user.
    expect(() => userRefusal('p', { kind: 'event', reason: 'FailedCreatePodSandBox', message: 'failed to pull pause', events: [] })).to.throw(MeansError);
  });
});
