// Checks cut short by Ctrl-C, SIGTERM or --timeout are marked interrupted: outcome error, but
// saying plainly that it is no finding about the feature.

import { expect } from 'chai';
import { notRunResult, stopReason } from '../../lib/run/checkFeature.ts';
import type { Feature } from '../../lib/catalog/types.ts';

const feature = { id: 'cfg.secret-env', area: 'config', title: 'Secret keys as env vars' } as unknown as Feature;

describe('interrupted checks', () => {
  it('are marked interrupted, not errors of the feature', () => {
    const sigint = new AbortController();
    sigint.abort(new Error('interrupted by SIGINT'));
    const r = notRunResult(feature, stopReason(sigint.signal));
    expect(r.interrupted).to.equal(true);
    expect(r.outcome).to.equal('error');
    expect(r.reason).to.equal('interrupted: the run was interrupted by SIGINT; the check was cut short, so this says nothing about the feature');
    const deadline = new AbortController();
    deadline.abort(new Error('run timed out'));
    expect(notRunResult(feature, stopReason(deadline.signal)).reason).to.match(/^interrupted: the run hit its --timeout;/);
  });

  it('a check never started for another reason is "not run", not interrupted', () => {
    const r = notRunResult(feature, 'deploy fixtures: failed to create Pod x');
    expect(r.interrupted).to.equal(undefined);
    expect(r.reason).to.equal('not run: deploy fixtures: failed to create Pod x');
  });
});
