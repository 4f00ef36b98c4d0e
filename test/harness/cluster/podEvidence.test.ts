// PodEvidence (lib/cluster/podFailures.ts): a pod's start that its events say will not come, in
// either order of pod and events, and never for failures that may pass on a retry.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { isPermanentPullFailure, PodEvidence, PULL_REPEATS, SANDBOX_REPEATS, type PodEventSeen } from '../../../lib/cluster/podFailures.ts';
import { failFastReason } from '../../../lib/cluster/podState.ts';
import { realOutput } from '../../support/realOutputs.ts';

/** The pod as the wait sees it: its uid, and optionally a container waiting on (reason, message). */
const podOf = (uid: string, waiting?: { reason: string; message: string }): V1Pod => ({
  metadata: { name: 'p', uid },
  status: { phase: 'Pending', containerStatuses: waiting ? [{ name: 'c', image: 'x', imageID: '', ready: false, restartCount: 0, state: { waiting } }] : [] },
});

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
    const f = e.pod(podOf('u1'));
    expect(f).to.deep.include({ reason: 'FailedCreatePodSandBox', count: SANDBOX_REPEATS });
    expect(f!.message).to.contain('no match for platform');
  });

  it('the same, with the pod seen first and the events after (one event whose count grows, as the kubelet folds repeats)', () => {
    const e = new PodEvidence();
    expect(e.pod(podOf('u1'))).to.equal(undefined);
    expect(e.event(sandbox('p.1', USER('a1b2c3d4e5f6'), 1))).to.equal(undefined);
    expect(e.event(sandbox('p.1', USER('a1b2c3d4e5f6'), 2), 'MODIFIED')).to.equal(undefined);
    expect(e.event(sandbox('p.1', USER('a1b2c3d4e5f6'), 3), 'MODIFIED')).to.deep.include({ count: 3 });
  });

  it('ids that differ between attempts do not make the words differ', () => {
    const e = new PodEvidence();
    e.pod(podOf('u1'));
    e.event(sandbox('p.1', USER('0123456789ab')));
    e.event(sandbox('p.2', USER('ba9876543210')));
    expect(e.event(sandbox('p.3', USER('ffffeeeeddddcccc')))).to.deep.include({ count: 3 });
  });

  it('events of an earlier pod of the same name (another uid) are not this pod', () => {
    const e = new PodEvidence();
    e.event(sandbox('old', PAUSE, 5, 'u0'));
    expect(e.pod(podOf('u1'))).to.equal(undefined);
  });

  it('transient failures never end the wait: an image pull and its back-off, a pause pull that timed out, the sandbox network', () => {
    const e = new PodEvidence();
    e.pod(podOf('u1', { reason: 'ImagePullBackOff', message: 'Back-off pulling image "x"' }));
    e.event({ name: 'a', podUid: 'u1', type: 'Warning', reason: 'Failed', message: 'Failed to pull image "x": i/o timeout', count: PULL_REPEATS - 1 });
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
    e.pod(podOf('u1'));
    e.event(sandbox('a', PAUSE, SANDBOX_REPEATS - 1));
    e.event(sandbox('b', USER('0123456789ab')));
    expect(e.verdict()).to.equal(undefined);
    e.event(sandbox('a', PAUSE, SANDBOX_REPEATS - 1), 'DELETED');
    expect(e.event(sandbox('c', PAUSE, SANDBOX_REPEATS - 1))).to.equal(undefined);
  });
});

describe('PodEvidence and failFastReason: a failing image pull ends a wait only on evidence it cannot pass', () => {
  const IMPORT_LAYER = realOutput('22')
    .text.trim()
    .replace(/^.*?kubelet\s+/, '');
  const NO_PLATFORM = realOutput('15')
    .text.trim()
    .replace(/^.*?kubelet\s+/, '');
  const errorOf = (event: string) => event.replace(/^Failed to pull image "[^"]*": /, '');
  const pullEvent = (name: string, message: string, count = 1): PodEventSeen => ({ name, podUid: 'u1', type: 'Warning', reason: 'Failed', message, count });

  it('the real texts: no platform variant and not found are final; a layer in use while importing, a timeout, 401 and 429 may pass', () => {
    expect(NO_PLATFORM).to.match(/^Failed to pull image/);
    expect(isPermanentPullFailure(errorOf(NO_PLATFORM))).to.equal(true);
    expect(isPermanentPullFailure(realOutput('16').text.trim())).to.equal(true);
    expect(
      isPermanentPullFailure('rpc error: code = NotFound desc = failed to pull and unpack image "x:1": failed to resolve reference "x:1": x:1: not found'),
    ).to.equal(true);
    expect(IMPORT_LAYER).to.match(/being used by another process/);
    expect(isPermanentPullFailure(errorOf(IMPORT_LAYER))).to.equal(false);
    for (const t of [
      'rpc error: code = Unknown desc = failed to pull and unpack image "x": failed to copy: read tcp 10.0.0.4:1->1.2.3.4:443: i/o timeout',
      'rpc error: code = Unknown desc = failed to pull and unpack image "x": failed to resolve reference "x": unexpected status code 401 Unauthorized',
      'rpc error: code = Unknown desc = failed to pull and unpack image "x": 429 Too Many Requests - Server message: toomanyrequests',
    ])
      expect(isPermanentPullFailure(t), t).to.equal(false);
  });

  it('the waiting message: ErrImagePull with a final cause fails fast; a transient one and a bare pre-1.32 back-off do not', () => {
    expect(failFastReason(podOf('u1', { reason: 'ErrImagePull', message: errorOf(NO_PLATFORM) }))).to.equal('ErrImagePull');
    expect(failFastReason(podOf('u1', { reason: 'ImagePullBackOff', message: `Back-off pulling image "x": ErrImagePull: ${errorOf(NO_PLATFORM)}` }))).to.equal(
      'ImagePullBackOff',
    );
    expect(failFastReason(podOf('u1', { reason: 'ErrImagePull', message: errorOf(IMPORT_LAYER) }))).to.equal(undefined);
    expect(
      failFastReason(
        podOf('u1', {
          reason: 'ImagePullBackOff',
          message: realOutput('53')
            .text.trim()
            .replace(/^.*?kubelet\s+/, ''),
        }),
      ),
    ).to.equal(undefined);
  });

  it('a bare back-off (kubelets before 1.32) whose "Failed to pull image" event names a final cause ends the wait', () => {
    const e = new PodEvidence();
    expect(e.event(pullEvent('a', NO_PLATFORM))).to.equal(undefined);
    const f = e.pod(podOf('u1', { reason: 'ImagePullBackOff', message: 'Back-off pulling image "x"' }));
    expect(f).to.deep.include({ reason: 'ImagePullBackOff', what: 'its image pull failed for good' });
  });

  it('a pull that fails twice in the same words, then passes, ends nothing; PULL_REPEATS times ends the wait', () => {
    const e = new PodEvidence();
    e.pod(podOf('u1', { reason: 'ErrImagePull', message: errorOf(IMPORT_LAYER) }));
    expect(e.event(pullEvent('a', IMPORT_LAYER, 1))).to.equal(undefined);
    expect(e.event(pullEvent('a', IMPORT_LAYER, 2), 'MODIFIED')).to.equal(undefined);
    // The third attempt passes: the container runs; the pull's events stay.
    expect(e.pod({ ...podOf('u1'), status: { phase: 'Running' } })).to.equal(undefined);
    const again = new PodEvidence();
    again.pod(podOf('u1', { reason: 'ImagePullBackOff', message: 'Back-off pulling image "x"' }));
    for (let i = 1; i < PULL_REPEATS; i++) expect(again.event(pullEvent('a', IMPORT_LAYER, i), 'MODIFIED')).to.equal(undefined);
    expect(again.event(pullEvent('a', IMPORT_LAYER, PULL_REPEATS), 'MODIFIED')).to.deep.include({
      reason: 'ImagePullBackOff',
      count: PULL_REPEATS,
      what: `its image pull failed ${PULL_REPEATS} times in the same words`,
    });
  });

  it("a pull's numbers that change from one attempt to the next (the connection's local port) do not make the words differ", () => {
    const e = new PodEvidence();
    e.pod(podOf('u1', { reason: 'ImagePullBackOff', message: 'Back-off pulling image "x"' }));
    const timeout = (port: number) =>
      `Failed to pull image "x": rpc error: code = Unknown desc = failed to pull and unpack image "x": failed to copy: read tcp 10.240.0.4:${port}->20.60.1.9:443: read: connection timed out`;
    for (let i = 1; i < PULL_REPEATS; i++) expect(e.event(pullEvent(`p.${i}`, timeout(50_000 + i)))).to.equal(undefined);
    expect(e.event(pullEvent('p.last', timeout(61_234)))).to.deep.include({ count: PULL_REPEATS });
  });

  it('pull events of a pod that no longer waits on a pull, or of an earlier pod of the name, end nothing', () => {
    const e = new PodEvidence();
    e.event(pullEvent('a', NO_PLATFORM, 9));
    expect(e.pod(podOf('u1'))).to.equal(undefined);
    const old = new PodEvidence();
    old.event({ ...pullEvent('a', NO_PLATFORM, 9), podUid: 'u0' });
    expect(old.pod(podOf('u1', { reason: 'ImagePullBackOff', message: 'Back-off pulling image "x"' }))).to.equal(undefined);
  });
});
