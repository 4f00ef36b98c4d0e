// TLS material for the simulated API server: a CA, a serving certificate for
// 127.0.0.1/localhost and an admin client certificate (group system:masters), so
// kubeconfigs can use either a bearer token or client-certificate auth as on real clusters.

import { generateKeyPairSync, randomBytes } from 'node:crypto';
import forge from 'node-forge';

export interface ClusterCerts {
  caPem: string;
  caKeyPem: string;
  serverCertPem: string;
  serverKeyPem: string;
  clientCertPem: string;
  clientKeyPem: string;
}

export const ADMIN_USER = 'wincheck-admin';
export const ADMIN_GROUP = 'system:masters';

export interface KeyPair {
  pub: forge.pki.rsa.PublicKey;
  priv: forge.pki.rsa.PrivateKey;
  privPem: string;
}

// RSA keys from node:crypto (native, fast) rather than forge's pure-JS generator.
export function rsaKeys(modulusLength = 2048): KeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength });
  const privPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const pubPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  return {
    pub: forge.pki.publicKeyFromPem(pubPem) as forge.pki.rsa.PublicKey,
    priv: forge.pki.privateKeyFromPem(privPem) as forge.pki.rsa.PrivateKey,
    privPem,
  };
}

function newCert(pub: forge.pki.PublicKey, subject: forge.pki.CertificateField[], issuer: forge.pki.CertificateField[], days: number): forge.pki.Certificate {
  const c = forge.pki.createCertificate();
  c.publicKey = pub;
  c.serialNumber = certSerial();
  c.validity.notBefore = new Date(Date.now() - 60_000);
  c.validity.notAfter = new Date(Date.now() + days * 86400_000);
  c.setSubject(subject);
  c.setIssuer(issuer);
  return c;
}

/**
 * A random 16-byte serial, hex, that DER encodes as is (forge writes the bytes unchanged): positive
 * (top bit clear) and minimal (no leading zero byte). '00' + random bytes was illegal padding
 * whenever the next byte was below 0x80, about 1 start in 55 (RFC 5280 4.1.2.2, X.690 8.3.2).
 */
export function certSerial(bytes: Buffer = randomBytes(16)): string {
  const b = Buffer.from(bytes);
  b[0] = b[0] & 0x7f || 0x01;
  return b.toString('hex');
}

/**
 * keys: reuse key pairs (tests that generate thousands of sets); fresh ones by default. caName: the
 * CA's CN (two CAs in one trust bundle need distinct names: issuers are looked up by name).
 */
export function generateClusterCerts(keys?: { ca: KeyPair; server: KeyPair; client: KeyPair }, caName = 'wincheck-sim-ca'): ClusterCerts {
  const ca = keys?.ca ?? rsaKeys();
  const caSubject = [{ name: 'commonName', value: caName }];
  const caCert = newCert(ca.pub, caSubject, caSubject, 3650);
  caCert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  caCert.sign(ca.priv, forge.md.sha256.create());

  const srv = keys?.server ?? rsaKeys();
  const srvCert = newCert(srv.pub, [{ name: 'commonName', value: 'kube-apiserver' }], caSubject, 365);
  srvCert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 2, value: 'localhost' },
        { type: 2, value: 'kubernetes' },
        { type: 2, value: 'kubernetes.default' },
        { type: 2, value: 'kubernetes.default.svc' },
        { type: 7, ip: '127.0.0.1' },
      ],
    },
  ]);
  srvCert.sign(ca.priv, forge.md.sha256.create());

  const cli = keys?.client ?? rsaKeys();
  const cliCert = newCert(
    cli.pub,
    [
      { name: 'commonName', value: ADMIN_USER },
      { name: 'organizationName', value: ADMIN_GROUP },
    ],
    caSubject,
    365,
  );
  cliCert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', clientAuth: true },
  ]);
  cliCert.sign(ca.priv, forge.md.sha256.create());

  return {
    caPem: forge.pki.certificateToPem(caCert),
    caKeyPem: ca.privPem,
    serverCertPem: forge.pki.certificateToPem(srvCert),
    serverKeyPem: srv.privPem,
    clientCertPem: forge.pki.certificateToPem(cliCert),
    clientKeyPem: cli.privPem,
  };
}

export interface ClientCertificate {
  certPem: string;
  keyPem: string;
}

/**
 * A client certificate signed by the cluster CA, as kube-apiserver's x509 authenticator reads it
 * (https://kubernetes.io/docs/reference/access-authn-authz/authentication/#x509-client-certificates):
 * the subject's CN is the user name, each O one of its groups.
 */
export function issueClientCertificate(ca: Pick<ClusterCerts, 'caPem' | 'caKeyPem'>, user: string, groups: string[] = [], days = 365): ClientCertificate {
  const caCert = forge.pki.certificateFromPem(ca.caPem);
  const caKey = forge.pki.privateKeyFromPem(ca.caKeyPem);
  const keys = rsaKeys();
  const cert = newCert(
    keys.pub,
    [{ name: 'commonName', value: user }, ...groups.map(g => ({ name: 'organizationName', value: g }))],
    caCert.subject.attributes as forge.pki.CertificateField[],
    days,
  );
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', clientAuth: true },
  ]);
  cert.sign(caKey, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem: keys.privPem };
}
