// Outbound UDP in the network twin (exchangeUdp, what netexec /dial?protocol=udp and the
// PowerShell UdpClient use): a real datagram from the pod's address and the reply; the break udp
// drops UDP to Windows pods only (TCP still passes); NetworkPolicy ports match by protocol.

import { expect } from 'chai';
import { Cluster, fetchVia, makeProfile } from '../../support/simNetwork.ts';
import { netexecUdpReply } from '../../../sim/network/servers/netexec.ts';
import { NETPOL_BUCKET } from '../../../sim/network/netpol.ts';
import type { KubeObject } from '../../../sim/api/store.ts';
import type { Endpoint } from '../../../sim/network/types.ts';

async function udpServer(c: Cluster, name: string, address: string): Promise<void> {
  await c.net.listenUdp(address, 8081, (msg, rinfo, reply) => {
    const r = netexecUdpReply({ podName: name }, msg, rinfo);
    if (r) reply(r);
  });
}

async function ask(c: Cluster, from: Endpoint, host: string, msg = 'hostname', timeoutMs = 300): Promise<string> {
  try {
    return (await c.net.exchangeUdp({ from, host, port: 8081, payload: Buffer.from(msg), timeoutMs })).reply.toString();
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  }
}

describe('sim network: UDP from a pod or node', () => {
  let c: Cluster;
  afterEach(async () => {
    await c?.stop();
  });

  it('answers from the pod, sent from the client pod own address', async () => {
    c = await Cluster.start();
    const w = c.pod('default', 'w', 'win-2022');
    const l = c.pod('default', 'l', 'lin-1');
    await udpServer(c, 'w', w.address);
    expect(await ask(c, l.endpoint, w.address)).to.equal('w');
    expect((await ask(c, l.endpoint, w.address, 'clientip')).split(':')[0]).to.equal(l.address);
    expect(await ask(c, c.net.nodeEndpoint('win-2022'), w.address)).to.equal('w');
  });

  it('break udp: UDP to Windows pods is silence, TCP to them and UDP to Linux pods pass', async () => {
    c = await Cluster.start(makeProfile({ breaks: ['udp'] }));
    const w = await c.netexecPod('default', 'w', 'win-2022');
    const l = c.pod('default', 'l', 'lin-1');
    await udpServer(c, 'w', w.address);
    await udpServer(c, 'l', l.address);
    expect(await ask(c, l.endpoint, w.address)).to.equal('ETIMEDOUT');
    expect(await ask(c, c.net.nodeEndpoint('win-2022'), w.address)).to.equal('ETIMEDOUT');
    expect(await ask(c, w.endpoint, l.address)).to.equal('l');
    expect((await fetchVia(c.net, l.endpoint, w.address, 8080, '/hostname', 300)).body).to.equal('w');
  });

  it('NetworkPolicy (calico): a TCP-only allow leaves UDP denied; a UDP port rule allows it', async () => {
    c = await Cluster.start(makeProfile({ network: { mode: 'l2bridge', cni: 'calico' } }));
    const w = c.pod('default', 'w', 'win-2022', { app: 'w' });
    const l = c.pod('default', 'l', 'lin-1');
    await udpServer(c, 'w', w.address);
    const policy = (name: string, protocol: string) =>
      c.store.create(NETPOL_BUCKET, {
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name, namespace: 'default' },
        spec: { podSelector: { matchLabels: { app: 'w' } }, ingress: [{ ports: [{ protocol, port: 8081 }] }] },
      } as KubeObject);
    policy('tcp-only', 'TCP');
    expect(await ask(c, l.endpoint, w.address)).to.equal('ETIMEDOUT');
    policy('udp', 'UDP');
    expect(await ask(c, l.endpoint, w.address)).to.equal('w');
  });
});
