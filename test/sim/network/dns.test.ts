// Cluster DNS over real UDP/TCP, and the client resolvers (glibc search/ndots vs
// Windows dotted names as FQDNs).

import { expect } from 'chai';
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket, { type Answer, type StringAnswer } from 'dns-packet';
import { Cluster, makeProfile } from '../../support/simNetwork.ts';
import { toIPv4 } from '../../../sim/network/addresses.ts';

let dnsIP = '';

function udpQuery(name: string, type: 'A' | 'AAAA' = 'A', source = '127.0.0.1', timeoutMs = 1000): Promise<{ rcode: number; answers: string[] }> {
  return new Promise((resolve, reject) => {
    const s = dgram.createSocket('udp4');
    const t = setTimeout(() => {
      s.close();
      reject(new Error('timeout'));
    }, timeoutMs);
    s.on('message', m => {
      clearTimeout(t);
      s.close();
      const p = dnsPacket.decode(m);
      resolve({ rcode: (p.flags ?? 0) & 0xf, answers: (p.answers ?? []).filter((a: Answer): a is StringAnswer => a.type === type).map(a => a.data) });
    });
    s.bind({ address: source, port: 0 }, () => {
      s.send(dnsPacket.encode({ type: 'query', id: 7, flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name, class: 'IN' }] }), 53, dnsIP);
    });
  });
}

describe('sim network: DNS', () => {
  let c: Cluster;
  afterEach(async () => {
    await c?.stop();
  });

  async function withService(profile = makeProfile()) {
    c = await Cluster.start(profile);
    dnsIP = c.net.dnsServer().address;
    const svc = c.service('default', 'web', { ports: [{ port: 80 }] });
    const k = c.service('default', 'kubernetes', { ports: [{ port: 443 }] });
    return { ip: svc.spec!.clusterIP!, k: k.spec!.clusterIP! };
  }

  it('answers A records over real UDP, and NXDOMAIN otherwise', async () => {
    const { ip, k } = await withService();
    expect(await udpQuery('web.default.svc.cluster.local')).to.deep.equal({ rcode: 0, answers: [ip] });
    expect((await udpQuery('kubernetes.default.svc.cluster.local')).answers).to.deep.equal([k]);
    expect((await udpQuery('nope.default.svc.cluster.local')).rcode).to.equal(3);
    expect((await udpQuery('web.default.svc.cluster.local.default.svc.cluster.local')).rcode).to.equal(3);
    expect((await udpQuery('egress.wincheck.test')).answers).to.deep.equal([c.net.externalHost().address]);
    expect((await udpQuery('127-23-0-5.default.pod.cluster.local')).answers).to.deep.equal(['127.23.0.5']);
  });

  it('answers over TCP too', async () => {
    const { ip } = await withService();
    const q = dnsPacket.streamEncode({ type: 'query', id: 9, questions: [{ type: 'A', name: 'web.default.svc.cluster.local', class: 'IN' }] });
    const reply = await new Promise<Buffer>((resolve, reject) => {
      const s = net.connect({ host: dnsIP, port: 53 }, () => s.write(q));
      let buf = Buffer.alloc(0);
      s.on('data', d => {
        buf = Buffer.concat([buf, d]);
        if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0)) {
          s.destroy();
          resolve(buf);
        }
      });
      s.on('error', reject);
    });
    const p = dnsPacket.streamDecode(reply);
    expect((p.answers ?? []).map(a => (a as StringAnswer).data)).to.deep.equal([ip]);
  });

  it('serves headless and StatefulSet per-pod names', async () => {
    c = await Cluster.start();
    dnsIP = c.net.dnsServer().address;
    const p0 = c.pod('default', 'db-0', 'win-2022', { app: 'db' }, { hostname: 'db-0', subdomain: 'db' });
    const p1 = c.pod('default', 'db-1', 'lin-1', { app: 'db' }, { hostname: 'db-1', subdomain: 'db' });
    c.service('default', 'db', { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 80 }] });
    c.slice(
      'default',
      'db',
      [
        { ...p0, hostname: 'db-0' },
        { ...p1, hostname: 'db-1' },
      ],
      80,
    );
    expect((await udpQuery('db.default.svc.cluster.local')).answers.sort()).to.deep.equal([p0.address, p1.address].sort());
    expect((await udpQuery('db-1.db.default.svc.cluster.local')).answers).to.deep.equal([p1.address]);
    await c.stop();

    c = await Cluster.start(makeProfile({ breaks: ['statefulset-dns'] }));
    dnsIP = c.net.dnsServer().address;
    const q0 = c.pod('default', 'db-0', 'win-2022', { app: 'db' }, { hostname: 'db-0', subdomain: 'db' });
    c.service('default', 'db', { clusterIP: 'None', selector: { app: 'db' }, ports: [{ port: 80 }] });
    c.slice('default', 'db', [{ ...q0, hostname: 'db-0' }], 80);
    expect((await udpQuery('db-0.db.default.svc.cluster.local')).rcode).to.equal(3);
    expect((await udpQuery('db.default.svc.cluster.local')).answers).to.deep.equal([q0.address]);
  });

  it('Linux resolvers use the search list with ndots', async () => {
    const { ip } = await withService();
    const l = c.pod('default', 'l', 'lin-1');
    const dns = c.net.clusterDnsConfig('default');
    expect(await c.net.resolve(l.endpoint, 'web', dns)).to.deep.equal([ip]);
    expect(await c.net.resolve(l.endpoint, 'web.default', dns)).to.deep.equal([ip]);
    expect(await c.net.resolve(l.endpoint, 'web.default.svc', dns)).to.deep.equal([ip]);
    const err = await c.net.resolve(l.endpoint, 'nope', dns).catch(e => e);
    expect(err.code).to.equal('ENOTFOUND');
  });

  it('Windows resolvers treat dotted names as FQDNs (no search suffixes)', async () => {
    const { ip } = await withService();
    const w = c.pod('default', 'w', 'win-2022');
    const dns = c.net.clusterDnsConfig('default');
    expect(await c.net.resolve(w.endpoint, 'web', dns)).to.deep.equal([ip]);
    expect(await c.net.resolve(w.endpoint, 'web.default.svc.cluster.local', dns)).to.deep.equal([ip]);
    expect((await c.net.resolve(w.endpoint, 'web.default', dns).catch(e => e)).code).to.equal('ENOTFOUND');
    expect((await c.net.resolve(w.endpoint, 'kubernetes.default.svc', dns).catch(e => e)).code).to.equal('ENOTFOUND');
  });

  it('lifting dnsDottedName lets Windows resolve partial dotted names', async () => {
    const { ip } = await withService(makeProfile({ limitations: { dnsDottedName: false } }));
    const w = c.pod('default', 'w', 'win-2022');
    expect(await c.net.resolve(w.endpoint, 'web.default', c.net.clusterDnsConfig('default'))).to.deep.equal([ip]);
  });

  it("breaks: dns drops Windows pods' queries (timeout), Linux still resolves", async () => {
    const { ip } = await withService(makeProfile({ breaks: ['dns'] }));
    const w = c.pod('default', 'w', 'win-2022');
    const l = c.pod('default', 'l', 'lin-1');
    const dns = c.net.clusterDnsConfig('default');
    const t0 = Date.now();
    const err = await c.net.resolveWith(w.endpoint, 'web', dns, { timeoutMs: 300 }).catch(e => e);
    expect(err.code).to.equal('ETIMEDOUT');
    expect(Date.now() - t0).to.be.gte(280);
    expect(await c.net.resolve(l.endpoint, 'web', dns)).to.deep.equal([ip]);
  });

  it("the nodes' upstream resolver knows external names only", async () => {
    const { ip } = await withService();
    const node = c.net.nodeEndpoint('win-2022');
    const upstream = { nameservers: [c.net.upstreamDnsServer().address], searches: [], ndots: 1 };
    expect(await c.net.resolve(node, 'example.com', upstream)).to.deep.equal([c.net.externalHost().address]);
    expect((await c.net.resolve(node, 'web.default.svc.cluster.local', upstream).catch(e => e)).code).to.equal('ENOTFOUND');
    expect(await c.net.resolve(node, 'web.default.svc.cluster.local', c.net.clusterDnsConfig('default'))).to.deep.equal([ip]);
  });

  it("dnsPolicy None: queries go to the pod's own nameserver", async () => {
    await withService();
    const w = c.pod('default', 'w', 'win-2022');
    const err = await c.net
      .resolveWith(w.endpoint, 'web.default.svc.cluster.local', { nameservers: ['1.1.1.1'], searches: [], ndots: 1 }, { timeoutMs: 200 })
      .catch(e => e);
    expect(err.code).to.equal('ETIMEDOUT');
  });

  it('AAAA records for dual-stack services', async () => {
    c = await Cluster.start(makeProfile({ network: { mode: 'l2bridge', cni: 'flannel', dualStack: true } }));
    dnsIP = c.net.dnsServer().address;
    const svc = c.service('default', 'ds', { ipFamilyPolicy: 'PreferDualStack', ports: [{ port: 80 }] });
    expect(svc.spec?.clusterIPs).to.have.length(2);
    const aaaa = (await udpQuery('ds.default.svc.cluster.local', 'AAAA')).answers;
    expect(aaaa.map(toIPv4)).to.deep.equal([svc.spec!.clusterIP]);
    // The API shows a ULA address whose last 32 bits are the IPv4 twin (addresses.ts).
    expect(svc.spec!.clusterIPs![1]).to.match(/^fd00:10:96::[0-9a-f]+:[0-9a-f]+$/);
    expect(toIPv4(svc.spec!.clusterIPs![1])).to.equal(svc.spec!.clusterIP);
  });
});
