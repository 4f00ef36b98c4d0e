// stop() leaves nothing behind: every address:port the twin bound can be bound again.

import { expect } from 'chai';
import net from 'node:net';
import dgram from 'node:dgram';
import { Cluster, eventually, fetchVia, makeProfile } from '../../support/simNetwork.ts';

function bindTcp(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen({ host, port, exclusive: true }, () => s.close(() => resolve()));
  });
}

function bindUdp(address: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket('udp4');
    s.once('error', reject);
    s.bind({ address, port, exclusive: true }, () => s.close(() => resolve()));
  });
}

describe('sim network: stop', () => {
  it('closes every listener and socket', async () => {
    const c = await Cluster.start();
    const pod = await c.netexecPod('default', 'web-1', 'win-2022', 8080, { app: 'web' });
    const svc = c.service('default', 'web', { type: 'NodePort', selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] });
    c.slice('default', 'web', [pod]);
    const client = c.pod('default', 'client', 'lin-1');
    await eventually(() => fetchVia(c.net, client.endpoint, svc.spec!.clusterIP!, 80, '/healthz'));
    // A connection left open across stop() must not keep anything alive.
    const open = await c.net.connect({ from: client.endpoint, host: svc.spec!.clusterIP!, port: 80, timeoutMs: 1000 });
    open.on('error', () => undefined);
    const np = svc.spec!.ports![0].nodePort!;
    const udp = await c.net.listenUdp(pod.address, 8081, () => undefined);
    expect(udp.address().port).to.equal(8081);
    await c.stop();

    const dns = c.net.dnsServer().address;
    await bindTcp(dns, 53);
    await bindUdp(dns, 53);
    await bindUdp(c.net.upstreamDnsServer().address, 53);
    await bindTcp(c.net.externalHost().address, 80);
    await bindTcp(svc.spec!.clusterIP!, 80);
    await bindTcp(c.net.nodeAddress('win-2022'), np);
    await bindTcp(c.net.nodeAddress('lin-1'), np);
    await bindTcp(c.net.nodeAddress('win-2022'), 22);
    await bindTcp(pod.address, 8080);
    await bindUdp(pod.address, 8081);
  });
});

describe('sim network: instances', () => {
  it('a second twin on the same machine takes the next address block', async () => {
    const a = await Cluster.start();
    try {
      const b = await Cluster.start();
      try {
        expect(b.net.plan.instance).to.not.equal(a.net.plan.instance);
        expect(b.net.dnsServer().address).to.not.equal(a.net.dnsServer().address);
        expect(b.net.nodeAddress('win-2022')).to.not.equal(a.net.nodeAddress('win-2022'));
        const pa = await a.netexecPod('default', 'p', 'win-2022');
        const pb = await b.netexecPod('default', 'p', 'win-2022');
        expect(pb.address).to.not.equal(pa.address);
        const r = await fetchVia(b.net, b.net.nodeEndpoint('lin-1'), pb.address, 8080, '/hostname');
        expect(r.body).to.equal('p');
      } finally {
        await b.stop();
      }
    } finally {
      await a.stop();
    }
  });
});

describe('sim network: stop during a hanging connect', () => {
  it('settles the connect (ETIMEDOUT) instead of leaving it pending', async () => {
    const c = await Cluster.start(makeProfile({ breaks: ['w2l'] }));
    const w = c.pod('default', 'w', 'win-2022');
    const l = c.pod('default', 'l', 'lin-1');
    const pending = c.net.connect({ from: w.endpoint, host: l.address, port: 80, timeoutMs: 60_000 }).catch(e => e);
    await c.stop();
    expect((await pending).code).to.equal('ETIMEDOUT');
  });
});
