// The twin's socket table (netstat) with preserve-destination, the W → ClusterIP → L path
// under breaks: w2l, and dual-stack addressing (ULA IPv6 in the API, IPv4 on the sockets).

import { expect } from 'chai';
import net from 'node:net';
import type { V1Service } from '@kubernetes/client-node';
import { Cluster, eventually, fetchVia, httpGet, makeProfile } from '../../support/simNetwork.ts';
import { ipv6Of, podCIDRv6, toIPv4 } from '../../../sim/network/addresses.ts';

const DSR = { mode: 'l2bridge' as const, cni: 'flannel', kubeProxyEnableDSR: true };

async function annotatedLB(c: Cluster, preserve: boolean) {
  const b = await c.netexecPod('default', 'web-1', 'win-2022', 8080, { app: 'web' });
  c.store.create('services', {
    metadata: { name: 'web', namespace: 'default', annotations: { 'preserve-destination': String(preserve) } },
    spec: { type: 'LoadBalancer', externalTrafficPolicy: 'Local', selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
  } as never);
  c.slice('default', 'web', [b]);
  const ip = await eventually(() => {
    const ing = (c.store.get('services', 'default', 'web') as unknown as V1Service).status?.loadBalancer?.ingress?.[0]?.ip;
    if (!ing) throw new Error('no ingress yet');
    return ing;
  });
  await eventually(() => fetchVia(c.net, c.net.outsideClient(), ip, 80, '/healthz'));
  return { b, ip };
}

/** A connection to ip:80 from outside, held open while fn runs. */
async function holding<T>(ip: string, fn: (local: net.Socket) => Promise<T> | T): Promise<T> {
  const s = net.connect({ host: ip, port: 80 });
  await new Promise((res, rej) => {
    s.once('connect', res);
    s.once('error', rej);
  });
  try {
    return await eventually(() => fn(s));
  } finally {
    s.destroy();
  }
}

describe('sim network: socket table, proxied paths, dual-stack', () => {
  let c: Cluster;
  afterEach(async () => {
    await c?.stop();
  });

  it('socketTable: a pod server listens on the wildcard; an accepted DNATed connection shows the pod address', async () => {
    c = await Cluster.start(makeProfile({ network: DSR }), { provisionLoadBalancers: true });
    const { b, ip } = await annotatedLB(c, false);
    expect(c.net.socketTable(b.address)).to.deep.include({ proto: 'TCP', local: { address: '0.0.0.0', port: 8080 }, state: 'LISTENING' });
    await holding(ip, s => {
      const est = c.net.socketTable(b.address).filter(e => e.state === 'ESTABLISHED');
      expect(
        est.map(e => e.local),
        JSON.stringify(est),
      ).to.deep.include({ address: b.address, port: 8080 });
      // DSR with externalTrafficPolicy Local keeps the client address as the peer.
      expect(est.some(e => e.foreign?.address === s.localAddress)).to.equal(true);
    });
  });

  it("preserve-destination with DSR: the backend's local address is the LoadBalancer VIP; broken, it is the pod IP", async () => {
    c = await Cluster.start(makeProfile({ network: DSR }), { provisionLoadBalancers: true });
    const one = await annotatedLB(c, true);
    await holding(one.ip, () => {
      const locals = c.net
        .socketTable(one.b.address)
        .filter(e => e.state === 'ESTABLISHED')
        .map(e => e.local);
      expect(locals).to.deep.include({ address: one.ip, port: 8080 });
    });
    await c.stop();
    c = await Cluster.start(makeProfile({ network: DSR, breaks: ['preserve-destination'] }), { provisionLoadBalancers: true });
    const two = await annotatedLB(c, true);
    await holding(two.ip, () => {
      const locals = c.net
        .socketTable(two.b.address)
        .filter(e => e.state === 'ESTABLISHED')
        .map(e => e.local);
      expect(locals).to.deep.include({ address: two.b.address, port: 8080 });
      expect(locals.some(l => l.address === two.ip)).to.equal(false);
    });
  });

  it("socketTable lists a pod's own outbound connection, to the address it dialed", async () => {
    c = await Cluster.start();
    const srv = await c.netexecPod('default', 'srv', 'lin-1');
    const client = c.pod('default', 'client', 'win-2022');
    const s = await c.net.connect({ from: client.endpoint, host: srv.address, port: 8080, timeoutMs: 2000 });
    try {
      const mine = c.net.socketTable(client.address);
      expect(mine).to.deep.include({
        proto: 'TCP',
        local: { address: client.address, port: s.localPort },
        foreign: { address: srv.address, port: 8080 },
        state: 'ESTABLISHED',
      });
    } finally {
      s.destroy();
    }
  });

  it('breaks: w2l also drops W → ClusterIP → Linux backend (after DNAT), not the Windows backend; L clients unaffected', async () => {
    c = await Cluster.start(makeProfile({ breaks: ['w2l'] }));
    const w = await c.netexecPod('default', 'web-w', 'win-2022', 8080, { app: 'web' });
    const l = await c.netexecPod('default', 'web-l', 'lin-1', 8080, { app: 'web' });
    const svc = c.service('default', 'web', { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] });
    c.slice('default', 'web', [w, l]);
    const ip = svc.spec!.clusterIP!;
    const win = c.pod('default', 'wc', 'win-2019');
    const results: string[] = [];
    const probe = c.pod('default', 'probe', 'lin-1');
    await eventually(() => fetchVia(c.net, probe.endpoint, ip, 80, '/healthz'));
    for (let i = 0; i < 4; i++) {
      results.push(
        await fetchVia(c.net, win.endpoint, ip, 80, '/hostname', 300).then(
          r => r.body,
          (e: { code: string }) => e.code,
        ),
      );
    }
    expect(results.filter(r => r === 'web-w')).to.have.length(2);
    expect(results.filter(r => r === 'ETIMEDOUT')).to.have.length(2); // the Linux backend's turns
    const lin = c.pod('default', 'lc', 'lin-1');
    const names = new Set<string>();
    for (let i = 0; i < 4; i++) names.add((await fetchVia(c.net, lin.endpoint, ip, 80, '/hostname')).body);
    expect(names).to.deep.equal(new Set(['web-w', 'web-l']));
  });

  it('dual-stack addresses: ULA in the API, the IPv4 twin on the sockets', () => {
    expect(ipv6Of('127.21.0.3')).to.equal('fd00:10:244:1::7f15:3');
    expect(ipv6Of('127.96.0.10')).to.equal('fd00:10:96::7f60:a');
    expect(toIPv4('fd00:10:244:1::7f15:3')).to.equal('127.21.0.3');
    expect(toIPv4('[fd00:10:96::7f60:a]')).to.equal('127.96.0.10');
    expect(toIPv4('::ffff:127.21.0.3')).to.equal('127.21.0.3');
    expect(podCIDRv6(3)).to.equal('fd00:10:244:3::/64');
  });

  it('dual-stack: node podCIDRs of both families, pod IPs inside them, Service families as the API settles them', async () => {
    c = await Cluster.start(makeProfile({ network: { mode: 'l2bridge', cni: 'flannel', dualStack: true } }));
    const cidrs = c.net.plan.podCIDRs('win-2022');
    expect(cidrs).to.have.length(2);
    const p = c.pod('default', 'p', 'win-2022');
    const [, v6] = c.net.podIPs(p.address, 'win-2022');
    expect(v6.startsWith(cidrs[1].replace('::/64', '::'))).to.equal(true);
    expect(c.net.podIPs(p.address, 'win-2019'), '2019: IPv4 only (build < 19041)').to.have.length(1);
    const dual = c.service('default', 'd', { ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] });
    expect(dual.spec?.ipFamilies).to.deep.equal(['IPv4', 'IPv6']);
    const six = c.service('default', 's6', { ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv6'], ports: [{ port: 80 }] });
    expect(six.spec?.ipFamilies).to.deep.equal(['IPv6']);
    expect(six.spec?.clusterIPs).to.have.length(1);
    expect(six.spec?.clusterIP).to.match(/^fd00:10:96::/);
  });

  it('dual-stack: a Windows pod reaches a pod and a single-stack IPv6 Service over IPv6 (seed 003: single-family Services are supported)', async () => {
    c = await Cluster.start(makeProfile({ network: { mode: 'l2bridge', cni: 'flannel', dualStack: true } }));
    const srv = await c.netexecPod('default', 'srv', 'win-2022', 8080, { app: 'six' });
    const client = c.pod('default', 'client', 'win-2022');
    const [, v6] = c.net.podIPs(srv.address, 'win-2022');
    const s = await c.net.connect({ from: client.endpoint, host: `[${v6}]`, port: 8080, timeoutMs: 2000 });
    expect((await httpGet(s, '/hostname')).body).to.equal('srv');
    const six = c.service('default', 'six', {
      selector: { app: 'six' },
      ipFamilyPolicy: 'SingleStack',
      ipFamilies: ['IPv6'],
      ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }],
    });
    c.slice('default', 'six', [srv]);
    const r = await eventually(() => fetchVia(c.net, client.endpoint, six.spec!.clusterIP!, 80, '/hostname'));
    expect(r.body).to.equal('srv');
    // 2019 has no IPv6 (build < 19041): unreachable, as documented.
    const old = c.pod('default', 'old', 'win-2019');
    const err = await c.net.connect({ from: old.endpoint, host: v6, port: 8080, timeoutMs: 300 }).catch(e => e);
    expect(err.code).to.equal('EHOSTUNREACH');
  });

  it('a single-stack cluster rejects IPv6 families and RequireDualStack (422), as the API server does', async () => {
    c = await Cluster.start();
    const fail = (spec: V1Service['spec']) => {
      try {
        c.service('default', `x${Math.random().toString(36).slice(2, 7)}`, spec);
        return undefined;
      } catch (e) {
        return e as { code: number; message: string };
      }
    };
    const six = fail({ ipFamilies: ['IPv6'], ports: [{ port: 80 }] });
    expect(six?.code).to.equal(422);
    expect(six?.message).to.contain('spec.ipFamilies[0]: Invalid value: "IPv6": not configured on this cluster');
    expect(fail({ ipFamilyPolicy: 'RequireDualStack', ports: [{ port: 80 }] })?.code).to.equal(422);
    expect(fail({ ipFamilyPolicy: 'PreferDualStack', ports: [{ port: 80 }] })).to.equal(undefined);
  });
});
