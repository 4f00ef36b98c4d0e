// Rollout waits end early, as UnschedulableError (an error of the harness's means, not a
// regression), when a pod stays Unschedulable; they still complete when pods fit.

import { expect } from 'chai';
import type { V1Deployment } from '@kubernetes/client-node';
import type { KubeClients } from '../../../lib/cluster/types.ts';
import { WaitTimeoutError } from '../../../lib/cluster/watch.ts';
import { UnschedulableError, waitForDeploymentComplete } from '../../../lib/cluster/workloadWait.ts';
import { simClients } from '../../support/simClients.ts';

describe('rollout waits and FailedScheduling (sim)', function () {
  this.timeout(120_000);
  let kube: KubeClients;
  let stop: (() => Promise<void>) | undefined;
  const ns = 'wincheck-rollout';

  before(async () => {
    ({ kube, stop } = await simClients(ns));
  });
  after(async () => {
    await stop?.();
  });

  const deployment = (name: string, nodeSelector: Record<string, string>): V1Deployment => ({
    metadata: { name, namespace: ns },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { nodeSelector, containers: [{ name: 'c', image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: ['pause'] }] },
      },
    },
  });

  it('fails within the grace period when its pods cannot be scheduled, naming the scheduler message', async () => {
    await kube.apps.createNamespacedDeployment({
      namespace: ns,
      body: deployment('nowhere', { 'kubernetes.io/os': 'linux', 'wincheck.io/no-such-label': 'x' }),
    });
    const e = await waitForDeploymentComplete(kube, ns, 'nowhere', 60_000, undefined, { unschedulableGraceMs: 1_000 }).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).to.be.instanceOf(UnschedulableError);
    expect(e).to.not.be.instanceOf(WaitTimeoutError);
    expect((e as Error).message).to.match(/deployment wincheck-rollout\/nowhere: pod .* stayed Unschedulable for 1s: 0\/\d+ nodes are available/);
  });

  it('completes when the pods fit', async () => {
    await kube.apps.createNamespacedDeployment({ namespace: ns, body: deployment('fits', { 'kubernetes.io/os': 'linux' }) });
    const d = await waitForDeploymentComplete(kube, ns, 'fits', 60_000, undefined, { unschedulableGraceMs: 1_000 });
    expect(d.status?.readyReplicas).to.equal(2);
  });
});
