// The exit code an error decides: a 403 from the RBAC preflight is its own error (exit 3), not
// an unreachable cluster.

import { expect } from 'chai';
import { ClusterUnreachableError, exitCodeOf, hasExitCode, MissingPermissionsError, UsageError } from '../../lib/errors.ts';

describe('errors', () => {
  it('gives exit 2 for usage, 3 for unreachable and for missing permissions, 1 otherwise', () => {
    expect([new UsageError('u'), new ClusterUnreachableError('c'), new MissingPermissionsError('m'), new Error('e')].map(exitCodeOf)).to.deep.equal([
      2, 3, 3, 1,
    ]);
  });
  it('does not read missing permissions as an unreachable cluster', () => {
    const e = new MissingPermissionsError('missing: create pods');
    expect(e).not.to.be.instanceOf(ClusterUnreachableError);
    expect(hasExitCode(e)).to.equal(true);
    expect(hasExitCode(new Error('x'))).to.equal(false);
  });
});
