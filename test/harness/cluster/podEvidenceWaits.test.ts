// Every pod wait ends on the same evidence (PodEvidence, lib/cluster/podFailures.ts, over
// podWait.ts PodEvidenceWatch): one pod's wait, the hub's many-pod waits and a rollout's guard.
// A pull that fails and then passes ends none of them; a pull failing again and again in the same
// words, or a sandbox failing in the same words, ends each before its deadline: the error is the
// evidence's (PodStartError, WorkloadPodFailedError naming it), never the deadline's timeout.

import { expect } from 'chai';
import type { V1Deployment, V1Pod } from '@kubernetes/client-node';
import { PULL_REPEATS, SANDBOX_REPEATS } from '../../../lib/cluster/podFailures.ts';
import { PodStartError, podEvents, waitTimeoutForPodReady } from '../../../lib/cluster/podWait.ts';
import { PodReadyHub } from '../../../lib/cluster/sharedPodWaits.ts';
import type { KubeClients } from '../../../lib/cluster/types.ts';
import { waitForDeploymentComplete, WorkloadPodFailedError } from '../../../lib/cluster/workloadWait.ts';
import { loadProfile } from '../../../sim/profiles/load.ts';
import type { Profile } from '../../../sim/profiles/types.ts';
import { realOutput } from '../../support/realOutputs.ts';
import { simClients } from '../../support/simClients.ts';

const AGNHOST = 'registry.k8s.io/e2e-test-images/agnhost';
/** Fails twice, then pulls (hcsshim's "being used by another process": a layer in use while importing). */
const FLAKY = `${AGNHOST}:2.47`;
/** Fails every time with the same transient words. */
const NEVER = `${AGNHOST}:2.48`;
/** Its sandbox fails every time in the same words (HCS: the container OS does not match the host's). */
const NO_SANDBOX = `${AGNHOST}:2.49`;
const DEADLINE = 90_000;

const sample = (n: string) =>
  realOutput(n)
    .text.trim()
    .replace(/^.*?kubelet(?:, \w+)?\s+/, '');
const LAYER_IN_USE = sample('22').replace(/^Failed to pull image "[^"]*": /, '');
const OS_MISMATCH = sample('13').replace(/^Failed to create pod sandbox: /, '');

const failure = (p: Promise<unknown>) =>
  p.then(
    () => expect.fail('expected the wait to fail'),
    (e: unknown) => e as Error,
  );

describe('pod waits end on the same evidence: one pod, the hub, a rollout (sim)', function () {
  this.timeout(180_000);
  let kube: KubeClients;
  let stop: (() => Promise<void>) | undefined;
  const ns = 'wincheck-evidence';

  before(async () => {
    const profile: Profile = {
      ...loadProfile('default'),
      replay: [
        { id: 'flaky', podFailure: { match: { images: FLAKY }, stage: 'pull', message: LAYER_IN_USE, times: 2 } },
        { id: 'never', podFailure: { match: { images: NEVER }, stage: 'pull', message: LAYER_IN_USE } },
        { id: 'no-sandbox', podFailure: { match: { images: NO_SANDBOX }, stage: 'sandbox', message: OS_MISMATCH } },
      ],
    };
    ({ kube, stop } = await simClients(ns, profile));
  });
  after(async () => {
    await stop?.();
  });

  const podOf = (name: string, image: string, labels: Record<string, string> = {}): V1Pod => ({
    metadata: { name, namespace: ns, labels },
    spec: { containers: [{ name: 'c', image, args: ['pause'] }], nodeSelector: { 'kubernetes.io/os': 'linux' } },
  });
  const create = (p: V1Pod) => kube.core.createNamespacedPod({ namespace: ns, body: p });
  const pullFailures = async (name: string) => (await podEvents(kube, ns, name)).filter(ev => ev.startsWith('Warning Failed: Failed to pull image'));

  it('one pod: a pull that fails twice and then passes is Ready; a pull failing in the same words ends the wait after PULL_REPEATS', async () => {
    await create(podOf('flaky', FLAKY));
    await create(podOf('never', NEVER));
    const [ready, e] = await Promise.all([waitTimeoutForPodReady(kube, ns, 'flaky', DEADLINE), failure(waitTimeoutForPodReady(kube, ns, 'never', DEADLINE))]);
    expect(ready.metadata?.name).to.equal('flaky');
    // The pull really failed on the way (one event whose count the kubelet folded, or two).
    expect((await pullFailures('flaky')).length).to.be.at.least(1);
    expect(e).to.be.instanceOf(PodStartError);
    expect((e as PodStartError).reason).to.be.oneOf(['ErrImagePull', 'ImagePullBackOff']);
    expect(e.message).to.contain(`its image pull failed ${PULL_REPEATS} times in the same words`).and.contain('being used by another process');
  });

  it('the hub: a sandbox failing in the same words ends its wait; a pull that fails twice then passes is Ready', async () => {
    const hub = new PodReadyHub(kube, ns, 'hub=evidence');
    const bad = failure(hub.waitReady('hub-sandbox', DEADLINE));
    const good = hub.waitReady('hub-flaky', DEADLINE);
    await create(podOf('hub-sandbox', NO_SANDBOX, { hub: 'evidence' }));
    await create(podOf('hub-flaky', FLAKY, { hub: 'evidence' }));
    const e = await bad;
    expect(e).to.be.instanceOf(PodStartError);
    expect((e as PodStartError).reason).to.equal('FailedCreatePodSandBox');
    expect(e.message).to.match(new RegExp(`its sandbox failed (\\d+) times in the same words`)).and.contain('does not match the host operating system');
    expect(Number(/sandbox failed (\d+) times/.exec(e.message)![1])).to.be.at.least(SANDBOX_REPEATS);
    expect((await good).metadata?.name).to.equal('hub-flaky');
  });

  const deployment = (name: string, image: string): V1Deployment => ({
    metadata: { name, namespace: ns },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'c', image, args: ['pause'] }], nodeSelector: { 'kubernetes.io/os': 'linux' } },
      },
    },
  });

  it('a rollout: its pod whose pull keeps failing ends the wait (WorkloadPodFailedError); a pull that fails twice then passes completes', async () => {
    await kube.apps.createNamespacedDeployment({ namespace: ns, body: deployment('roll-never', NEVER) });
    await kube.apps.createNamespacedDeployment({ namespace: ns, body: deployment('roll-flaky', FLAKY) });
    const [e, done] = await Promise.all([
      failure(waitForDeploymentComplete(kube, ns, 'roll-never', DEADLINE)),
      waitForDeploymentComplete(kube, ns, 'roll-flaky', DEADLINE),
    ]);
    expect(e).to.be.instanceOf(WorkloadPodFailedError);
    expect(e.message).to.match(
      /^deployment wincheck-evidence\/roll-never: pod wincheck-evidence\/roll-never-[\w-]+: its image pull failed \d+ times in the same words/,
    );
    expect(done.status?.readyReplicas).to.equal(1);
  });

  it('a rollout: its pod whose sandbox fails in the same words ends the wait', async () => {
    await kube.apps.createNamespacedDeployment({ namespace: ns, body: deployment('roll-sandbox', NO_SANDBOX) });
    const e = await failure(waitForDeploymentComplete(kube, ns, 'roll-sandbox', DEADLINE));
    expect(e).to.be.instanceOf(WorkloadPodFailedError);
    expect(e.message).to.match(/its sandbox failed \d+ times in the same words/);
  });
});
