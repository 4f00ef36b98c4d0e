// The warm-up then steady period (upstream hybrid_network.go): a pass within the warm-up,
// then every poll passes; evidence keeps the first pass and the deciding failure.

import { expect } from 'chai';
import { boundedNegative, controlPasses, warmupThenSteady, type Attempt, type PathTimings } from '../../../../lib/catalog/net/steady.ts';
import { defaultTimeouts } from '../../../../lib/cluster/timeouts.ts';

const T: PathTimings = { warmupMs: 200, confirmMs: 60, steadyMs: 100, pollMs: 20, connectTimeoutSec: 1 };
const ctx = { signal: new AbortController().signal, options: { timeouts: defaultTimeouts() } };

function script(results: boolean[]): { attempt: () => Promise<Attempt>; calls: () => number } {
  let i = 0;
  return {
    calls: () => i,
    attempt: async () => {
      const ok = results[Math.min(i, results.length - 1)];
      i++;
      return {
        ok,
        detail: ok ? `pass ${i}` : `fail ${i}`,
        evidence: { transport: 't', command: 'c', exitCode: ok ? 0 : 7, stdout: ok ? `host-${i}` : '', stderr: '', durationMs: 1 },
      };
    },
  };
}

describe('warm-up then steady period', () => {
  it('uses the upstream periods by default (30 s, 10 s, 1 s poll, 10 s connect)', () => {
    const t = defaultTimeouts();
    expect([t.netWarmup, t.netSteady, t.netPoll, t.netConnect]).to.deep.equal([30_000, 10_000, 1_000, 10_000]);
  });

  it('passes: first try, then every poll of the steady period', async () => {
    const s = script([true]);
    const v = await warmupThenSteady(ctx, 'path', s.attempt, T);
    expect(v.ok).to.equal(true);
    expect(s.calls()).to.be.within(3, 7);
    expect(v.outputs[0]).to.equal('host-1');
    expect(v.detail).to.match(/passed after 1 try .* passes over a 0\.1s steady period/);
  });

  it('tolerates failures during the warm-up', async () => {
    const s = script([false, false, true]);
    const v = await warmupThenSteady(ctx, 'path', s.attempt, T);
    expect(v.ok).to.equal(true);
    expect(v.detail).to.contain('passed after 3 tries');
  });

  it('fails when nothing passes within the warm-up, keeping the last try', async () => {
    const s = script([false]);
    const started = Date.now();
    const v = await warmupThenSteady(ctx, 'path', s.attempt, T);
    expect(v.ok).to.equal(false);
    expect(Date.now() - started).to.be.lessThan(400);
    expect(v.detail).to.match(/no pass within the 0\.2s warm-up/);
    expect(v.failure?.detail).to.equal(`fail ${s.calls()}`);
  });

  it('fails when a poll fails during the steady period', async () => {
    const s = script([true, true, false]);
    const v = await warmupThenSteady(ctx, 'path', s.attempt, T);
    expect(v.ok).to.equal(false);
    expect(v.detail).to.contain('then failed').and.contain('fail 3');
    expect(v.evidence).to.have.length(3);
  });

  it('stops when the check is aborted', async () => {
    const ac = new AbortController();
    const s = script([false]);
    setTimeout(() => ac.abort(), 30);
    let err: unknown;
    try {
      await warmupThenSteady({ ...ctx, signal: ac.signal }, 'path', s.attempt, { ...T, warmupMs: 10_000 });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(Error);
  });
});

describe('a limitation: positive control, then a bounded negative', () => {
  it('defaults: the negative gets 3 s once the control answered, against a 30 s warm-up', () => {
    const t = defaultTimeouts();
    expect([t.netConfirm, t.netWarmup]).to.deep.equal([3_000, 30_000]);
  });

  it('a control that answers costs one try: no steady period', async () => {
    const s = script([true]);
    const v = await controlPasses(ctx, 'control', s.attempt, T);
    expect(v.ok).to.equal(true);
    expect(s.calls()).to.equal(1);
  });

  it('after a passing control, a negative that keeps failing ends after confirmMs, not the warm-up', async () => {
    const s = script([false]);
    const v = await boundedNegative(ctx, 'negative', s.attempt, true, T);
    expect(v.ok).to.equal(false);
    // confirmMs 60 at 20 ms polls: 3 tries (the warm-up's 200 ms would allow about 10).
    expect(s.calls()).to.be.within(2, 4);
    expect(v.detail).to.match(/no pass within the 0\.1s warm-up/);
  });

  it('without a passing control, the negative gets the whole warm-up', async () => {
    const s = script([false]);
    const v = await boundedNegative(ctx, 'negative', s.attempt, false, T);
    expect(v.ok).to.equal(false);
    expect(s.calls()).to.be.greaterThan(5);
  });

  it('a negative that passes (lifted) must still hold through the steady period', async () => {
    const s = script([false, true, true, false]);
    const v = await boundedNegative(ctx, 'negative', s.attempt, true, T);
    expect(v.ok).to.equal(false);
    expect(v.detail).to.contain('then failed');
  });
});
