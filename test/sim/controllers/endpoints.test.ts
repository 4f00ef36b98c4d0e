// Endpoints and EndpointSlices from Services' selectors and pod readiness; LoadBalancers.

import { expect } from 'chai';
import type { CoreV1Event, V1EndpointSlice, V1Endpoints, V1Pod, V1Service } from '@kubernetes/client-node';
import type { KubeObject } from '../../../sim/api/store.ts';
import { loadProfile } from '../../../sim/profiles/load.ts';
import { createNamespace, startTestCluster, waitFor, windowsPod, type TestCluster } from '../../support/simControllers.ts';

const NS = 'svc';

function service(name: string, selector: Record<string, string>, extra: Partial<V1Service['spec']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, namespace: NS, labels: { team: 'win' } },
    spec: { selector, ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }], ...extra },
  };
}

const slicesOf = (c: TestCluster, svc: string) =>
  c.store
    .list('endpointslices.discovery.k8s.io', { namespace: NS, labelSelector: `kubernetes.io/service-name=${svc}` })
    .items.map(o => o as unknown as V1EndpointSlice);
const endpointsOf = (c: TestCluster, svc: string) => c.store.tryGet('endpoints', NS, svc) as unknown as V1Endpoints | undefined;

describe('sim service controllers', () => {
  let c: TestCluster;
  afterEach(async () => {
    await c.stop();
  });

  it('lists ready pods in Endpoints and EndpointSlices, with named ports resolved and targetRefs', async () => {
    c = await startTestCluster('default', { kubelet: { notReady: p => p.metadata!.name === 'web-b' } });
    createNamespace(c.store, NS);
    const spec = { containers: [{ name: 'iis', image: 'iis', ports: [{ name: 'http', containerPort: 8080 }] }] };
    for (const name of ['web-a', 'web-b']) {
      const pod = windowsPod(name, NS, spec);
      pod.metadata.labels = { app: 'web' };
      c.store.create('pods', pod);
    }
    c.store.create('services', service('web', { app: 'web' }));
    const ep = await waitFor(c.store, 'Endpoints with one ready and one not-ready address', () => {
      const e = endpointsOf(c, 'web');
      return e?.subsets?.[0]?.addresses?.length === 1 && e.subsets[0].notReadyAddresses?.length === 1 && e;
    });
    const subset = ep.subsets![0];
    expect(subset.ports).to.deep.equal([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    const a = subset.addresses![0];
    const podA = c.store.get('pods', NS, 'web-a') as unknown as V1Pod;
    expect(a).to.deep.include({ ip: podA.status!.podIP, nodeName: podA.spec!.nodeName });
    expect(a.targetRef).to.include({ kind: 'Pod', name: 'web-a', namespace: NS, uid: podA.metadata!.uid });
    expect(subset.notReadyAddresses![0].targetRef!.name).to.equal('web-b');

    const [slice] = await waitFor(c.store, 'an EndpointSlice with two endpoints', () => {
      const s = slicesOf(c, 'web');
      return s.length === 1 && s[0].endpoints?.length === 2 && s;
    });
    expect(slice.addressType).to.equal('IPv4');
    expect(slice.metadata!.name).to.match(/^web-[a-z0-9]{5}$/);
    expect(slice.metadata!.labels).to.include({
      'kubernetes.io/service-name': 'web',
      'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      team: 'win',
    });
    expect(slice.metadata!.ownerReferences![0]).to.include({ kind: 'Service', name: 'web', controller: true });
    expect(slice.ports).to.deep.equal([{ name: 'http', port: 8080, protocol: 'TCP' }]);
    const byName = Object.fromEntries(slice.endpoints.map(e => [e.targetRef!.name, e]));
    expect(byName['web-a'].conditions).to.deep.equal({ ready: true, serving: true, terminating: false });
    expect(byName['web-b'].conditions).to.deep.equal({ ready: false, serving: false, terminating: false });
    expect(byName['web-a'].nodeName).to.equal(podA.spec!.nodeName);
  });

  it('follows pods going away and services being deleted', async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
    const pod = windowsPod('one', NS, { containers: [{ name: 'iis', image: 'iis', ports: [{ name: 'http', containerPort: 80 }] }] });
    c.store.create('pods', pod);
    c.store.create('services', service('one', { app: 'one' }));
    await waitFor(c.store, 'one address', () => endpointsOf(c, 'one')?.subsets?.[0]?.addresses?.length === 1);
    c.store.delete('pods', NS, 'one');
    await waitFor(c.store, 'no addresses', () => {
      const e = endpointsOf(c, 'one');
      return e && !e.subsets;
    });
    await waitFor(c.store, 'an empty slice', () => slicesOf(c, 'one').length === 1 && !slicesOf(c, 'one')[0].endpoints?.length);
    c.store.delete('services', NS, 'one');
    await waitFor(c.store, 'Endpoints and slices gone', () => !endpointsOf(c, 'one') && slicesOf(c, 'one').length === 0);
  });

  it('gives StatefulSet-style pods their hostname in the governing service', async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
    c.store.create('pods', windowsPod('db-0', NS, { hostname: 'db-0', subdomain: 'db', containers: [{ name: 'c', image: 'x' }] }));
    c.store.create('services', service('db', { app: 'db-0' }, { clusterIP: 'None', ports: [{ name: 'tcp', port: 1433 }] }));
    const ep = await waitFor(c.store, 'db endpoints', () => endpointsOf(c, 'db')?.subsets?.[0]?.addresses?.[0]);
    expect(ep.hostname).to.equal('db-0');
    const slice = await waitFor(c.store, 'db slice', () => slicesOf(c, 'db')[0]?.endpoints?.[0]);
    expect(slice.hostname).to.equal('db-0');
  });

  it('gives LoadBalancer services an ingress address when the add-on is there, and none without', async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
    c.store.create('services', service('lb', { app: 'x' }, { type: 'LoadBalancer' }));
    const ip = await waitFor(
      c.store,
      'an ingress IP',
      () => (c.store.get('services', NS, 'lb') as unknown as V1Service).status?.loadBalancer?.ingress?.[0]?.ip,
    );
    expect(ip).to.match(/^127\.0\.200\.\d+$/);
    await c.stop();

    c = await startTestCluster(loadProfile('minimal'), { network: { allocateLoadBalancerIP: () => '127.0.250.1' } });
    createNamespace(c.store, NS);
    c.store.create('services', service('lb', { app: 'x' }, { type: 'LoadBalancer' }));
    await waitFor(c.store, 'the Endpoints (controllers have run)', () => endpointsOf(c, 'lb'));
    expect((c.store.get('services', NS, 'lb') as unknown as V1Service).status?.loadBalancer?.ingress).to.equal(undefined);
  });

  it('holds a LoadBalancer Service with the cleanup finalizer, gives the address after the cloud latency, and lets go on deletion', async () => {
    const p = loadProfile('default');
    c = await startTestCluster({ ...p, latencies: { ...p.latencies, loadBalancerIngressMs: 150 } });
    createNamespace(c.store, NS);
    c.store.create('services', service('lb', { app: 'x' }, { type: 'LoadBalancer' }));
    const svc = () => c.store.tryGet('services', NS, 'lb') as unknown as V1Service | undefined;
    const reasons = () =>
      c.store
        .list('events', { namespace: NS })
        .items.map(e => e as unknown as CoreV1Event)
        .filter(e => e.involvedObject.name === 'lb')
        .map(e => e.reason);
    await waitFor(c.store, 'the cleanup finalizer', () => svc()?.metadata?.finalizers?.includes('service.kubernetes.io/load-balancer-cleanup'));
    // Ensuring, finalizer, no address yet: the cloud is still at it.
    expect(svc()!.status?.loadBalancer?.ingress).to.equal(undefined);
    expect(reasons()).to.include('EnsuringLoadBalancer');
    const started = Date.now();
    await waitFor(c.store, 'an ingress IP', () => svc()?.status?.loadBalancer?.ingress?.[0]?.ip);
    expect(Date.now() - started).to.be.greaterThan(50);
    expect(reasons()).to.include('EnsuredLoadBalancer');

    c.store.delete('services', NS, 'lb');
    await waitFor(c.store, 'the Service gone once the finalizer is removed', () => !svc());
    expect(reasons()).to.include.members(['DeletingLoadBalancer', 'DeletedLoadBalancer']);
  });

  it('removes the finalizer and the address when a Service stops being a LoadBalancer', async () => {
    c = await startTestCluster('default');
    createNamespace(c.store, NS);
    c.store.create('services', service('lb', { app: 'x' }, { type: 'LoadBalancer' }));
    const svc = () => c.store.get('services', NS, 'lb') as unknown as V1Service;
    await waitFor(c.store, 'an ingress IP', () => svc().status?.loadBalancer?.ingress?.[0]?.ip);
    c.store.mutate('services', NS, 'lb', o => void ((o.spec as { type: string }).type = 'ClusterIP'));
    await waitFor(c.store, 'no finalizer, no address', () => !svc().metadata?.finalizers?.length && !svc().status?.loadBalancer?.ingress);
  });

  it('takes the LoadBalancer address from the network twin when it offers one', async () => {
    c = await startTestCluster('default', { network: { allocateLoadBalancerIP: (ns, name) => (ns === NS && name === 'lb' ? '127.0.250.7' : '127.0.250.9') } });
    createNamespace(c.store, NS);
    c.store.create('services', service('lb', { app: 'x' }, { type: 'LoadBalancer' }));
    const ip = await waitFor(
      c.store,
      'an ingress IP',
      () => (c.store.get('services', NS, 'lb') as unknown as V1Service).status?.loadBalancer?.ingress?.[0]?.ip,
    );
    expect(ip).to.equal('127.0.250.7');
  });
});
