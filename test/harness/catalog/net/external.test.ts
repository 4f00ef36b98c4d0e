// The client outside the cluster (this process → a node address), and the n/a of node paths
// when no node transport exists.

import { expect } from 'chai';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { nodeTransportOf } from '../../../../lib/catalog/net/pathChecks.ts';
import { httpGetFromHere, HARNESS_TRANSPORT } from '../../../../lib/catalog/net/external.ts';
import type { CheckContext } from '../../../../lib/catalog/types.ts';
import { winNode } from '../../../support/clusterFixture.ts';

describe('client outside the cluster', () => {
  let server: http.Server;
  let port: number;
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/clientip') res.end(`${req.socket.remoteAddress}:${req.socket.remotePort}`);
      else if (req.url === '/missing') {
        res.statusCode = 404;
        res.end('404 page not found\n');
      } else res.end('net-win-peer');
    });
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  after(() => server.close());

  it('GETs with its own evidence (transport, command, body) and the local address it left from', async () => {
    const a = await httpGetFromHere(`http://127.0.0.1:${port}/clientip`, 2_000);
    expect(a.ok).to.equal(true);
    expect(a.evidence).to.include({ transport: HARNESS_TRANSPORT, command: `GET http://127.0.0.1:${port}/clientip`, exitCode: 0 });
    expect(a.body.split(':')[0]).to.equal(a.localAddress);
  });

  it('fails on HTTP >= 400 like curl --fail, with the status in stderr', async () => {
    const a = await httpGetFromHere(`http://127.0.0.1:${port}/missing`, 2_000);
    expect(a.ok).to.equal(false);
    expect(a.evidence.stderr).to.equal('HTTP 404');
  });

  it('fails on a refused connection and on a connection that is never answered (dropped)', async () => {
    const refused = await httpGetFromHere('http://127.0.0.1:1/', 2_000);
    expect(refused.ok).to.equal(false);
    expect(refused.detail).to.contain('ECONNREFUSED');
    const silent = net.createServer(() => undefined);
    await new Promise<void>(r => silent.listen(0, '127.0.0.1', r));
    const started = Date.now();
    const hung = await httpGetFromHere(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, 300);
    silent.close();
    expect(hung.ok).to.equal(false);
    expect(hung.detail).to.contain('timeout');
    expect(Date.now() - started).to.be.lessThan(2_000);
  });
});

describe('node paths without node access', () => {
  it('are n/a with the reason when no node transport exists', async () => {
    const ctx = { nodeTransport: async () => undefined } as unknown as CheckContext;
    const r = await nodeTransportOf(ctx, winNode('win-1'));
    expect('observation' in r && r.observation.notApplicable).to.match(/no node transport for win-1/);
  });
});
