// A pooled profile with background load, started whole: every DaemonSet of the add-ons reaches
// each node it fits, and the scheduler counts the tenants' requests on every node (it keeps
// the bound pods per node as they are written rather than reading them all per placement).

import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { CoreV1Event, V1DaemonSet, V1Pod } from '@kubernetes/client-node';
import { startSim, type SimCluster } from '../../../sim/index.ts';
import { loadProfile } from '../../../sim/profiles/load.ts';
import { waitFor } from '../../support/simControllers.ts';

const LINUX = { os: 'linux', containerRuntime: 'containerd://1.7.22', capacity: { cpu: '4', memory: '16Gi', pods: '110' }, reservedCpu: '100m' };
const WINDOWS = {
  os: 'windows',
  windowsBuild: '10.0.20348.2582',
  containerRuntime: 'containerd://1.7.22',
  capacity: { cpu: '8', memory: '32Gi', pods: '110' },
  reservedCpu: '500m',
  taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
};

function pooledProfile() {
  const f = join(mkdtempSync(join(tmpdir(), 'wincheck-poolstart-')), 'pooled.yaml');
  writeFileSync(
    f,
    stringify({
      name: 'pooled',
      base: 'default',
      nodes: [{ name: 'control-plane', role: 'control-plane', ...LINUX }],
      nodePools: [
        { name: 'lin', count: 12, template: LINUX },
        { name: 'win', count: 4, template: WINDOWS },
      ],
      // 3 of each Linux worker's 3.9 allocatable cores taken by other tenants.
      background: { namespaces: 5, podsPerNode: 3, requests: { cpu: '1', memory: '128Mi' } },
    }),
  );
  return loadProfile(f);
}

const linuxPod = (name: string, cpu: string): V1Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'c', image: 'registry.k8s.io/pause:3.10', resources: { requests: { cpu } } }] },
});

describe('sim: a pooled profile with background load, started whole', function () {
  this.timeout(120_000);
  let sim: SimCluster;
  before(async () => {
    sim = await startSim({ profile: pooledProfile() });
  });
  after(async () => {
    await sim?.stop();
  });

  it('runs each add-on DaemonSet on every node it fits, all Ready', async () => {
    const daemonSets = await waitFor(sim.store, 'every DaemonSet Ready on all its nodes', () => {
      const all = sim.store.list('daemonsets.apps').items as unknown as V1DaemonSet[];
      return all.length > 0 && all.every(d => d.status?.desiredNumberScheduled && d.status.numberReady === d.status.desiredNumberScheduled) ? all : undefined;
    });
    const desired = daemonSets.map(d => d.status!.desiredNumberScheduled);
    expect(Math.max(...desired), 'a Linux DaemonSet on the control plane and the 12 Linux workers').to.equal(13);
    const pods = sim.store.scan('pods', 'kube-system') as unknown as V1Pod[];
    for (const d of daemonSets) {
      const own = pods.filter(p => p.metadata?.ownerReferences?.some(r => r.uid === d.metadata!.uid));
      expect(new Set(own.map(p => p.spec?.nodeName)).size, `${d.metadata!.name}: one pod per node`).to.equal(d.status!.desiredNumberScheduled);
    }
  });

  it("counts the tenants' requests: a pod asking for more than any Linux worker has left is refused, a smaller one placed", async () => {
    sim.store.create('pods', linuxPod('too-big', '1500m') as never);
    sim.store.create('pods', linuxPod('fits', '500m') as never);
    const placed = await waitFor(sim.store, 'pod fits bound', () => (sim.store.tryGet('pods', 'default', 'fits') as unknown as V1Pod)?.spec?.nodeName);
    expect(placed).to.match(/^lin-\d+$/);
    const refused = await waitFor(sim.store, 'FailedScheduling for too-big', () =>
      (sim.store.scan('events', 'default') as unknown as CoreV1Event[]).find(e => e.reason === 'FailedScheduling' && e.involvedObject?.name === 'too-big'),
    );
    expect(refused.message).to.match(/^0\/17 nodes are available: /);
    expect(refused.message).to.include('12 Insufficient cpu').and.include('4 node(s) had untolerated taint {os: windows}');
  });
});
