// The harness's connections to the API server (lib/cluster/agent.ts): calls reuse kept-alive
// connections, and new connections (an exec upgrade, a watch, a raw GET) resume the TLS session,
// with a client certificate too. The client library alone made a new agent, a new connection
// and a full TLS handshake for every call.

import { expect } from 'chai';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { KubeConfig } from '@kubernetes/client-node';
import { generateClusterCerts } from '../../../sim/api/certs.ts';
import { makeClients } from '../../../lib/cluster/client.ts';
import { rawGet } from '../../../lib/cluster/rawGet.ts';

describe('API connections: one kept-alive agent per identity', function () {
  this.timeout(30_000);
  const certs = generateClusterCerts();
  let server: https.Server;
  let handshakes: { reused: boolean; cn?: string }[];
  let kc: KubeConfig;
  /** The server closes each connection after its answer: every call needs a new one. */
  let closeEach = false;

  before(async () => {
    server = https.createServer(
      { key: certs.serverKeyPem, cert: certs.serverCertPem, ca: certs.caPem, requestCert: true, rejectUnauthorized: false },
      (req, res) => {
        const sock = req.socket as TLSSocket;
        res.writeHead(200, {
          'Content-Type': 'application/json',
          'X-Client-CN': String(sock.getPeerCertificate()?.subject?.CN ?? ''),
          ...(closeEach ? { Connection: 'close' } : {}),
        });
        res.end(JSON.stringify({ apiVersion: 'v1', kind: 'NamespaceList', metadata: {}, items: [] }));
      },
    );
    server.keepAliveTimeout = 30_000;
    server.on('secureConnection', (s: TLSSocket) => handshakes.push({ reused: s.isSessionReused(), cn: String(s.getPeerCertificate()?.subject?.CN ?? '') }));
    await new Promise<void>(r => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `https://127.0.0.1:${port}`, caData: Buffer.from(certs.caPem).toString('base64'), skipTLSVerify: false }],
      users: [{ name: 'u', certData: Buffer.from(certs.clientCertPem).toString('base64'), keyData: Buffer.from(certs.clientKeyPem).toString('base64') }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u' }],
      currentContext: 'ctx',
    });
  });
  beforeEach(() => {
    handshakes = [];
    closeEach = false;
  });
  after(
    () =>
      new Promise<void>(r => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );

  it('sequential calls share one connection', async () => {
    const kube = makeClients(kc);
    for (let i = 0; i < 5; i++) await kube.core.listNamespace();
    expect(handshakes).to.have.length(1);
    expect(handshakes[0].cn).to.equal('wincheck-admin');
  });

  it('a new connection resumes the TLS session, and the client certificate still names the user', async () => {
    const kube = makeClients(kc);
    closeEach = true;
    await kube.core.listNamespace();
    await kube.core.listNamespace();
    // A raw GET (as exec and watch sockets) builds its own request on the same agent.
    const r = await rawGet(kube, '/api/v1/namespaces', { requestTimeoutMs: 5_000 });
    expect(r.status).to.equal(200);
    expect(handshakes.map(h => h.reused)).to.deep.equal([false, true, true]);
    expect(handshakes.map(h => h.cn)).to.deep.equal(['wincheck-admin', 'wincheck-admin', 'wincheck-admin']);
  });

  it('concurrent calls open connections that later calls reuse', async () => {
    const kube = makeClients(kc);
    await Promise.all(Array.from({ length: 4 }, () => kube.core.listNamespace()));
    const opened = handshakes.length;
    for (let i = 0; i < 8; i++) await kube.core.listNamespace();
    expect(opened).to.be.within(1, 4);
    expect(handshakes.length).to.equal(opened);
  });
});
