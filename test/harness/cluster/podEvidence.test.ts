// PodEvidence (lib/cluster/podFailures.ts): a pod's start that its events say will not come, in
// either order of pod and events, and never for failures that may pass on a retry.

import { expect } from 'chai';
import { PodEvidence, SANDBOX_REPEATS, type PodEventSeen } from '../../../lib/cluster/podFailures.ts';

const PAUSE =
  'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox image "registry.k8s.io/pause:3.10": failed to pull image "registry.k8s.io/pause:3.10": failed to pull and unpack image "registry.k8s.io/pause:3.10": no match for platform in manifest: not found';
const USER = (id: string) =>
  `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create containerd task: failed to create shim task: hcs::CreateComputeSystem ${id}: The user name or password is incorrect.: unknown`;
const sandbox = (name: string, message: string, count = 1, podUid = 'u1'): PodEventSeen => ({
  name,
  podUid,
  type: 'Warning',
  reason: 'FailedCreatePodSandBox',
  message,
  count,
});

describe('PodEvidence: waits end on evidence', () => {
  it('a sandbox failing in the same words SANDBOX_REPEATS times is final, events first and the pod after', () => {
    const e = new PodEvidence();
    for (let i = 0; i < SANDBOX_REPEATS; i++) expect(e.event(sandbox(`p.${i}`, PAUSE))).to.equal(undefined);
    const f = e.pod('u1');
    expect(f).to.deep.include({ reason: 'FailedCreatePodSandBox', count: SANDBOX_REPEATS });
    expect(f!.message).to.contain('no match for platform');
  });

  it('the same, with the pod seen first and the events after (one event whose count grows, as the kubelet folds repeats)', () => {
    const e = new PodEvidence();
    expect(e.pod('u1')).to.equal(undefined);
    expect(e.event(sandbox('p.1', USER('a1b2c3d4e5f6'), 1))).to.equal(undefined);
    expect(e.event(sandbox('p.1', USER('a1b2c3d4e5f6'), 2), 'MODIFIED')).to.equal(undefined);
    expect(e.event(sandbox('p.1', USER('a1b2c3d4e5f6'), 3), 'MODIFIED')).to.deep.include({ count: 3 });
  });

  it('ids that differ between attempts do not make the words differ', () => {
    const e = new PodEvidence();
    e.pod('u1');
    e.event(sandbox('p.1', USER('0123456789ab')));
    e.event(sandbox('p.2', USER('ba9876543210')));
    expect(e.event(sandbox('p.3', USER('ffffeeeeddddcccc')))).to.deep.include({ count: 3 });
  });

  it('events of an earlier pod of the same name (another uid) are not this pod', () => {
    const e = new PodEvidence();
    e.event(sandbox('old', PAUSE, 5, 'u0'));
    expect(e.pod('u1')).to.equal(undefined);
  });

  it('transient failures never end the wait: an image pull and its back-off, a pause pull that timed out, the sandbox network', () => {
    const e = new PodEvidence();
    e.pod('u1');
    e.event({ name: 'a', podUid: 'u1', type: 'Warning', reason: 'Failed', message: 'Failed to pull image "x": i/o timeout', count: 9 });
    e.event({ name: 'b', podUid: 'u1', type: 'Warning', reason: 'Failed', message: 'Error: ErrImagePull', count: 9 });
    e.event({ name: 'c', podUid: 'u1', type: 'Normal', reason: 'BackOff', message: 'Back-off pulling image "x"', count: 9 });
    e.event(
      sandbox(
        'd',
        'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox image "registry.k8s.io/pause:3.10": dial tcp: i/o timeout',
        9,
      ),
    );
    e.event(
      sandbox('f', 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "abc": plugin type="flannel" failed', 9),
    );
    expect(e.verdict()).to.equal(undefined);
  });

  it('fewer repeats than SANDBOX_REPEATS, or different words, are not final; a deleted event drops out', () => {
    const e = new PodEvidence();
    e.pod('u1');
    e.event(sandbox('a', PAUSE, SANDBOX_REPEATS - 1));
    e.event(sandbox('b', USER('0123456789ab')));
    expect(e.verdict()).to.equal(undefined);
    e.event(sandbox('a', PAUSE, SANDBOX_REPEATS - 1), 'DELETED');
    expect(e.event(sandbox('c', PAUSE, SANDBOX_REPEATS - 1))).to.equal(undefined);
  });
});
