// Pod-to-pod, egress and ICMP paths of the network twin, over real sockets.

import { expect } from 'chai';
import type { Socket } from 'node:net';
import { Cluster, fetchVia, httpGet, makeProfile } from '../../support/simNetwork.ts';
import { NetError } from '../../../sim/network/types.ts';

describe('sim network: paths', () => {
  let c: Cluster;
  afterEach(async () => {
    await c?.stop();
  });

  it('gives each pod its own address in its node range, and nodes theirs', async () => {
    c = await Cluster.start();
    const a = c.pod('default', 'a', 'win-2022');
    const b = c.pod('default', 'b', 'win-2022');
    expect(c.net.nodeAddress('win-2022')).to.equal(`127.10.${c.net.plan.instance}.3`);
    expect(a.address).to.match(/^127\.23\.\d+\.\d+$/);
    expect(b.address).to.not.equal(a.address);
    expect(c.net.allocatePodIP('default', 'a', 'win-2022')).to.equal(a.address);
  });

  it('breaks: pod-ip leaves the dataplane apart: each Windows pod keeps its own address (the runtime shows the shared one)', async () => {
    c = await Cluster.start(makeProfile({ breaks: ['pod-ip'] }));
    const a = c.pod('default', 'a', 'win-2022');
    const b = c.pod('default', 'b', 'win-2022');
    expect(b.address).to.not.equal(a.address);
    // Both can serve the same port: no EADDRINUSE between pods.
    await c.net.listen(a.address, 8080, s => s.end('a'));
    await c.net.listen(b.address, 8080, s => s.end('b'));
  });

  it('carries a real connection whose remoteAddress is the client pod address', async () => {
    c = await Cluster.start();
    const client = c.pod('default', 'client', 'win-2019');
    const server = c.pod('default', 'server', 'lin-1');
    const seen = new Promise<string | undefined>(res => {
      void c.net.listen(server.address, 9000, (s: Socket) => {
        res(s.remoteAddress);
        s.end('hi');
      });
    });
    await new Promise(r => setImmediate(r));
    const s = await c.net.connect({ from: client.endpoint, host: server.address, port: 9000, timeoutMs: 2000 });
    expect(s.localAddress).to.equal(client.address);
    expect(await seen).to.equal(client.address);
    s.destroy();
  });

  it('netexec /clientip reports the real peer address', async () => {
    c = await Cluster.start();
    const client = c.pod('default', 'client', 'lin-1');
    const server = await c.netexecPod('default', 'srv', 'win-2022');
    const r = await fetchVia(c.net, client.endpoint, server.address, 8080, '/clientip');
    expect(r.status).to.equal(200);
    expect(r.body.split(':')[0]).to.equal(client.address);
    expect((await fetchVia(c.net, client.endpoint, server.address, 8080, '/hostname')).body).to.equal('srv');
  });

  it('refuses with a real RST when nothing listens', async () => {
    c = await Cluster.start();
    const client = c.pod('default', 'client', 'lin-1');
    const server = c.pod('default', 'srv', 'lin-1');
    const err = await c.net.connect({ from: client.endpoint, host: server.address, port: 9999, timeoutMs: 1000 }).catch(e => e);
    expect(err).to.be.instanceOf(NetError);
    expect(err.code).to.equal('ECONNREFUSED');
  });

  it('a broken w2w-cross-node path hangs until the caller deadline', async () => {
    c = await Cluster.start(makeProfile({ breaks: ['w2w-cross-node'] }));
    const a = c.pod('default', 'a', 'win-2019');
    const b = await c.netexecPod('default', 'b', 'win-2022');
    const same = await c.netexecPod('default', 'same', 'win-2019');
    const t0 = Date.now();
    const err = await c.net.connect({ from: a.endpoint, host: b.address, port: 8080, timeoutMs: 300 }).catch(e => e);
    expect(err.code).to.equal('ETIMEDOUT');
    expect(Date.now() - t0).to.be.gte(280);
    expect((await fetchVia(c.net, a.endpoint, same.address, 8080, '/hostname')).body).to.equal('same');
  });

  it('egress from a Windows pod reaches the external host through the node NAT', async () => {
    c = await Cluster.start();
    const w = c.pod('default', 'w', 'win-2022');
    const r = await fetchVia(c.net, w.endpoint, 'egress.wincheck.test', 80, '/clientip');
    expect(r.status).to.equal(200);
    expect(r.body.split(':')[0]).to.equal(c.net.nodeAddress('win-2022'));
    const s = await c.net.connect({ from: w.endpoint, host: 'example.com', port: 80, timeoutMs: 2000 });
    expect((await httpGet(s, '/')).status).to.equal(200);
  });

  it('ICMP from a Windows pod gets no reply outside the pod network; pod-to-pod ping works', async () => {
    c = await Cluster.start();
    const w = c.pod('default', 'w', 'win-2022');
    const l = c.pod('default', 'l', 'lin-1');
    expect(await c.net.ping(w.endpoint, c.net.externalHost().address)).to.equal(false);
    expect(await c.net.ping(w.endpoint, 'example.com')).to.equal(false);
    expect(await c.net.ping(w.endpoint, l.address)).to.equal(true);
    expect(await c.net.ping(l.endpoint, c.net.externalHost().address)).to.equal(true);
    expect(await c.net.ping(l.endpoint, '127.33.0.9')).to.equal(false); // nobody lives there
  });

  it('lifting icmpEgress lets Windows pods ping outside', async () => {
    c = await Cluster.start(makeProfile({ limitations: { icmpEgress: false } }));
    const w = c.pod('default', 'w', 'win-2022');
    expect(await c.net.ping(w.endpoint, c.net.externalHost().address)).to.equal(true);
  });
});
