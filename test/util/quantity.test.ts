// The one Kubernetes quantity parser (k8s.io/apimachinery pkg/api/resource grammar).

import { expect } from 'chai';
import { parseQuantity } from '../../util/quantity.ts';

describe('util/quantity parseQuantity', () => {
  it('reads binary SI, decimal SI and decimal exponents in base units', () => {
    expect(['128Mi', '16363532Ki', '1Gi', '500m', '2', '1G', '1k', '100n', '5u', '1e3', '1E3', '1.5', '.5', '2.', '-1'].map(parseQuantity)).to.deep.equal([
      128 * 2 ** 20,
      16363532 * 1024,
      2 ** 30,
      0.5,
      2,
      1e9,
      1e3,
      100 * 1e-9,
      5 * 1e-6,
      1000,
      1000,
      1.5,
      0.5,
      2,
      -1,
    ]);
  });
  it('reads "1E" as an exa, not an exponent', () => {
    expect(parseQuantity('1E')).to.equal(1e18);
  });
  it('is undefined when absent or not a quantity (a suffix and an exponent together, two dots, no number)', () => {
    expect([undefined, null, '', 'x', '1e3k', '1.2.3', 'Mi', '1 Mi', '1mi'].map(parseQuantity)).to.deep.equal([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
  it('takes a number as it is', () => {
    expect(parseQuantity(4)).to.equal(4);
  });
});
