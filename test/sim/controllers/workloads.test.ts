// Deployments, ReplicaSets, DaemonSets and StatefulSets driven through the store, with
// the fake kubelet running what gets bound.

import { expect } from 'chai';
import type { V1DaemonSet, V1Deployment, V1Pod, V1ReplicaSet, V1StatefulSet } from '@kubernetes/client-node';
import type { KubeObject } from '../../../sim/api/store.ts';
import { loadProfile, withOverrides } from '../../../sim/profiles/load.ts';
import { setNodeReady } from '../../../sim/nodes/index.ts';
import { createNamespace, isReady, podsIn, startTestCluster, waitFor, type TestCluster } from '../../support/simControllers.ts';

const NS = 'work';
const WINDOWS_POD_SPEC = {
  nodeSelector: { 'kubernetes.io/os': 'windows' },
  tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
  containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', ports: [{ name: 'http', containerPort: 80 }] }],
};

function deployment(
  name: string,
  replicas: number,
  strategy?: V1Deployment['spec'] extends infer S ? (S extends { strategy?: infer T } ? T : never) : never,
): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: structuredClone(WINDOWS_POD_SPEC) },
      ...(strategy ? { strategy } : {}),
    },
  };
}

const getDeploy = (c: TestCluster, name: string) => c.store.get('deployments.apps', NS, name) as unknown as V1Deployment;
const replicaSets = (c: TestCluster) => c.store.list('replicasets.apps', { namespace: NS }).items.map(o => o as unknown as V1ReplicaSet);

function deploymentDone(c: TestCluster, name: string, replicas: number) {
  return waitFor(c.store, `deployment ${name} with ${replicas} available replicas`, () => {
    const d = getDeploy(c, name);
    const s = d.status;
    return (
      s?.observedGeneration === d.metadata!.generation &&
      s?.updatedReplicas === replicas &&
      s?.availableReplicas === replicas &&
      s?.replicas === replicas &&
      podsIn(c.store, NS, `app=${name}`).length === replicas &&
      d
    );
  });
}

describe('sim workload controllers', () => {
  let c: TestCluster;
  beforeEach(async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
  });
  afterEach(async () => {
    await c.stop();
  });

  it('runs a Deployment of 3 Windows replicas through a ReplicaSet, spread over both Windows nodes', async () => {
    c.store.create('deployments.apps', deployment('web', 3));
    const d = await deploymentDone(c, 'web', 3);
    expect(d.status!.readyReplicas).to.equal(3);
    expect(d.status!.conditions!.find(x => x.type === 'Available')).to.include({ status: 'True', reason: 'MinimumReplicasAvailable' });
    expect(d.status!.conditions!.find(x => x.type === 'Progressing')).to.include({ status: 'True', reason: 'NewReplicaSetAvailable' });
    const [rs] = replicaSets(c);
    const hash = rs.metadata!.labels!['pod-template-hash'];
    expect(rs.metadata!.name).to.equal(`web-${hash}`);
    expect(rs.metadata!.annotations).to.include({ 'deployment.kubernetes.io/revision': '1' });
    expect(rs.metadata!.ownerReferences![0]).to.include({ kind: 'Deployment', name: 'web', uid: d.metadata!.uid, controller: true });
    expect(rs.status).to.include({ replicas: 3, readyReplicas: 3, availableReplicas: 3 });
    const pods = podsIn(c.store, NS, 'app=web');
    for (const p of pods) {
      expect(p.metadata!.name!.startsWith(`web-${hash}-`)).to.equal(true);
      expect(p.metadata!.ownerReferences![0]).to.include({ kind: 'ReplicaSet', name: rs.metadata!.name, controller: true });
    }
    expect(new Set(pods.map(p => p.spec!.nodeName))).to.deep.equal(new Set(['win-2022-1', 'win-2022-2']));
  });

  it('scales a Deployment up and down', async () => {
    c.store.create('deployments.apps', deployment('web', 2));
    await deploymentDone(c, 'web', 2);
    c.store.mutate('deployments.apps', NS, 'web', o => {
      (o.spec as { replicas: number }).replicas = 5;
    });
    await deploymentDone(c, 'web', 5);
    c.store.mutate('deployments.apps', NS, 'web', o => {
      (o.spec as { replicas: number }).replicas = 1;
    });
    await deploymentDone(c, 'web', 1);
    expect(replicaSets(c)).to.have.length(1);
  });

  it('rolls out a new template within maxSurge / maxUnavailable', async () => {
    c.store.create('deployments.apps', deployment('web', 3, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }));
    await deploymentDone(c, 'web', 3);
    const violations: string[] = [];
    const sub = c.store.onAny(bucket => {
      if (bucket !== 'replicasets.apps' && bucket !== 'pods') return;
      const total = replicaSets(c).reduce((a, rs) => a + (rs.spec!.replicas ?? 0), 0);
      const available = podsIn(c.store, NS, 'app=web').filter(p => isReady(p) && !p.metadata!.deletionTimestamp).length;
      if (total > 4) violations.push(`${total} replicas wanted (max 3 + 1 surge)`);
      if (available < 3) violations.push(`${available} available (min 3 - 0)`);
    });
    c.store.mutate('deployments.apps', NS, 'web', o => {
      (o.spec as V1Deployment['spec'])!.template.spec!.containers[0].image = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022-v2';
    });
    const d = await deploymentDone(c, 'web', 3);
    sub.stop();
    expect(violations).to.deep.equal([]);
    const rss = replicaSets(c);
    expect(rss).to.have.length(2);
    const newRS = rss.find(rs => rs.spec!.replicas === 3)!;
    const oldRS = rss.find(rs => rs !== newRS)!;
    expect(newRS.metadata!.annotations!['deployment.kubernetes.io/revision']).to.equal('2');
    expect(oldRS.spec!.replicas).to.equal(0);
    expect(podsIn(c.store, NS, 'app=web').every(p => p.spec!.containers[0].image!.endsWith('-v2'))).to.equal(true);
    expect(d.status!.conditions!.find(x => x.type === 'Progressing')!.message).to.equal(`ReplicaSet "${newRS.metadata!.name}" has successfully progressed.`);
    const scaling = c.store
      .list('events', { namespace: NS })
      .items.filter(e => e.reason === 'ScalingReplicaSet')
      .map(e => e.message as string);
    expect(scaling).to.include(`Scaled up replica set ${newRS.metadata!.name} from 0 to 1`);
    expect(scaling).to.include(`Scaled down replica set ${oldRS.metadata!.name} from 3 to 2`);
  });

  it('marks a stalled rollout ProgressDeadlineExceeded after progressDeadlineSeconds', async () => {
    await c.stop();
    c = await startTestCluster('default', { kubelet: { notReady: () => true } });
    createNamespace(c.store, NS);
    const d = deployment('stuck', 2);
    (d.spec as { progressDeadlineSeconds: number }).progressDeadlineSeconds = 1;
    c.store.create('deployments.apps', d);
    const cond = await waitFor(
      c.store,
      'ProgressDeadlineExceeded',
      () => getDeploy(c, 'stuck').status?.conditions?.find(x => x.type === 'Progressing' && x.reason === 'ProgressDeadlineExceeded'),
      8000,
    );
    expect(cond.status).to.equal('False');
    expect(cond.message).to.match(/^ReplicaSet "stuck-[a-z0-9]+" has timed out progressing\.$/);
  });

  it('recreates a deleted pod of a ReplicaSet', async () => {
    c.store.create('deployments.apps', deployment('web', 2));
    await deploymentDone(c, 'web', 2);
    const victim = podsIn(c.store, NS, 'app=web')[0].metadata!.name!;
    c.store.delete('pods', NS, victim);
    await waitFor(c.store, 'a replacement pod', () => {
      const pods = podsIn(c.store, NS, 'app=web');
      return pods.length === 2 && !pods.some(p => p.metadata!.name === victim) && pods.every(isReady);
    });
  });

  it('breaks: deployment-controller leaves the Deployment without ready replicas', async () => {
    await c.stop();
    c = await startTestCluster(withOverrides(loadProfile('default'), { breaks: ['deployment-controller'] }));
    createNamespace(c.store, NS);
    c.store.create('deployments.apps', deployment('web', 2));
    const d = await waitFor(c.store, 'deployment status', () => {
      const x = getDeploy(c, 'web');
      return x.status?.conditions?.some(k => k.type === 'Available') && x;
    });
    expect(d.status!.readyReplicas ?? 0).to.equal(0);
    expect(d.status!.conditions!.find(x => x.type === 'Available')!.status).to.equal('False');
  });

  function daemonSet(name: string, os: 'windows' | 'linux'): KubeObject {
    const spec =
      os === 'windows' ? structuredClone(WINDOWS_POD_SPEC) : { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'c', image: 'agnhost' }] };
    return {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name, namespace: NS },
      spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec } },
    };
  }
  const dsStatus = (name: string) => (c.store.get('daemonsets.apps', NS, name) as unknown as V1DaemonSet).status;

  it('runs a Windows DaemonSet pod on each Windows node and none on Linux', async () => {
    c.store.create('daemonsets.apps', daemonSet('agent', 'windows'));
    await waitFor(c.store, 'DaemonSet ready on 2 nodes', () => dsStatus('agent')?.numberReady === 2 && dsStatus('agent'));
    expect(dsStatus('agent')).to.include({
      desiredNumberScheduled: 2,
      currentNumberScheduled: 2,
      numberReady: 2,
      updatedNumberScheduled: 2,
      numberAvailable: 2,
      numberMisscheduled: 0,
    });
    const pods = podsIn(c.store, NS, 'app=agent');
    expect(pods.map(p => p.spec!.nodeName).sort()).to.deep.equal(['win-2022-1', 'win-2022-2']);
    const tolerations = pods[0].spec!.tolerations!.map(t => `${t.key}:${t.effect}`);
    expect(tolerations).to.include.members([
      'node.kubernetes.io/not-ready:NoExecute',
      'node.kubernetes.io/unreachable:NoExecute',
      'node.kubernetes.io/unschedulable:NoSchedule',
    ]);
    expect(pods[0].spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms[0].matchFields![0]).to.include({
      key: 'metadata.name',
      operator: 'In',
    });
  });

  it('a node flapping NotReady keeps its DaemonSet pod (not-ready NoSchedule stops new pods only); an untolerated NoExecute taint evicts it', async () => {
    c.store.create('daemonsets.apps', daemonSet('agent', 'windows'));
    await waitFor(c.store, 'DaemonSet ready on 2 nodes', () => dsStatus('agent')?.numberReady === 2 && dsStatus('agent'));
    const before = podsIn(c.store, NS, 'app=agent').find(p => p.spec!.nodeName === 'win-2022-1')!.metadata!.uid;
    setNodeReady(c.store, c.profile, 'win-2022-1', false);
    // upstream NodeShouldRunDaemonPod: shouldRun false (desired 1), shouldContinueRunning true (misscheduled, not deleted).
    await waitFor(c.store, 'desired 1 while NotReady', () => dsStatus('agent')?.desiredNumberScheduled === 1 && dsStatus('agent'));
    setNodeReady(c.store, c.profile, 'win-2022-1', true);
    await waitFor(c.store, 'desired 2 again', () => dsStatus('agent')?.desiredNumberScheduled === 2 && dsStatus('agent')?.numberReady === 2);
    expect(podsIn(c.store, NS, 'app=agent').find(p => p.spec!.nodeName === 'win-2022-1')?.metadata!.uid, 'the same pod').to.equal(before);
    c.store.mutate('nodes', undefined, 'win-2022-1', n => {
      (n.spec as { taints?: unknown[] }).taints = [...((n.spec as { taints?: unknown[] }).taints ?? []), { key: 'drain', value: 'now', effect: 'NoExecute' }];
    });
    await waitFor(
      c.store,
      'the pod on the NoExecute-tainted node gone',
      () => !podsIn(c.store, NS, 'app=agent').some(p => p.spec!.nodeName === 'win-2022-1' && !p.metadata!.deletionTimestamp) || undefined,
    );
  });

  it('keeps a DaemonSet without the Windows toleration off tainted Windows nodes, and follows node changes', async () => {
    const ds = daemonSet('strict', 'windows');
    delete (ds.spec as V1DaemonSet['spec'])!.template.spec!.tolerations;
    c.store.create('daemonsets.apps', ds);
    await waitFor(c.store, 'DaemonSet status', () => dsStatus('strict')?.observedGeneration === 1 && dsStatus('strict'));
    expect(dsStatus('strict')!.desiredNumberScheduled).to.equal(0);
    c.store.mutate('nodes', undefined, 'win-2022-1', n => {
      delete (n.spec as { taints?: unknown }).taints;
    });
    await waitFor(c.store, 'one pod on the untainted node', () => dsStatus('strict')?.numberReady === 1);
    expect(podsIn(c.store, NS, 'app=strict').map(p => p.spec!.nodeName)).to.deep.equal(['win-2022-1']);
  });

  it('breaks: daemonset-controller skips Windows nodes', async () => {
    await c.stop();
    c = await startTestCluster(withOverrides(loadProfile('default'), { breaks: ['daemonset-controller'] }));
    createNamespace(c.store, NS);
    c.store.create('daemonsets.apps', daemonSet('agent', 'windows'));
    c.store.create('daemonsets.apps', daemonSet('linux-agent', 'linux'));
    // The control plane's taint keeps this one to the two Linux workers.
    await waitFor(c.store, 'Linux DaemonSet ready', () => dsStatus('linux-agent')?.numberReady === 2);
    expect(dsStatus('agent')!.desiredNumberScheduled).to.equal(0);
    expect(podsIn(c.store, NS, 'app=agent')).to.have.length(0);
  });

  it('breaks: *-controller-down leaves DaemonSets, Deployments and StatefulSets without status or pods', async () => {
    await c.stop();
    c = await startTestCluster(
      withOverrides(loadProfile('default'), { breaks: ['daemonset-controller-down', 'deployment-controller-down', 'statefulset-controller-down'] }),
    );
    createNamespace(c.store, NS);
    c.store.create('daemonsets.apps', daemonSet('agent', 'linux'));
    c.store.create('deployments.apps', deployment('web', 2));
    c.store.create('statefulsets.apps', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: NS },
      spec: {
        replicas: 1,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: structuredClone(WINDOWS_POD_SPEC) },
      },
    });
    // An unbroken controller (ReplicaSet) acts meanwhile: only the broken ones are silent.
    c.store.create('replicasets.apps', {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: { name: 'rs', namespace: NS },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'rs' } },
        template: { metadata: { labels: { app: 'rs' } }, spec: structuredClone(WINDOWS_POD_SPEC) },
      },
    });
    await waitFor(
      c.store,
      'the ReplicaSet observed',
      () => (c.store.get('replicasets.apps', NS, 'rs') as unknown as V1ReplicaSet).status?.observedGeneration === 1,
    );
    expect(dsStatus('agent')).to.equal(undefined);
    expect(getDeploy(c, 'web').status).to.equal(undefined);
    expect((c.store.get('statefulsets.apps', NS, 'db') as unknown as V1StatefulSet).status).to.equal(undefined);
    expect(replicaSets(c).map(r => r.metadata!.name)).to.deep.equal(['rs']);
    expect(podsIn(c.store, NS, 'app=agent').length + podsIn(c.store, NS, 'app=db').length).to.equal(0);
  });

  it('creates StatefulSet pods in order with stable names, hostname and subdomain', async () => {
    const order: string[] = [];
    const sub = c.store.onAny((bucket, e) => {
      if (bucket === 'pods' && e.type === 'ADDED' && e.object.metadata.namespace === NS) order.push(e.object.metadata.name!);
    });
    c.store.create('statefulsets.apps', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: NS },
      spec: {
        replicas: 3,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: structuredClone(WINDOWS_POD_SPEC) },
      },
    });
    await waitFor(c.store, 'StatefulSet ready', () => (c.store.get('statefulsets.apps', NS, 'db') as unknown as V1StatefulSet).status?.readyReplicas === 3);
    sub.stop();
    expect(order).to.deep.equal(['db-0', 'db-1', 'db-2']);
    for (const p of podsIn(c.store, NS, 'app=db')) {
      expect(p.spec!.hostname).to.equal(p.metadata!.name);
      expect(p.spec!.subdomain).to.equal('db');
      expect(p.metadata!.labels!['statefulset.kubernetes.io/pod-name']).to.equal(p.metadata!.name);
    }
    // A deleted member comes back under the same name.
    const uid = (c.store.get('pods', NS, 'db-1') as unknown as V1Pod).metadata!.uid;
    c.store.delete('pods', NS, 'db-1');
    await waitFor(c.store, 'db-1 recreated', () => {
      const p = c.store.tryGet('pods', NS, 'db-1') as unknown as V1Pod | undefined;
      return p && p.metadata!.uid !== uid && isReady(p);
    });
    c.store.mutate('statefulsets.apps', NS, 'db', o => {
      (o.spec as { replicas: number }).replicas = 1;
    });
    await waitFor(
      c.store,
      'scaled down to db-0',
      () =>
        podsIn(c.store, NS, 'app=db')
          .map(p => p.metadata!.name)
          .join() === 'db-0',
    );
  });

  it('gives StatefulSet pods their own claims and rolls a new template from the highest ordinal', async () => {
    c.store.create('statefulsets.apps', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: NS },
      spec: {
        replicas: 2,
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: structuredClone(WINDOWS_POD_SPEC) },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    });
    const sts = () => c.store.get('statefulsets.apps', NS, 'db') as unknown as V1StatefulSet;
    await waitFor(c.store, 'StatefulSet ready', () => sts().status?.readyReplicas === 2);
    expect(
      c.store
        .list('persistentvolumeclaims', { namespace: NS })
        .items.map(o => o.metadata.name)
        .sort(),
    ).to.deep.equal(['data-db-0', 'data-db-1']);
    expect(podsIn(c.store, NS, 'app=db')[0].spec!.volumes).to.deep.include({ name: 'data', persistentVolumeClaim: { claimName: 'data-db-0' } });
    const deletions: string[] = [];
    const sub = c.store.onAny((bucket, e) => {
      if (bucket === 'pods' && e.type === 'DELETED' && e.object.metadata.namespace === NS) deletions.push(e.object.metadata.name!);
    });
    c.store.mutate('statefulsets.apps', NS, 'db', o => {
      (o.spec as V1StatefulSet['spec'])!.template.spec!.containers[0].image += '-v2';
    });
    await waitFor(c.store, 'both pods on the new revision', () => {
      const cur = sts();
      const s = cur.status;
      return s?.observedGeneration === cur.metadata!.generation && s?.updatedReplicas === 2 && s.readyReplicas === 2 && s.currentRevision === s.updateRevision;
    });
    sub.stop();
    expect(deletions).to.deep.equal(['db-1', 'db-0']);
  });

  it('stops cleanly: nothing is reconciled after stop()', async () => {
    await c.stop();
    c.store.create('deployments.apps', deployment('late', 1));
    // The queues run on setImmediate: a few turns are enough for them to have acted.
    for (let i = 0; i < 5; i++) await new Promise(r => setImmediate(r));
    expect(replicaSets(c)).to.deep.equal([]);
  });
});
