// Cluster bootstrap, garbage collection, namespace deletion, volumes and autoscaling.

import { expect } from 'chai';
import type {
  CoreV1Event,
  V1ConfigMap,
  V1DaemonSet,
  V1Namespace,
  V1PersistentVolume,
  V1PersistentVolumeClaim,
  V1RuntimeClass,
  V1Service,
  V1StorageClass,
  V2HorizontalPodAutoscaler,
} from '@kubernetes/client-node';
import type { KubeObject } from '../../../sim/api/store.ts';
import { loadProfile, withOverrides } from '../../../sim/profiles/load.ts';
import { metricsSourceFromPodMetrics } from '../../../sim/controllers/index.ts';
import { parseQuantity } from '../../../util/quantity.ts';
import { createNamespace, podsIn, startTestCluster, waitFor, windowsPod, type TestCluster } from '../../support/simControllers.ts';

const NS = 'life';

function deployment(name: string, replicas: number, cpu = '500m'): KubeObject {
  const spec = windowsPod(name, NS, { containers: [{ name: 'c', image: 'iis', resources: { requests: { cpu } } }] }).spec;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec } },
  };
}

const names = (c: TestCluster, bucket: string, ns?: string) => c.store.list(bucket, { namespace: ns }).items.map(o => o.metadata.name);

describe('sim cluster bootstrap', () => {
  let c: TestCluster;
  afterEach(async () => {
    await c.stop();
  });

  it('creates the system namespaces, default ServiceAccounts and the kubernetes Service', async () => {
    c = await startTestCluster('default');
    expect(names(c, 'namespaces')).to.include.members(['default', 'kube-system', 'kube-public', 'kube-node-lease']);
    createNamespace(c.store, NS);
    await waitFor(c.store, 'default ServiceAccounts everywhere', () =>
      ['default', 'kube-system', 'kube-public', 'kube-node-lease', NS].every(ns => c.store.tryGet('serviceaccounts', ns, 'default')),
    );
    const k = c.store.get('services', 'default', 'kubernetes') as unknown as V1Service;
    expect(k.spec!.ports![0]).to.include({ name: 'https', port: 443 });
    expect(names(c, 'nodes')).to.have.length(5);
    expect(names(c, 'leases.coordination.k8s.io', 'kube-node-lease')).to.have.length(5);
  });

  it('installs the add-ons of the default profile in kube-system', async () => {
    c = await startTestCluster('default', { network: { dnsServer: () => ({ address: '127.96.0.53', port: 53 }) } });
    expect(names(c, 'daemonsets.apps', 'kube-system')).to.have.members(['kube-proxy', 'kube-proxy-windows', 'kube-flannel-ds', 'kube-flannel-ds-windows']);
    expect(names(c, 'deployments.apps', 'kube-system')).to.have.members(['coredns', 'metrics-server']);
    expect((c.store.get('services', 'kube-system', 'kube-dns') as unknown as V1Service).spec!.clusterIP).to.equal('127.96.0.53');
    const proxy = c.store.get('configmaps', 'kube-system', 'kube-proxy-windows') as unknown as V1ConfigMap;
    expect(proxy.data!['run-script.ps1']).to.include('--enable-dsr=true').and.include('--feature-gates=WinDSR=true');
    expect(proxy.data!['config.conf']).to.include('enableDSR: true');
    const flannel = c.store.get('configmaps', 'kube-system', 'kube-flannel-windows-cfg') as unknown as V1ConfigMap;
    expect(flannel.data!['network-mode']).to.equal('l2bridge');
    expect(JSON.parse(flannel.data!['net-conf.json']).Backend.Type).to.equal('host-gw');
    const win = c.store.get('daemonsets.apps', 'kube-system', 'kube-proxy-windows') as unknown as V1DaemonSet;
    expect(win.spec!.template.spec!.nodeSelector).to.deep.equal({ 'kubernetes.io/os': 'windows' });
    const hyperv = c.store.get('runtimeclasses.node.k8s.io', undefined, 'runhcs-wcow-hypervisor') as unknown as V1RuntimeClass;
    expect(hyperv.handler).to.equal('runhcs-wcow-hypervisor');
    expect(hyperv.scheduling!.nodeSelector).to.deep.equal({ 'kubernetes.io/os': 'windows' });
    expect(names(c, 'runtimeclasses.node.k8s.io')).to.include('windows-2022');
    const sc = c.store.get('storageclasses.storage.k8s.io', undefined, 'default') as unknown as V1StorageClass;
    expect(sc.metadata!.annotations).to.include({ 'storageclass.kubernetes.io/is-default-class': 'true' });
    expect(c.store.tryGet('apiservices.apiregistration.k8s.io', undefined, 'v1beta1.metrics.k8s.io')).to.not.equal(undefined);
    await waitFor(c.store, 'add-on DaemonSets on every node', () => {
      const s = (n: string) => (c.store.get('daemonsets.apps', 'kube-system', n) as unknown as V1DaemonSet).status;
      return s('kube-proxy')?.numberReady === 3 && s('kube-proxy-windows')?.numberReady === 2;
    });
  });

  it('installs nothing optional on the minimal profile, and an overlay CNI config on overlay', async () => {
    c = await startTestCluster('minimal');
    expect(names(c, 'deployments.apps', 'kube-system')).to.deep.equal(['coredns']);
    expect(names(c, 'runtimeclasses.node.k8s.io')).to.deep.equal([]);
    expect(names(c, 'storageclasses.storage.k8s.io')).to.deep.equal([]);
    expect((c.store.get('configmaps', 'kube-system', 'kube-proxy-windows') as unknown as V1ConfigMap).data!['run-script.ps1']).to.include('--enable-dsr=false');
    await c.stop();
    c = await startTestCluster('overlay');
    const flannel = c.store.get('configmaps', 'kube-system', 'kube-flannel-windows-cfg') as unknown as V1ConfigMap;
    expect(JSON.parse(flannel.data!['net-conf.json']).Backend).to.deep.equal({ Type: 'vxlan', VNI: 4096, Port: 4789 });
  });
});

describe('sim garbage collection and namespace deletion', () => {
  let c: TestCluster;
  afterEach(async () => {
    await c.stop();
  });

  it("deletes a Deployment's ReplicaSets and pods with it", async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
    c.store.create('deployments.apps', deployment('web', 2));
    await waitFor(c.store, 'two pods', () => podsIn(c.store, NS).length === 2);
    c.store.delete('deployments.apps', NS, 'web');
    await waitFor(c.store, 'ReplicaSets and pods gone', () => !names(c, 'replicasets.apps', NS).length && !podsIn(c.store, NS).length);
  });

  it('holds a foreground-deleted owner until its dependents are gone', async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
    c.store.create('deployments.apps', deployment('web', 1));
    await waitFor(c.store, 'a ReplicaSet', () => names(c, 'replicasets.apps', NS).length === 1);
    c.store.mutate('deployments.apps', NS, 'web', o => {
      o.metadata.finalizers = ['foregroundDeletion'];
    });
    c.store.delete('deployments.apps', NS, 'web');
    expect(c.store.get('deployments.apps', NS, 'web').metadata.deletionTimestamp).to.not.equal(undefined);
    await waitFor(
      c.store,
      'the Deployment gone after its ReplicaSet',
      () => !c.store.tryGet('deployments.apps', NS, 'web') && !names(c, 'replicasets.apps', NS).length,
    );
  });

  it('deletes everything in a Terminating namespace, waits for pods, then removes it', async () => {
    c = await startTestCluster('default');
    const ns = createNamespace(c.store, NS) as unknown as V1Namespace;
    expect(ns.spec!.finalizers).to.deep.equal(['kubernetes']);
    c.store.create('deployments.apps', deployment('web', 2));
    c.store.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: NS }, data: { a: 'b' } });
    c.store.create('services', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', namespace: NS },
      spec: { selector: { app: 'web' }, ports: [{ port: 80 }] },
    });
    await waitFor(c.store, 'two running pods', () => podsIn(c.store, NS).filter(p => p.status?.phase === 'Running').length === 2);
    c.store.delete('namespaces', undefined, NS);
    const terminating = c.store.get('namespaces', undefined, NS) as unknown as V1Namespace;
    expect(terminating.status!.phase).to.equal('Terminating');
    await waitFor(c.store, 'the namespace gone', () => !c.store.tryGet('namespaces', undefined, NS));
    for (const bucket of c.store.bucketNames()) if (c.store.isNamespaced(bucket)) expect(names(c, bucket, NS), bucket).to.deep.equal([]);
  });

  it("keeps a namespace Terminating while a pod's kubelet has not finished it", async () => {
    c = await startTestCluster('default', { kubelet: { deadNodes: new Set(['win-2022-1', 'win-2022-2']) } });
    createNamespace(c.store, NS);
    c.store.create('pods', windowsPod('stuck', NS));
    await waitFor(c.store, 'the pod bound', () => podsIn(c.store, NS)[0]?.spec?.nodeName);
    c.store.delete('namespaces', undefined, NS);
    await waitFor(c.store, 'the pod marked for deletion', () => podsIn(c.store, NS)[0]?.metadata?.deletionTimestamp);
    expect(c.store.tryGet('namespaces', undefined, NS)).to.not.equal(undefined);
    // The kubelet finishes it: the namespace follows.
    c.store.delete('pods', NS, 'stuck', { gracePeriodSeconds: 0 });
    await waitFor(c.store, 'the namespace gone', () => !c.store.tryGet('namespaces', undefined, NS));
  });

  const conditions = (c: TestCluster) =>
    Object.fromEntries(((c.store.tryGet('namespaces', undefined, NS) as unknown as V1Namespace | undefined)?.status?.conditions ?? []).map(x => [x.type, x]));

  it('says what holds a Terminating namespace in its conditions, as the namespace controller writes them', async () => {
    c = await startTestCluster('default', { kubelet: { deadNodes: new Set(['win-2022-1', 'win-2022-2']) } });
    createNamespace(c.store, NS);
    c.store.create('pods', windowsPod('stuck', NS));
    c.store.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: NS, finalizers: ['example.com/hold'] } });
    await waitFor(c.store, 'the pod bound', () => podsIn(c.store, NS)[0]?.spec?.nodeName);
    c.store.delete('namespaces', undefined, NS);
    const held = await waitFor(c.store, 'the content condition', () => conditions(c).NamespaceContentRemaining?.status === 'True' && conditions(c));
    expect(held.NamespaceContentRemaining.message).to.equal('Some resources are remaining: configmaps has 1 resource instances, pods has 1 resource instances');
    expect(held.NamespaceFinalizersRemaining).to.include({
      status: 'True',
      message: 'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances',
    });
    expect(held.NamespaceDeletionDiscoveryFailure).to.include({ status: 'False', reason: 'ResourcesDiscovered' });
    c.store.mutate('configmaps', NS, 'held', o => {
      o.metadata.finalizers = [];
    });
    c.store.delete('pods', NS, 'stuck', { gracePeriodSeconds: 0 });
    await waitFor(c.store, 'the namespace gone', () => !c.store.tryGet('namespaces', undefined, NS));
  });

  it('keeps a namespace Terminating for good while an APIService is unavailable (NamespaceDeletionDiscoveryFailure)', async () => {
    c = await startTestCluster({ ...loadProfile('default'), unavailableAPIServices: ['custom.metrics.k8s.io/v1beta1'] });
    createNamespace(c.store, NS);
    c.store.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: NS } });
    c.store.delete('namespaces', undefined, NS);
    const failed = await waitFor(c.store, 'the discovery condition', () => conditions(c).NamespaceDeletionDiscoveryFailure?.status === 'True' && conditions(c));
    expect(failed.NamespaceDeletionDiscoveryFailure.message).to.equal(
      'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: custom.metrics.k8s.io/v1beta1: the server is currently unable to handle the request',
    );
    // The content goes; the namespace stays.
    await waitFor(c.store, 'the content gone', () => !names(c, 'configmaps', NS).length && conditions(c).NamespaceContentRemaining?.status === 'False');
    expect(c.store.tryGet('namespaces', undefined, NS)?.metadata.deletionTimestamp).to.be.a('string');
  });
});

describe('sim volumes and autoscaling', () => {
  let c: TestCluster;
  afterEach(async () => {
    await c.stop();
  });

  const claim: KubeObject = {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: 'data', namespace: NS },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '5Gi' } } },
  };

  it('binds a claim of the default class to a provisioned volume', async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
    const created = c.store.create('persistentvolumeclaims', claim) as unknown as V1PersistentVolumeClaim;
    expect(created.spec!.storageClassName).to.equal('default');
    const pvc = await waitFor(c.store, 'a Bound claim', () => {
      const p = c.store.get('persistentvolumeclaims', NS, 'data') as unknown as V1PersistentVolumeClaim;
      return p.status?.phase === 'Bound' && p;
    });
    const pv = c.store.get('persistentvolumes', undefined, pvc.spec!.volumeName!) as unknown as V1PersistentVolume;
    expect(pv.status!.phase).to.equal('Bound');
    expect(pv.spec!.capacity).to.deep.equal({ storage: '5Gi' });
    expect(pv.spec!.claimRef).to.include({ name: 'data', namespace: NS });
    c.store.create('pods', windowsPod('user', NS, { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] }));
    await waitFor(c.store, 'the claim user bound to a node', () => podsIn(c.store, NS)[0]?.spec?.nodeName);
    c.store.delete('pods', NS, 'user', { gracePeriodSeconds: 0 });
    c.store.delete('persistentvolumeclaims', NS, 'data');
    await waitFor(c.store, 'the volume deleted with its claim', () => !c.store.tryGet('persistentvolumes', undefined, pvc.spec!.volumeName!));
  });

  it('protects a claim in use: kubernetes.io/pvc-protection stays until no pod uses it', async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
    const created = c.store.create('persistentvolumeclaims', claim);
    expect(created.metadata.finalizers).to.deep.equal(['kubernetes.io/pvc-protection']);
    c.store.create('pods', windowsPod('user', NS, { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] }));
    await waitFor(c.store, 'the claim user bound to a node', () => podsIn(c.store, NS)[0]?.spec?.nodeName);
    c.store.delete('persistentvolumeclaims', NS, 'data');
    const held = c.store.get('persistentvolumeclaims', NS, 'data');
    expect(held.metadata.deletionTimestamp).to.be.a('string');
    expect(held.metadata.finalizers).to.include('kubernetes.io/pvc-protection');
    c.store.delete('pods', NS, 'user', { gracePeriodSeconds: 0 });
    await waitFor(c.store, 'the claim gone once its pod is', () => !c.store.tryGet('persistentvolumeclaims', NS, 'data'));
  });

  it('breaks: pvc-bind leaves claims Pending', async () => {
    c = await startTestCluster(withOverrides(loadProfile('default'), { breaks: ['pvc-bind'] }));
    createNamespace(c.store, NS);
    c.store.create('persistentvolumeclaims', claim);
    await waitFor(c.store, 'the provisioner giving up', () => c.store.list('events', { namespace: NS }).items.some(e => e.reason === 'ExternalProvisioning'));
    expect((c.store.get('persistentvolumeclaims', NS, 'data') as unknown as V1PersistentVolumeClaim).status!.phase).to.equal('Pending');
    // A pod using the claim waits in the scheduler, as upstream's VolumeBinding plugin makes it.
    c.store.create('pods', windowsPod('user', NS, { volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'data' } }] }));
    const ev = await waitFor(c.store, 'FailedScheduling', () => c.store.list('events', { namespace: NS }).items.find(e => e.reason === 'FailedScheduling'));
    expect(ev.message).to.equal(
      '0/5 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.',
    );
  });

  function hpa(target: string): KubeObject {
    return {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: target, namespace: NS },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: target },
        minReplicas: 1,
        maxReplicas: 4,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
      },
    };
  }
  const hpaStatus = (c: TestCluster) => (c.store.get('horizontalpodautoscalers.autoscaling', NS, 'web') as unknown as V2HorizontalPodAutoscaler).status;

  it('reads pod CPU from the metrics source and scales the Deployment', async () => {
    // Every pod burns 0.5 core of its 0.5 core request: 100% against a 50% target.
    c = await startTestCluster('default', { metrics: () => ({ cpuCores: 0.5, memoryBytes: 64 * 2 ** 20 }) });
    createNamespace(c.store, NS);
    c.store.create('deployments.apps', deployment('web', 1));
    await waitFor(c.store, 'a running pod', () => podsIn(c.store, NS).some(p => p.status?.phase === 'Running'));
    c.store.create('horizontalpodautoscalers.autoscaling', hpa('web'));
    const status = await waitFor(c.store, 'HPA status with metrics', () => (hpaStatus(c)?.currentMetrics?.length ? hpaStatus(c) : undefined));
    expect(status.currentMetrics![0].resource).to.deep.include({ name: 'cpu' });
    expect(status.currentMetrics![0].resource!.current.averageUtilization).to.equal(100);
    expect(status.desiredReplicas).to.equal(2);
    expect(status.conditions!.find(x => x.type === 'ScalingActive')).to.include({ status: 'True', reason: 'ValidMetricFound' });
    await waitFor(c.store, 'the Deployment scaled to 2', () => (c.store.get('deployments.apps', NS, 'web').spec as { replicas: number }).replicas === 2);
  });

  it('takes a PodMetrics lister plugged in after start', async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
    c.store.create('deployments.apps', deployment('web', 1));
    await waitFor(c.store, 'a running pod', () => podsIn(c.store, NS).some(p => p.status?.phase === 'Running'));
    c.controllers.setMetricsSource(
      metricsSourceFromPodMetrics(
        async ns =>
          podsIn(c.store, ns).map(p => ({
            metadata: { name: p.metadata!.name, namespace: ns },
            containers: [
              { name: 'c', usage: { cpu: '125m', memory: '20Mi' } },
              { name: 'd', usage: { cpu: '125m', memory: '1Mi' } },
            ],
          })),
        q => parseQuantity(q) ?? 0,
      ),
    );
    c.store.create('horizontalpodautoscalers.autoscaling', hpa('web'));
    const status = await waitFor(c.store, 'HPA status with metrics', () => (hpaStatus(c)?.currentMetrics?.length ? hpaStatus(c) : undefined));
    expect(status.currentMetrics![0].resource!.current).to.deep.equal({ averageUtilization: 50, averageValue: '250m' });
    expect(status.desiredReplicas).to.equal(1);
  });

  it('reports FailedGetResourceMetric without metrics, and under breaks: hpa', async () => {
    c = await startTestCluster(withOverrides(loadProfile('default'), { breaks: ['hpa'] }), { metrics: () => ({ cpuCores: 0.5, memoryBytes: 1 }) });
    createNamespace(c.store, NS);
    c.store.create('deployments.apps', deployment('web', 1));
    await waitFor(c.store, 'a running pod', () => podsIn(c.store, NS).some(p => p.status?.phase === 'Running'));
    c.store.create('horizontalpodautoscalers.autoscaling', hpa('web'));
    const cond = await waitFor(c.store, 'ScalingActive False', () => hpaStatus(c)?.conditions?.find(x => x.type === 'ScalingActive' && x.status === 'False'));
    expect(cond.reason).to.equal('FailedGetResourceMetric');
    expect(cond.message).to.equal(
      'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
    );
    const ev = c.store
      .list('events', { namespace: NS })
      .items.map(e => e as unknown as CoreV1Event)
      .find(e => e.reason === 'FailedGetResourceMetric');
    expect(ev?.type).to.equal('Warning');
  });
});
