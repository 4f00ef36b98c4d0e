// Certificate serials must be valid DER integers (positive, minimal): '00' + random bytes made
// about 1 sim start in 55 fail with "asn1 encoding routines::illegal padding".

import { X509Certificate } from 'node:crypto';
import { expect } from 'chai';
import { certSerial, generateClusterCerts, rsaKeys } from '../../../sim/api/certs.ts';

describe('sim certificates', () => {
  it('serials are positive and have no superfluous leading zero, whatever the random bytes', () => {
    for (const first of [0x00, 0x01, 0x7f, 0x80, 0xff]) {
      const hex = certSerial(Buffer.from([first, ...Array(15).fill(0)]));
      const lead = parseInt(hex.slice(0, 2), 16);
      expect(lead, hex).to.be.within(0x01, 0x7f);
      expect(hex).to.have.length(32);
    }
  });

  it('2000 certificate sets all parse (OpenSSL) with the serial they were given', function () {
    this.timeout(120_000);
    // Small keys reused: signing with forge dominates; the serial is what varies.
    const keys = { ca: rsaKeys(512), server: rsaKeys(512), client: rsaKeys(512) };
    const serials = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const set = generateClusterCerts(keys);
      for (const pem of [set.caPem, set.serverCertPem, set.clientCertPem]) {
        const cert = new X509Certificate(pem);
        serials.add(cert.serialNumber);
      }
    }
    expect(serials.size).to.equal(6000);
  });

  it('the default set (fresh 2048-bit keys) chains to its CA', () => {
    const set = generateClusterCerts();
    const ca = new X509Certificate(set.caPem);
    expect(new X509Certificate(set.serverCertPem).checkIssued(ca)).to.equal(true);
    expect(new X509Certificate(set.clientCertPem).verify(ca.publicKey)).to.equal(true);
  });
});
