import { expect } from 'chai';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import forge from 'node-forge';
import { run, winHost } from '../../../support/fakeShellHost.ts';

/** A self-signed certificate for "kubernetes", like the API server's to a pod without the CA. */
function selfSigned(): { key: string; cert: string } {
  const keys = forge.pki.rsa.generateKeyPair(1024);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 86400000);
  cert.validity.notAfter = new Date(Date.now() + 86400000);
  const attrs = [{ name: 'commonName', value: 'kubernetes' }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([{ name: 'subjectAltName', altNames: [{ type: 2, value: 'kubernetes' }] }]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { key: forge.pki.privateKeyToPem(keys.privateKey), cert: forge.pki.certificateToPem(cert) };
}

describe('sim shell: curl over TLS', () => {
  let srv: https.Server;
  let port = 0;
  before(async () => {
    srv = https.createServer(selfSigned(), (_req, res) => {
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end('{"kind":"Status"}');
    });
    await new Promise<void>(r => srv.listen(0, '127.0.0.1', () => r()));
    port = (srv.address() as AddressInfo).port;
  });
  after(async () => {
    srv.closeAllConnections();
    await new Promise(r => srv.close(r));
  });
  const host = () => winHost({}, { open: { '10.96.0.1:443': port }, names: { 'kubernetes.ns.svc.cluster.local': ['10.96.0.1'] } });

  it('curl.exe -k https://kubernetes:443 exits 0 (dns.go)', async () => {
    const r = await run(['curl.exe', '-k', 'https://kubernetes:443'], host());
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal('{"kind":"Status"}');
  });

  it('without -k an untrusted certificate is exit 60', async () => {
    const r = await run(['curl.exe', '-sS', 'https://kubernetes:443'], host());
    expect(r.code).to.equal(60);
    expect(r.stderr).to.match(/^curl: \(60\) schannel: SEC_E_UNTRUSTED_ROOT/);
  });
});
