// Node state on a running sim, changed the way a user changes a real cluster (kubectl cordon,
// a status patch of the Ready condition, a kubelet that stops renewing its Lease): the node
// lifecycle controller's taints follow, the scheduler and kubelets respect them, capacity is
// enforced by the scheduler and by kubelet admission, and breaks apply per node.

import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreV1Event, V1Node, V1Pod } from '@kubernetes/client-node';
import { startSim, type SimCluster } from '../../../sim/index.ts';
import { loadProfile } from '../../../sim/profiles/load.ts';
import type { Profile } from '../../../sim/profiles/types.ts';
import type { KubeObject, Store } from '../../../sim/api/store.ts';
import { startNodeLifecycleController } from '../../../sim/controllers/nodeLifecycle.ts';
import { kubeletRejection, podFitsNode } from '../../../sim/controllers/fit.ts';
import { buildNodeObject, nodeSpecs } from '../../../sim/nodes/index.ts';
import { Policy } from '../../../sim/network/policy.ts';
import { LEASE_BUCKET, LEASE_NAMESPACE } from '../../../sim/nodes/lease.ts';
import { kubectl, kubectlBinary } from '../../support/kubectl.ts';
import { newStore } from '../../support/simControllers.ts';

const KUBECTL = kubectlBinary('1.33') ?? 'kubectl';
const WAIT_MS = 20_000;

/** Resolves once pred holds for the object (checked now and on each change); fails at the deadline with the last state. */
function waitFor<T>(store: Store, bucket: string, ns: string | undefined, name: string, what: string, pred: (o: T) => boolean): Promise<T> {
  return new Promise((resolve, reject) => {
    let w: { stop(): void } | undefined;
    const check = () => {
      const o = store.tryGet(bucket, ns, name) as unknown as T | undefined;
      if (o && pred(o)) {
        clearTimeout(t);
        w?.stop();
        resolve(o);
        return true;
      }
      return false;
    };
    const t = setTimeout(() => {
      w?.stop();
      reject(
        new Error(
          `timed out waiting for ${bucket} ${name} to be ${what}; last: ${JSON.stringify(store.tryGet(bucket, ns, name)?.spec)} ${JSON.stringify(store.tryGet(bucket, ns, name)?.status)}`,
        ),
      );
    }, WAIT_MS);
    if (check()) return;
    w = store.watch(bucket, { ...(ns ? { namespace: ns } : {}), fieldSelector: `metadata.name=${name}` }, () => {
      check();
    });
  });
}

const taintKeys = (n: V1Node) => (n.spec?.taints ?? []).map(t => `${t.key}:${t.effect}`).sort();
const eventsOf = (store: Store, name: string) =>
  (store.list('events', { namespace: 'default' }).items as unknown as CoreV1Event[]).filter(e => e.involvedObject.name === name);

function pod(name: string, spec: Partial<NonNullable<V1Pod['spec']>>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: {
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: ['cmd', '/c', 'ping -t localhost > NUL'] }],
      ...spec,
    },
  } as unknown as KubeObject;
}

/** The minimal profile with two small Windows nodes, the first one only 4 pods and 2 cpus. */
function smallProfile(edit: (p: Profile) => void = () => {}): Profile {
  const p = structuredClone(loadProfile('minimal'));
  p.name = 'simnodes-lifecycle';
  const [w1, w2] = p.nodes.filter(n => n.os === 'windows');
  w1.capacity = { cpu: '2', memory: '8Gi', pods: '4' };
  w1.reservedCpu = '500m';
  w2.capacity = { cpu: '2', memory: '8Gi', pods: '110' };
  edit(p);
  return p;
}

describe('sim: node lifecycle, capacity and per-node breaks', function () {
  this.timeout(120_000);

  describe('on a running sim, changed with kubectl', () => {
    let sim: SimCluster;
    let kubeconfig: string;
    before(async () => {
      sim = await startSim({ profile: smallProfile() });
      kubeconfig = join(mkdtempSync(join(tmpdir(), 'simnodes-')), 'kubeconfig');
      writeFileSync(kubeconfig, sim.kubeconfig);
    });
    after(async () => {
      await sim?.stop();
    });

    it('kubectl cordon adds the unschedulable taint and keeps new pods off; uncordon lifts both', async () => {
      const r = await kubectl(KUBECTL, kubeconfig, ['cordon', 'win-2022-2']);
      expect(r.exitCode, r.stderr).to.equal(0);
      const cordoned = await waitFor<V1Node>(sim.store, 'nodes', undefined, 'win-2022-2', 'tainted unschedulable', n =>
        taintKeys(n).includes('node.kubernetes.io/unschedulable:NoSchedule'),
      );
      expect(cordoned.spec!.unschedulable).to.equal(true);
      sim.store.create('pods', pod('pinned-off', { nodeSelector: { 'kubernetes.io/hostname': 'win-2022-2' } }));
      const p = await waitFor<V1Pod>(
        sim.store,
        'pods',
        'default',
        'pinned-off',
        'unschedulable',
        x => x.status?.conditions?.some(c => c.type === 'PodScheduled' && c.reason === 'Unschedulable') ?? false,
      );
      expect(p.status!.conditions!.find(c => c.type === 'PodScheduled')!.message).to.match(/^0\/4 nodes are available: .*1 node\(s\) were unschedulable/);
      expect((await kubectl(KUBECTL, kubeconfig, ['uncordon', 'win-2022-2'])).exitCode).to.equal(0);
      await waitFor<V1Node>(sim.store, 'nodes', undefined, 'win-2022-2', 'untainted', n => !taintKeys(n).some(k => k.startsWith('node.kubernetes.io/')));
      await waitFor<V1Pod>(sim.store, 'pods', 'default', 'pinned-off', 'bound to win-2022-2', x => x.spec?.nodeName === 'win-2022-2');
    });

    it('kubectl label ...- removes a label for good: the scheduler no longer matches it', async () => {
      const r = await kubectl(KUBECTL, kubeconfig, ['label', 'node', 'win-2022-2', 'node.kubernetes.io/windows-build-']);
      expect(r.exitCode, r.stderr).to.equal(0);
      await waitFor<V1Node>(
        sim.store,
        'nodes',
        undefined,
        'win-2022-2',
        'without windows-build',
        n => !('node.kubernetes.io/windows-build' in (n.metadata?.labels ?? {})),
      );
      sim.store.create('pods', pod('by-build', { nodeSelector: { 'kubernetes.io/hostname': 'win-2022-2', 'node.kubernetes.io/windows-build': '10.0.20348' } }));
      const p = await waitFor<V1Pod>(
        sim.store,
        'pods',
        'default',
        'by-build',
        'unschedulable',
        x => x.status?.conditions?.some(c => c.reason === 'Unschedulable') ?? false,
      );
      expect(p.status!.conditions!.find(c => c.type === 'PodScheduled')!.message).to.match(
        /1 node\(s\) had untolerated taint \{node-role.kubernetes.io\/control-plane: \}, 3 node\(s\) didn't match Pod's node affinity\/selector/,
      );
      expect((await kubectl(KUBECTL, kubeconfig, ['label', 'node', 'win-2022-2', 'node.kubernetes.io/windows-build=10.0.20348'])).exitCode).to.equal(0);
      await waitFor<V1Pod>(sim.store, 'pods', 'default', 'by-build', 'bound', x => x.spec?.nodeName === 'win-2022-2');
    });

    it('a status patch of Ready=False makes the node NotReady: not-ready taints, no new pod starts there until Ready again', async () => {
      const patch = (status: string, reason: string) =>
        kubectl(KUBECTL, kubeconfig, [
          'patch',
          'node',
          'win-2022-2',
          '--subresource=status',
          '--type=strategic',
          '-p',
          JSON.stringify({ status: { conditions: [{ type: 'Ready', status, reason, message: `set by the test (${reason})` }] } }),
        ]);
      const r = await patch('False', 'KubeletNotReady');
      expect(r.exitCode, r.stderr).to.equal(0);
      const node = await waitFor<V1Node>(sim.store, 'nodes', undefined, 'win-2022-2', 'not-ready tainted', n =>
        taintKeys(n).includes('node.kubernetes.io/not-ready:NoExecute'),
      );
      expect(taintKeys(node)).to.include.members(['node.kubernetes.io/not-ready:NoSchedule', 'node.kubernetes.io/not-ready:NoExecute']);
      expect(node.spec!.taints!.find(t => t.effect === 'NoExecute')!.timeAdded).to.be.a('string');
      // A pod bound there directly (no scheduler) and tolerating everything: the kubelet holds it.
      sim.store.create('pods', pod('on-notready', { nodeName: 'win-2022-2', tolerations: [{ operator: 'Exists' }] }));
      await waitFor<KubeObject>(sim.store, 'pods', 'default', 'on-notready', 'noticed', () =>
        eventsOf(sim.store, 'on-notready').some(e => e.reason === 'NetworkNotReady'),
      );
      const held = sim.store.tryGet('pods', 'default', 'on-notready') as unknown as V1Pod;
      expect(held.status?.phase ?? 'Pending').to.equal('Pending');
      expect(held.status?.containerStatuses).to.equal(undefined);
      // The kubelet's heartbeat keeps the patched condition (it refreshes timestamps only).
      expect((sim.store.tryGet('nodes', undefined, 'win-2022-2') as unknown as V1Node).status!.conditions!.find(c => c.type === 'Ready')!.status).to.equal(
        'False',
      );
      expect((await patch('True', 'KubeletReady')).exitCode).to.equal(0);
      await waitFor<V1Node>(sim.store, 'nodes', undefined, 'win-2022-2', 'untainted', n => !taintKeys(n).some(k => k.includes('not-ready')));
      await waitFor<V1Pod>(sim.store, 'pods', 'default', 'on-notready', 'Running', x => x.status?.phase === 'Running');
    });

    it('enforces pod capacity in the scheduler with the real FailedScheduling text', async () => {
      // win-2022-1 takes 4 pods; kube-system's Windows DaemonSets hold two of them.
      const onW1 = () =>
        (sim.store.list('pods').items as unknown as V1Pod[]).filter(p => p.spec?.nodeName === 'win-2022-1' && p.status?.phase !== 'Failed').length;
      for (let i = 0; i < 6; i++) sim.store.create('pods', pod(`fill-${i}`, { nodeSelector: { 'kubernetes.io/hostname': 'win-2022-1' } }));
      const stuck = await waitFor<V1Pod>(
        sim.store,
        'pods',
        'default',
        'fill-5',
        'unschedulable',
        x => x.status?.conditions?.some(c => c.reason === 'Unschedulable') ?? false,
      );
      const msg = stuck.status!.conditions!.find(c => c.type === 'PodScheduled')!.message!;
      expect(msg, msg).to.match(
        /^0\/4 nodes are available: 1 Too many pods, 1 node\(s\) had untolerated taint \{node-role\.kubernetes\.io\/control-plane: \}, 2 node\(s\) didn't match Pod's node affinity\/selector\. preemption: 0\/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling\.$/,
      );
      expect(onW1()).to.equal(4);
    });

    it('enforces cpu in the scheduler and in kubelet admission (OutOfcpu for a pod bound past the scheduler)', async () => {
      const big = { containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', resources: { requests: { cpu: '1' } } }] };
      sim.store.create(
        'pods',
        pod('too-big', {
          ...big,
          nodeSelector: { 'kubernetes.io/hostname': 'win-2022-2' },
          containers: [{ ...big.containers[0], resources: { requests: { cpu: '3' } } }],
        }),
      );
      const p = await waitFor<V1Pod>(
        sim.store,
        'pods',
        'default',
        'too-big',
        'unschedulable',
        x => x.status?.conditions?.some(c => c.reason === 'Unschedulable') ?? false,
      );
      expect(p.status!.conditions!.find(c => c.type === 'PodScheduled')!.message).to.match(/1 Insufficient cpu/);
      // win-2022-2 has 1500m allocatable: the first 1-cpu pod fits, the second is rejected by the kubelet.
      sim.store.create('pods', pod('bound-1', { ...big, nodeName: 'win-2022-2' }));
      sim.store.create('pods', pod('bound-2', { ...big, nodeName: 'win-2022-2' }));
      const rejected = await waitFor<V1Pod>(sim.store, 'pods', 'default', 'bound-2', 'Failed', x => x.status?.phase === 'Failed');
      expect(rejected.status).to.include({ reason: 'OutOfcpu' });
      expect(rejected.status!.message, rejected.status!.message).to.match(
        /^Pod was rejected: Node didn't have enough resource: cpu, requested: 1000, used: 1000, capacity: 1500$/,
      );
    });

    it('counts extended resources the node does not have as Insufficient', async () => {
      sim.store.create(
        'pods',
        pod('wants-gpu', {
          containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', resources: { limits: { 'nvidia.com/gpu': '1' } } }],
        }),
      );
      const p = await waitFor<V1Pod>(
        sim.store,
        'pods',
        'default',
        'wants-gpu',
        'unschedulable',
        x => x.status?.conditions?.some(c => c.reason === 'Unschedulable') ?? false,
      );
      expect(p.status!.conditions!.find(c => c.type === 'PodScheduled')!.message).to.match(/2 Insufficient nvidia\.com\/gpu/);
    });
  });

  describe('the lifecycle controller alone', () => {
    it('marks a node whose Lease stopped being renewed Unknown, with the unreachable taints', async () => {
      const store = newStore();
      store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: LEASE_NAMESPACE } } as unknown as KubeObject);
      const profile = smallProfile();
      const node = {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'w' },
        spec: {},
        status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }] },
      };
      store.create('nodes', node as unknown as KubeObject);
      store.create(LEASE_BUCKET, {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'w', namespace: LEASE_NAMESPACE },
        spec: { renewTime: new Date(Date.now() - 60_000).toISOString() },
      } as unknown as KubeObject);
      const nlc = startNodeLifecycleController({ store, profile, options: {} }, { gracePeriodMs: 1_000, monitorPeriodMs: 50 });
      try {
        const n = await waitFor<V1Node>(store, 'nodes', undefined, 'w', 'unreachable', x => taintKeys(x).includes('node.kubernetes.io/unreachable:NoExecute'));
        expect(n.status!.conditions!.find(c => c.type === 'Ready')).to.include({
          status: 'Unknown',
          reason: 'NodeStatusUnknown',
          message: 'Kubelet stopped posting node status.',
        });
        expect(taintKeys(n)).to.deep.equal(['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule']);
      } finally {
        await nlc.stop();
      }
    });

    it('adds pressure taints by condition and leaves other taints alone', async () => {
      const store = newStore();
      const node = {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'p' },
        spec: { taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }] },
        status: {
          conditions: [
            { type: 'Ready', status: 'True' },
            { type: 'DiskPressure', status: 'True' },
          ],
        },
      };
      store.create('nodes', node as unknown as KubeObject);
      const nlc = startNodeLifecycleController({ store, profile: smallProfile(), options: {} }, { monitorPeriodMs: 60_000 });
      try {
        const n = await waitFor<V1Node>(store, 'nodes', undefined, 'p', 'disk-pressure tainted', x =>
          taintKeys(x).includes('node.kubernetes.io/disk-pressure:NoSchedule'),
        );
        expect(taintKeys(n)).to.deep.equal(['node.kubernetes.io/disk-pressure:NoSchedule', 'os:NoSchedule']);
      } finally {
        await nlc.stop();
      }
    });
  });

  describe('kubelet admission', () => {
    it('rejects on the first resource short, in the kubelet order (pods, cpu, memory, then others)', () => {
      const p = (cpu: string, extra: Record<string, string> = {}) =>
        ({ spec: { containers: [{ name: 'c', resources: { requests: { cpu, memory: '1Gi', ...extra } } }] } }) as V1Pod;
      const alloc = { cpu: '1', memory: '4Gi', pods: '2', 'nvidia.com/gpu': '1' };
      expect(kubeletRejection(p('500m'), alloc, [p('400m')])).to.equal(undefined);
      expect(kubeletRejection(p('500m'), alloc, [p('400m'), p('1m')])).to.deep.equal({
        reason: 'OutOfpods',
        message: "Pod was rejected: Node didn't have enough resource: pods, requested: 1, used: 2, capacity: 2",
      });
      expect(kubeletRejection(p('700m'), alloc, [p('400m')])!.reason).to.equal('OutOfcpu');
      expect(kubeletRejection(p('1m', { 'nvidia.com/gpu': '1' }), alloc, [p('1m', { 'nvidia.com/gpu': '1' })])!.message).to.equal(
        "Pod was rejected: Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 1, capacity: 1",
      );
    });
  });

  describe('breaks and lifted limitations per node', () => {
    it('a node-level break or lifted limitation applies to that node only', () => {
      const profile = smallProfile(p => {
        const w1 = p.nodes.find(n => n.name === 'win-2022-1')!;
        w1.breaks = ['w2l'];
        w1.limitations = { icmpEgress: false };
      });
      const policy = new Policy(profile);
      const from = (node: string) => ({ kind: 'pod' as const, id: `p-${node}`, os: 'windows' as const, node, address: '127.1.1.1' });
      const linuxPod = { kind: 'pod' as const, address: '127.1.2.2', os: 'linux' as const, node: 'linux-1' };
      expect(policy.decide(from('win-2022-1'), linuxPod, 'tcp')).to.include({ allowed: false });
      expect(policy.decide(from('win-2022-2'), linuxPod, 'tcp')).to.deep.equal({ allowed: true });
      const outside = { kind: 'external' as const, address: '127.9.9.9' };
      expect(policy.decide(from('win-2022-1'), outside, 'icmp')).to.deep.equal({ allowed: true });
      expect(policy.decide(from('win-2022-2'), outside, 'icmp')).to.include({ allowed: false });
    });

    it('node-level breaks of labels and scheduling: beta-os-label and taint-enforcement on one node only', () => {
      const profile = smallProfile(p => {
        for (const n of p.nodes.filter(x => x.os === 'windows')) n.taints = [{ key: 'os', value: 'windows', effect: 'NoSchedule' }];
        p.nodes.find(n => n.name === 'win-2022-1')!.breaks = ['beta-os-label', 'taint-enforcement'];
      });
      const [w1, w2] = nodeSpecs(profile)
        .filter(n => n.os === 'windows')
        .map(spec => buildNodeObject(profile, spec, { internalIP: '127.0.10.9', podCIDR: '10.244.9.0/24' }) as unknown as V1Node);
      expect(w1.metadata!.labels).to.not.have.property('beta.kubernetes.io/os');
      expect(w2.metadata!.labels).to.include({ 'beta.kubernetes.io/os': 'windows' });
      const untolerating = { spec: { containers: [{ name: 'c' }] } } as V1Pod;
      expect(podFitsNode(untolerating, w1, { profile })).to.equal(undefined);
      expect(podFitsNode(untolerating, w2, { profile })!.reasons).to.deep.equal(['node(s) had untolerated taint {os: windows}']);
    });

    it('kubectl exec fails on the node that breaks exec and works on the other', async () => {
      const sim = await startSim({
        profile: smallProfile(p => {
          p.nodes.find(n => n.name === 'win-2022-1')!.breaks = ['exec'];
        }),
      });
      try {
        const kc = join(mkdtempSync(join(tmpdir(), 'simnodes-')), 'kubeconfig');
        writeFileSync(kc, sim.kubeconfig);
        for (const n of ['win-2022-1', 'win-2022-2']) sim.store.create('pods', pod(`exec-${n}`, { nodeName: n }));
        for (const n of ['win-2022-1', 'win-2022-2'])
          await waitFor<V1Pod>(sim.store, 'pods', 'default', `exec-${n}`, 'Running', x => x.status?.phase === 'Running');
        const broken = await kubectl(KUBECTL, kc, ['exec', 'exec-win-2022-1', '--', 'cmd', '/c', 'echo hi']);
        expect(broken.exitCode).to.not.equal(0);
        expect(broken.stderr).to.match(/hcs::System::CreateProcess/);
        const fine = await kubectl(KUBECTL, kc, ['exec', 'exec-win-2022-2', '--', 'cmd', '/c', 'echo hi']);
        expect(fine.exitCode, fine.stderr).to.equal(0);
        expect(fine.stdout.trim()).to.equal('hi');
      } finally {
        await sim.stop();
      }
    });
  });
});
