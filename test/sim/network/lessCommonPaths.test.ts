// Less common paths: UDP services, the kubernetes Service in front of the API server,
// dual-stack connections, pod address release.

import { expect } from 'chai';
import dgram from 'node:dgram';
import net from 'node:net';
import { Cluster, eventually, httpGet, makeProfile } from '../../support/simNetwork.ts';
import { netexecUdpReply } from '../../../sim/network/servers/netexec.ts';
import { iisServer } from '../../../sim/network/servers/iis.ts';

function udpAsk(source: string, host: string, port: number, msg: string, timeoutMs = 500): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket('udp4');
    const t = setTimeout(() => {
      s.close();
      reject(new Error('timeout'));
    }, timeoutMs);
    s.on('message', m => {
      clearTimeout(t);
      s.close();
      resolve(m.toString());
    });
    s.bind({ address: source, port: 0 }, () => s.send(msg, port, host));
  });
}

describe('sim network: more paths', () => {
  let c: Cluster;
  afterEach(async () => {
    await c?.stop();
  });

  it('proxies UDP through a ClusterIP (netexec UDP, the client address kept)', async () => {
    c = await Cluster.start();
    const b = c.pod('default', 'udp-1', 'win-2022', { app: 'u' });
    await c.net.listenUdp(b.address, 8081, (msg, rinfo, reply) => {
      const r = netexecUdpReply({ podName: 'udp-1' }, msg, rinfo);
      if (r) reply(r);
    });
    const svc = c.service('default', 'u', { selector: { app: 'u' }, ports: [{ port: 53, targetPort: 8081, protocol: 'UDP' }] });
    c.store.create('endpointslices.discovery.k8s.io', {
      metadata: { name: 'u-1', namespace: 'default', labels: { 'kubernetes.io/service-name': 'u' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [b.address], nodeName: 'win-2022', conditions: { ready: true } }],
      ports: [{ name: '', port: 8081, protocol: 'UDP' }],
    });
    const client = c.pod('default', 'client', 'lin-1');
    expect(await eventually(() => udpAsk(client.address, svc.spec!.clusterIP!, 53, 'hostname'))).to.equal('udp-1');
    expect((await udpAsk(client.address, svc.spec!.clusterIP!, 53, 'clientip')).split(':')[0]).to.equal(client.address);
  });

  it('the kubernetes Service forwards to the real API server', async () => {
    const api = net.createServer(s => s.end('HTTP/1.0 200 OK\r\n\r\napi'));
    await new Promise<void>(r => api.listen({ host: '127.0.0.1', port: 0 }, () => r()));
    const port = (api.address() as net.AddressInfo).port;
    try {
      c = await Cluster.start(undefined, { apiServer: { host: '127.0.0.1', port } });
      const k = c.service('default', 'kubernetes', { ports: [{ name: 'https', port: 443 }] });
      expect(k.spec?.clusterIP).to.equal(c.net.plan.kubernetesServiceIP());
      const w = c.pod('default', 'w', 'win-2022');
      const r = await eventually(async () =>
        httpGet(await c.net.connect({ from: w.endpoint, host: 'kubernetes.default.svc.cluster.local', port: 443, timeoutMs: 1000 }), '/'),
      );
      expect(r.body).to.equal('api');
    } finally {
      api.close();
    }
  });

  it('dual-stack: IPv6 (IPv4-mapped) service addresses connect; a 2019 node has none', async () => {
    c = await Cluster.start(makeProfile({ network: { mode: 'l2bridge', cni: 'flannel', dualStack: true } }));
    const b = c.pod('default', 'iis', 'win-2022', { app: 'iis' });
    await c.net.listen(b.address, 80, iisServer({ podName: 'iis' }));
    const svc = c.service('default', 'iis', { ipFamilyPolicy: 'RequireDualStack', selector: { app: 'iis' }, ports: [{ port: 80 }] });
    c.slice('default', 'iis', [b], 80);
    const v6 = svc.spec!.clusterIPs![1];
    const l = c.pod('default', 'l', 'lin-1');
    const r = await eventually(async () => httpGet(await c.net.connect({ from: l.endpoint, host: `[${v6}]`, port: 80, timeoutMs: 1000 }), '/'));
    expect(r.status).to.equal(200);
    expect(r.headers).to.include('Server: Microsoft-IIS/10.0');
    expect(r.body).to.include('IIS Windows Server');
    const old = c.pod('default', 'old', 'win-2019');
    expect(c.net.podIPs(old.address, 'win-2019')).to.deep.equal([old.address]);
    expect(c.net.podIPs(b.address, 'win-2022')).to.have.length(2);
    const err = await c.net.connect({ from: old.endpoint, host: v6, port: 80, timeoutMs: 300 }).catch(e => e);
    expect(err.code).to.equal('EHOSTUNREACH');
  });

  it('preserve-destination: the backend can learn the Service address it was sent to (Windows, DSR)', async () => {
    c = await Cluster.start(makeProfile({ network: { mode: 'l2bridge', cni: 'flannel', kubeProxyEnableDSR: true } }));
    const b = c.pod('default', 'pd', 'lin-1', { app: 'pd' });
    const seen: (string | undefined)[] = [];
    await c.net.listen(b.address, 80, s => {
      seen.push(c.net.originalDestination(s.remoteAddress ?? '', s.remotePort ?? 0));
      s.end();
    });
    const svc = c.store.create('services', {
      metadata: { name: 'pd', namespace: 'default', annotations: { 'preserve-destination': 'true' } },
      spec: { selector: { app: 'pd' }, ports: [{ port: 80 }] },
    });
    const ip = (svc.spec as { clusterIP: string }).clusterIP;
    c.slice('default', 'pd', [b], 80);
    const w = c.pod('default', 'w', 'win-2022');
    const l = c.pod('default', 'l', 'lin-1');
    const drain = async (from: typeof w) => {
      const s = await c.net.connect({ from: from.endpoint, host: ip, port: 80, timeoutMs: 1000 });
      await new Promise(r => s.on('close', r).resume());
    };
    await eventually(() => drain(w));
    await drain(l);
    expect(seen.slice(-2)).to.deep.equal([`${ip}:80`, undefined]);
  });

  it('releases a pod address when the pod leaves the store', async () => {
    c = await Cluster.start();
    const p = c.pod('default', 'gone', 'lin-1');
    expect(await c.net.ping(c.net.nodeEndpoint('lin-1'), p.address)).to.equal(true);
    c.store.delete('pods', 'default', 'gone', { gracePeriodSeconds: 0 });
    expect(await c.net.ping(c.net.nodeEndpoint('lin-1'), p.address)).to.equal(false);
  });
});
