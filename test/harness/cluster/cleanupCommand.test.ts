// The `wincheck cleanup` line a run prints: every flag that chose the cluster and identity, quoted
// for a shell, so it works as printed.

import { expect } from 'chai';
import { cleanupCommand } from '../../../lib/cluster/cleanup.ts';

describe('cleanupCommand', () => {
  it('carries --kubeconfig, the context, --cluster, --user, --as, each --as-group and --as-uid, then --run-id', () => {
    const line = cleanupCommand(
      { context: 'prod' },
      { kubeconfig: '/k/config', cluster: 'c1', user: 'u1', as: 'system:serviceaccount:ci:wincheck', asGroups: ['g1', 'g2'], asUid: '42', runId: 'abc' },
    );
    expect(line).to.equal(
      'wincheck cleanup --kubeconfig /k/config --context prod --cluster c1 --user u1 --as system:serviceaccount:ci:wincheck --as-group g1 --as-group g2 --as-uid 42 --run-id abc',
    );
  });

  it('leaves out what was not given, and quotes what a shell would split', () => {
    expect(cleanupCommand({ context: '' }, {})).to.equal('wincheck cleanup');
    expect(cleanupCommand({ context: '' }, { context: 'given' })).to.equal('wincheck cleanup --context given');
    expect(cleanupCommand({ context: "it's mine" }, { kubeconfig: '/a b/config', as: 'Jane Doe' })).to.equal(
      `wincheck cleanup --kubeconfig '/a b/config' --context 'it'\\''s mine' --as 'Jane Doe'`,
    );
  });
});
