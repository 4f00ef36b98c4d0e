// Service proxies: ClusterIP round-robin, session affinity, NodePort (and the local
// NodePort limitation), LoadBalancer, externalTrafficPolicy Local, hairpin.

import { expect } from 'chai';
import type { V1Service } from '@kubernetes/client-node';
import { Cluster, eventually, fetchVia, makeProfile, type Pod } from '../../support/simNetwork.ts';

async function twoBackends(c: Cluster, type: 'ClusterIP' | 'NodePort' | 'LoadBalancer' = 'ClusterIP', extra: Partial<NonNullable<V1Service['spec']>> = {}) {
  const b1 = await c.netexecPod('default', 'web-1', 'win-2022', 8080, { app: 'web' });
  const b2 = await c.netexecPod('default', 'web-2', 'lin-1', 8080, { app: 'web' });
  const svc = c.service('default', 'web', { type, selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }], ...extra });
  c.slice('default', 'web', [b1, b2]);
  return { b1, b2, svc };
}

async function hostnames(c: Cluster, from: Pod['endpoint'], host: string, port: number, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push((await fetchVia(c.net, from, host, port, '/hostname')).body);
  return out;
}

describe('sim network: services', () => {
  let c: Cluster;
  afterEach(async () => {
    await c?.stop();
  });

  it('allocates clusterIP and nodePorts on create, and keeps them on update', async () => {
    c = await Cluster.start();
    const svc = c.service('default', 'np', { type: 'NodePort', ports: [{ port: 80 }] });
    expect(svc.spec?.clusterIP).to.match(/^127\.96\.\d+\.\d+$/);
    expect(svc.spec?.clusterIPs).to.deep.equal([svc.spec?.clusterIP]);
    const np = svc.spec?.ports?.[0].nodePort ?? 0;
    expect(np).to.be.within(30000, 32767);
    const k = c.service('default', 'kubernetes', { ports: [{ port: 443 }] });
    expect(k.spec?.clusterIP).to.equal(c.net.plan.kubernetesServiceIP());
    const upd = c.store.update('services', {
      ...svc,
      spec: { ...svc.spec, clusterIP: undefined, clusterIPs: undefined, ports: [{ port: 80 }] },
    } as never) as unknown as V1Service;
    expect(upd.spec?.clusterIP).to.equal(svc.spec?.clusterIP);
    expect(upd.spec?.ports?.[0].nodePort).to.equal(np);
    const dup = (() => {
      try {
        c.service('default', 'dup', { clusterIP: svc.spec?.clusterIP, ports: [{ port: 80 }] });
      } catch (e) {
        return e as { code: number };
      }
    })();
    expect(dup?.code).to.equal(422);
  });

  it('ClusterIP round-robins across two backends', async () => {
    c = await Cluster.start();
    const { svc } = await twoBackends(c);
    const client = c.pod('default', 'client', 'win-2019');
    const names = await eventually(() => hostnames(c, client.endpoint, svc.spec!.clusterIP!, 80, 4));
    expect(new Set(names)).to.deep.equal(new Set(['web-1', 'web-2']));
    expect(names[0]).to.not.equal(names[1]);
  });

  it('ClusterIP keeps the client pod address as the source the backend sees', async () => {
    c = await Cluster.start();
    const { svc } = await twoBackends(c);
    const client = c.pod('default', 'client', 'lin-1');
    const r = await eventually(() => fetchVia(c.net, client.endpoint, svc.spec!.clusterIP!, 80, '/clientip'));
    expect(r.body.split(':')[0]).to.equal(client.address);
  });

  it('sessionAffinity ClientIP is sticky (2022 node), ignored on a 2019 node, and kept when lifted', async () => {
    c = await Cluster.start();
    const { svc } = await twoBackends(c, 'ClusterIP', { sessionAffinity: 'ClientIP' });
    const on2022 = c.pod('default', 'c1', 'win-2022');
    const names = await eventually(() => hostnames(c, on2022.endpoint, svc.spec!.clusterIP!, 80, 5));
    expect(new Set(names).size).to.equal(1);
    const on2019 = c.pod('default', 'c2', 'win-2019');
    expect(new Set(await hostnames(c, on2019.endpoint, svc.spec!.clusterIP!, 80, 4)).size).to.equal(2);
    await c.stop();

    c = await Cluster.start(makeProfile({ limitations: { sessionAffinityOld: false } }));
    const lifted = await twoBackends(c, 'ClusterIP', { sessionAffinity: 'ClientIP' });
    const p = c.pod('default', 'c2', 'win-2019');
    expect(new Set(await eventually(() => hostnames(c, p.endpoint, lifted.svc.spec!.clusterIP!, 80, 4))).size).to.equal(1);
  });

  it('NodePort answers a client outside the cluster on every node, SNATed to the node', async () => {
    c = await Cluster.start();
    const { svc } = await twoBackends(c, 'NodePort');
    const np = svc.spec!.ports![0].nodePort!;
    const outside = c.net.outsideClient();
    for (const node of ['win-2022', 'lin-1']) {
      const r = await eventually(() => fetchVia(c.net, outside, c.net.nodeAddress(node), np, '/clientip'));
      expect(r.status).to.equal(200);
      expect(r.body.split(':')[0]).to.equal(c.net.nodeAddress(node));
    }
  });

  it('a Windows node cannot reach its own NodePort (timeout); a Linux node can', async () => {
    c = await Cluster.start();
    const { svc } = await twoBackends(c, 'NodePort');
    const np = svc.spec!.ports![0].nodePort!;
    const lin = c.net.nodeEndpoint('lin-1');
    await eventually(() => fetchVia(c.net, lin, c.net.nodeAddress('lin-1'), np, '/hostname'));
    const win = c.net.nodeEndpoint('win-2022');
    const t0 = Date.now();
    const err = await c.net.connect({ from: win, host: c.net.nodeAddress('win-2022'), port: np, timeoutMs: 300 }).catch(e => e);
    expect(err.code).to.equal('ETIMEDOUT');
    expect(Date.now() - t0).to.be.gte(280);
    // Another node's NodePort is fine from the Windows node.
    expect((await fetchVia(c.net, win, c.net.nodeAddress('lin-1'), np, '/healthz')).status).to.equal(200);
  });

  it('lifting localNodePort lets the Windows node reach its own NodePort', async () => {
    c = await Cluster.start(makeProfile({ limitations: { localNodePort: false } }));
    const { svc } = await twoBackends(c, 'NodePort');
    const win = c.net.nodeEndpoint('win-2022');
    const r = await eventually(() => fetchVia(c.net, win, c.net.nodeAddress('win-2022'), svc.spec!.ports![0].nodePort!, '/hostname', 300));
    expect(r.status).to.equal(200);
  });

  it('LoadBalancer gets an ingress address that serves', async () => {
    c = await Cluster.start(undefined, { provisionLoadBalancers: true });
    await twoBackends(c, 'LoadBalancer');
    const ip = await eventually(() => {
      const s = c.store.get('services', 'default', 'web') as unknown as V1Service;
      const ip = s.status?.loadBalancer?.ingress?.[0]?.ip;
      if (!ip) throw new Error('no ingress yet');
      return ip;
    });
    expect(ip).to.match(/^127\.200\.\d+\.\d+$/);
    const r = await eventually(() => fetchVia(c.net, c.net.outsideClient(), ip, 80, '/healthz'));
    expect(r.status).to.equal(200);
  });

  it('externalTrafficPolicy Local: node-local backends only; client IP kept on Linux, on Windows only with DSR', async () => {
    c = await Cluster.start();
    const { svc } = await twoBackends(c, 'NodePort', { externalTrafficPolicy: 'Local' });
    const np = svc.spec!.ports![0].nodePort!;
    const outside = c.net.outsideClient();
    const lin = await eventually(() => fetchVia(c.net, outside, c.net.nodeAddress('lin-1'), np, '/clientip'));
    expect(lin.body.split(':')[0]).to.equal(outside.address);
    const win = await fetchVia(c.net, outside, c.net.nodeAddress('win-2022'), np, '/clientip');
    expect(win.body.split(':')[0]).to.equal(c.net.nodeAddress('win-2022'));
    const err = await c.net.connect({ from: outside, host: c.net.nodeAddress('win-2019'), port: np, timeoutMs: 300 }).catch(e => e);
    expect(err.code).to.equal('ETIMEDOUT'); // no local endpoint: dropped
    await c.stop();

    c = await Cluster.start(makeProfile({ network: { mode: 'l2bridge', cni: 'flannel', kubeProxyEnableDSR: true } }));
    const dsr = await twoBackends(c, 'NodePort', { externalTrafficPolicy: 'Local' });
    const r = await eventually(() => fetchVia(c.net, outside, c.net.nodeAddress('win-2022'), dsr.svc.spec!.ports![0].nodePort!, '/clientip'));
    expect(r.body.split(':')[0]).to.equal(outside.address);
  });

  it('hairpin: a pod reaches itself through its own service; broken hairpin hangs', async () => {
    c = await Cluster.start();
    const self = await c.netexecPod('default', 'solo', 'win-2022', 8080, { app: 'solo' });
    const svc = c.service('default', 'solo', { selector: { app: 'solo' }, ports: [{ port: 80, targetPort: 8080 }] });
    c.slice('default', 'solo', [self]);
    expect((await eventually(() => fetchVia(c.net, self.endpoint, svc.spec!.clusterIP!, 80, '/hostname'))).body).to.equal('solo');
    await c.stop();

    c = await Cluster.start(makeProfile({ breaks: ['hairpin'] }));
    const s2 = await c.netexecPod('default', 'solo', 'win-2022', 8080, { app: 'solo' });
    const svc2 = c.service('default', 'solo', { selector: { app: 'solo' }, ports: [{ port: 80, targetPort: 8080 }] });
    c.slice('default', 'solo', [s2]);
    const other = c.pod('default', 'other', 'win-2022');
    await eventually(() => fetchVia(c.net, other.endpoint, svc2.spec!.clusterIP!, 80, '/hostname'));
    const err = await c.net.connect({ from: s2.endpoint, host: svc2.spec!.clusterIP!, port: 80, timeoutMs: 300 }).catch(e => e);
    expect(err.code).to.equal('ETIMEDOUT');
  });

  it('a Service without endpoints refuses; listeners close when the Service goes', async () => {
    c = await Cluster.start();
    const { svc } = await twoBackends(c);
    const empty = c.service('default', 'empty', { ports: [{ port: 80 }] });
    const client = c.pod('default', 'client', 'lin-1');
    await eventually(() => fetchVia(c.net, client.endpoint, svc.spec!.clusterIP!, 80, '/healthz'));
    const err = await c.net.connect({ from: client.endpoint, host: empty.spec!.clusterIP!, port: 80, timeoutMs: 500 }).catch(x => x);
    expect(err.code).to.equal('ECONNREFUSED');
    c.store.delete('services', 'default', 'web');
    await eventually(async () => {
      const e = await c.net.connect({ from: client.endpoint, host: svc.spec!.clusterIP!, port: 80, timeoutMs: 500 }).then(
        s => {
          s.destroy();
          return undefined;
        },
        x => x,
      );
      if (e?.code !== 'ECONNREFUSED') throw new Error('listener still there');
    });
  });
});
