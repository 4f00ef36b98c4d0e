// Workload waits end on evidence: a workload whose controller never observes it (no
// status.observedGeneration) fails within the bound, naming the controller, instead of at the
// rollout deadline; a pod of it that fails for good ends the rollout wait at once.

import { expect } from 'chai';
import type { V1DaemonSet, V1Deployment } from '@kubernetes/client-node';
import { ControllerNotActingError, controllerObserved } from '../../../lib/cluster/controllerObserved.ts';
import { MeansError } from '../../../lib/cluster/meansError.ts';
import type { KubeClients } from '../../../lib/cluster/types.ts';
import { WaitTimeoutError } from '../../../lib/cluster/watch.ts';
import { waitForDaemonSetReady, waitForDeploymentComplete, WorkloadPodFailedError } from '../../../lib/cluster/workloadWait.ts';
import { loadProfile, withOverrides } from '../../../sim/profiles/load.ts';
import { simClients } from '../../support/simClients.ts';

const IMAGE = 'registry.k8s.io/e2e-test-images/agnhost:2.52';
const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (x: unknown) => x,
  );

describe('controllerObserved', () => {
  it('holds once observedGeneration caught up with generation', () => {
    expect(controllerObserved({ metadata: { generation: 1 } })).to.equal(false);
    expect(controllerObserved({ metadata: { generation: 2 }, status: { observedGeneration: 1 } } as never)).to.equal(false);
    expect(controllerObserved({ metadata: { generation: 2 }, status: { observedGeneration: 2 } } as never)).to.equal(true);
  });
});

describe('workload waits end on evidence (sim)', function () {
  this.timeout(120_000);
  let kube: KubeClients;
  let stop: (() => Promise<void>) | undefined;
  const ns = 'wincheck-observed';

  before(async () => {
    const profile = withOverrides(loadProfile('default'), { breaks: ['daemonset-controller-down', 'process-isolation'] });
    ({ kube, stop } = await simClients(ns, profile));
  });
  after(async () => {
    await stop?.();
  });

  const template = (name: string, os: string, image = IMAGE) => ({
    metadata: { labels: { app: name } },
    spec: {
      nodeSelector: { 'kubernetes.io/os': os },
      tolerations: [{ operator: 'Exists' as const }],
      containers: [{ name: 'c', image, args: ['pause'] }],
    },
  });

  it('a DaemonSet its controller never observes: ControllerNotActingError (daemonset-controller) within the bound, not the rollout deadline', async () => {
    const body: V1DaemonSet = {
      metadata: { name: 'unseen', namespace: ns },
      spec: { selector: { matchLabels: { app: 'unseen' } }, template: template('unseen', 'linux') },
    };
    await kube.apps.createNamespacedDaemonSet({ namespace: ns, body });
    const started = Date.now();
    const e = await failure(waitForDaemonSetReady(kube, ns, 'unseen', 1, 60_000, undefined, { controllerObserveMs: 1_000 }));
    expect(e).to.be.instanceOf(ControllerNotActingError);
    expect(e).to.be.instanceOf(MeansError);
    expect((e as MeansError).means).to.equal('daemonset-controller');
    expect((e as Error).message).to.match(
      /daemonset wincheck-observed\/unseen: its controller \(daemonset-controller\) has not observed it in 1s \(generation 1, no status.observedGeneration\)/,
    );
    expect(Date.now() - started).to.be.lessThan(20_000);
  });

  it('a Deployment its controller observes is waited for as before', async () => {
    const body: V1Deployment = {
      metadata: { name: 'seen', namespace: ns },
      spec: { replicas: 1, selector: { matchLabels: { app: 'seen' } }, template: template('seen', 'linux') },
    };
    await kube.apps.createNamespacedDeployment({ namespace: ns, body });
    const d = await waitForDeploymentComplete(kube, ns, 'seen', 60_000, undefined, { controllerObserveMs: 1_000 });
    expect(d.status?.readyReplicas).to.equal(1);
  });

  it('a Deployment whose pod cannot pull (no image for the node build) ends at once, a WaitTimeoutError naming the pod', async () => {
    const body: V1Deployment = {
      metadata: { name: 'nopull', namespace: ns },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'nopull' } },
        template: template('nopull', 'windows', 'mcr.microsoft.com/windows/nanoserver:ltsc2022'),
      },
    };
    await kube.apps.createNamespacedDeployment({ namespace: ns, body });
    const started = Date.now();
    const e = await failure(waitForDeploymentComplete(kube, ns, 'nopull', 60_000, undefined, { controllerObserveMs: 5_000 }));
    expect(e).to.be.instanceOf(WorkloadPodFailedError);
    expect(e).to.be.instanceOf(WaitTimeoutError);
    expect((e as Error).message).to.match(
      /deployment wincheck-observed\/nopull: pod wincheck-observed\/nopull-\S+ is (ErrImagePull|ImagePullBackOff), so the rollout will not complete by waiting/,
    );
    expect(Date.now() - started).to.be.lessThan(20_000);
  });
});
