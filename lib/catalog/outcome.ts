// Expectation × observation → outcome. The one place the six words are decided.

import type { Expectation, Observation, Outcome } from './types.ts';

export interface OutcomeVerdict {
  outcome: Outcome;
  reason: string;
}

/** `observation` undefined: the probe did not run (expected n/a). `error`: the probe threw. */
export function outcomeOf(expectation: Expectation, observation?: Observation, error?: unknown): OutcomeVerdict {
  if (expectation.expected === 'n/a')
    return { outcome: 'n/a', reason: expectation.reason };
  if (error !== undefined)
    return { outcome: 'error', reason: `the check could not tell: ${messageOf(error)}` };
  if (!observation)
    return { outcome: 'error', reason: 'the probe returned no observation' };
  if (observation.notApplicable)
    return { outcome: 'n/a', reason: observation.notApplicable };
  if (expectation.expected === 'supported') {
    return observation.works
      ? { outcome: 'supported', reason: expectation.reason }
      : { outcome: 'regressed', reason: `documented to work (${expectation.reason}), but ${observation.summary}` };
  }
  return observation.works
    ? { outcome: 'lifted', reason: `documented as limited (${expectation.reason}), but it worked: ${observation.summary}` }
    : { outcome: 'limited', reason: expectation.reason };
}

/** Outcomes that make the run fail (exit 1). */
export function isFailing(outcome: Outcome, strict: boolean): boolean {
  return outcome === 'regressed' || outcome === 'error' || (strict && outcome === 'lifted');
}

export function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const parts = [error.message];
  let cause = (error as { cause?: unknown }).cause;
  while (cause instanceof Error) {
    if (!parts[parts.length - 1].includes(cause.message)) parts.push(cause.message);
    cause = (cause as { cause?: unknown }).cause;
  }
  return parts.join(': ');
}
