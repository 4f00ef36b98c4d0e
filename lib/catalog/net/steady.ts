// Network paths have no state to watch, so they are polled the way upstream test/e2e/windows
// does (hybrid_network.go): a pass within a warm-up, then a steady period in which every poll
// passes. The periods come from the run's timeouts (netWarmup, netSteady, netPoll) so tests
// can shorten them; the poll interval is the only wait, always inside these bounded loops.

import { setTimeout as delay } from 'node:timers/promises';
import type { Timeouts } from '../../cluster/timeouts.ts';
import type { Evidence } from '../../probes/types.ts';
import type { CheckContext, EvidenceItem } from '../types.ts';

/** One try of a path: the op's verdict and what was run and came back. */
export interface Attempt {
  ok: boolean;
  detail: string;
  evidence: Evidence;
}

export interface PathTimings {
  warmupMs: number;
  /** The warm-up of a limitation's negative once its positive control answered (netConfirm). */
  confirmMs: number;
  steadyMs: number;
  pollMs: number;
  /** For curl --connect-timeout / nc -w (whole seconds, at least 1). */
  connectTimeoutSec: number;
}

export function timingsOf(t: Timeouts): PathTimings {
  return {
    warmupMs: t.netWarmup,
    confirmMs: Math.min(t.netConfirm, t.netWarmup),
    steadyMs: t.netSteady,
    pollMs: Math.max(1, t.netPoll),
    connectTimeoutSec: Math.max(1, Math.round(t.netConnect / 1000)),
  };
}

export interface PathVerdict {
  ok: boolean;
  /** One line: "passed after 2 tries (1.2 s), then 10 passes in 10 s" or why not. */
  detail: string;
  /** The first passing attempt (its stdout is what later checks read: /hostname, /clientip). */
  firstPass?: Attempt;
  /** The failing attempt that decided a failure (last warm-up try, or the steady failure). */
  failure?: Attempt;
  /** Every passing attempt's evidence stdout (e.g. the hostnames that answered). */
  outputs: string[];
  evidence: EvidenceItem[];
}

/**
 * A pass within the warm-up, then `steadyMs` of passes `pollMs` apart. The evidence keeps
 * the first pass and the deciding failure (not every poll), plus one summary line.
 */
export async function warmupThenSteady(
  ctx: Pick<CheckContext, 'signal' | 'options'>,
  what: string,
  attempt: () => Promise<Attempt>,
  timings = timingsOf(ctx.options.timeouts),
): Promise<PathVerdict> {
  const started = Date.now();
  const warmupEnd = started + timings.warmupMs;
  let tries = 0;
  let last: Attempt | undefined;
  for (;;) {
    tries++;
    last = await attempt();
    if (last.ok) break;
    if (Date.now() + timings.pollMs > warmupEnd) {
      const detail = `${what}: no pass within the ${secs(timings.warmupMs)} warm-up (${tries} tr${tries === 1 ? 'y' : 'ies'}); last: ${last.detail}`;
      return { ok: false, detail, failure: last, outputs: [], evidence: [detail, last.evidence] };
    }
    await delay(timings.pollMs, undefined, { signal: ctx.signal });
  }
  const firstPass = last;
  const passedAt = Date.now();
  const outputs = [firstPass.evidence.stdout];
  let passes = 1;
  while (Date.now() - passedAt < timings.steadyMs) {
    await delay(timings.pollMs, undefined, { signal: ctx.signal });
    const a = await attempt();
    if (!a.ok) {
      const detail = `${what}: passed after ${tries} tr${tries === 1 ? 'y' : 'ies'}, then failed ${secs(Date.now() - passedAt)} into the steady period (after ${passes} pass${passes === 1 ? '' : 'es'}): ${a.detail}`;
      return { ok: false, detail, firstPass, failure: a, outputs, evidence: [detail, firstPass.evidence, a.evidence] };
    }
    passes++;
    outputs.push(a.evidence.stdout);
  }
  const detail = `${what}: passed after ${tries} tr${tries === 1 ? 'y' : 'ies'} (${secs(passedAt - started)}), then ${passes} pass${passes === 1 ? '' : 'es'} over a ${secs(timings.steadyMs)} steady period`;
  return { ok: true, detail, firstPass, outputs, evidence: [detail, firstPass.evidence] };
}

/**
 * A positive control: a pass within the warm-up, no steady period. It ends at its first pass,
 * so a control that answers costs one try, not a fixed wait.
 */
export function controlPasses(
  ctx: Pick<CheckContext, 'signal' | 'options'>,
  what: string,
  attempt: () => Promise<Attempt>,
  timings = timingsOf(ctx.options.timeouts),
): Promise<PathVerdict> {
  return warmupThenSteady(ctx, what, attempt, { ...timings, steadyMs: 0 });
}

/**
 * A limitation's negative, bounded: when a positive control from the same client has answered,
 * the path under test gets `confirmMs` (a few polls) instead of the whole warm-up to pass, since
 * the client is up and its network warm. Without a passing control it gets the whole warm-up
 * (the failure may still be the client warming up). A pass goes on to the steady period, as
 * any path does: a lifted limitation must hold like a supported path.
 */
export function boundedNegative(
  ctx: Pick<CheckContext, 'signal' | 'options'>,
  what: string,
  attempt: () => Promise<Attempt>,
  controlPassed: boolean,
  timings = timingsOf(ctx.options.timeouts),
): Promise<PathVerdict> {
  return warmupThenSteady(ctx, what, attempt, controlPassed ? { ...timings, warmupMs: timings.confirmMs } : timings);
}

/** Feature.designedWaitMs of a check with a steady period (one, or several side by side). */
export const steadyPeriod = (t: Timeouts): number => t.netSteady;

/** Feature.designedWaitMs of a limitation's check: its negative's confirm window after the control. */
export const confirmWindow = (t: Timeouts): number => timingsOf(t).confirmMs;

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
}
