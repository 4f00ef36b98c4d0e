// TokenRequest tokens expire at expirationSeconds and are then refused; with the profile's
// tokenLifetimeScale the token clock runs faster, and expirationTimestamp says the real moment.

import { expect } from 'chai';
import { Store } from '../../../sim/api/store.ts';
import { ServiceAccountTokens, tokenClock } from '../../../sim/api/auth/tokens.ts';
import type { KubeObject } from '../../../sim/api/store.ts';

function withServiceAccount(): { store: Store; sa: { namespace: string; name: string; uid: string } } {
  const store = new Store();
  store.registerNamespaced('serviceaccounts');
  store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'test' } } as KubeObject);
  const created = store.create('serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'bot', namespace: 'test' } } as KubeObject);
  return { store, sa: { namespace: 'test', name: 'bot', uid: created.metadata.uid! } };
}

describe('sim ServiceAccount tokens', () => {
  it('expire at expirationSeconds: accepted just before, refused from then on', () => {
    let real = Date.parse('2026-12-02T20:00:00Z');
    const { store, sa } = withServiceAccount();
    const tokens = new ServiceAccountTokens(
      store,
      tokenClock(1, () => real),
    );
    const issued = tokens.issue(sa, 600, []);
    expect(issued.expirationTimestamp).to.equal('2026-12-02T20:10:00Z');
    real += 599_000;
    expect(tokens.verify(issued.token)?.name).to.equal('system:serviceaccount:test:bot');
    real += 1_000;
    expect(tokens.verify(issued.token)).to.equal(undefined);
  });

  it('with tokenLifetimeScale 1/600, a 600 s token lives one real second and says so', () => {
    let real = Date.parse('2026-12-02T20:00:00Z');
    const { store, sa } = withServiceAccount();
    const tokens = new ServiceAccountTokens(
      store,
      tokenClock(1 / 600, () => real),
    );
    real += 250;
    const issued = tokens.issue(sa, 600, []);
    // Issued at token-clock second 150 (250 ms real), expiring at 750 s: 1.25 s real.
    expect(issued.expirationTimestamp).to.equal('2026-12-02T20:00:01.250Z');
    real += 990;
    expect(tokens.verify(issued.token)).to.not.equal(undefined);
    real += 20;
    expect(tokens.verify(issued.token)).to.equal(undefined);
  });
});
