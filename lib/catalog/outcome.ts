// Expectation × observation → outcome. The one place the six words are decided, and the one
// place the rule is enforced: an outcome other than error or n/a rests on an observation of the
// named behaviour, and a limited or lifted one on a passing positive control from the same check.
// A control that ran and failed voids any verdict.
// A failure of the harness's own means (MeansError) is error, naming the means, unless the
// feature's subject is that means (then it is what was observed).

import { asMeansError, type Means } from '../cluster/meansError.ts';
import { errorText } from '../../util/errorText.ts';
import type { Expectation, Observation, Outcome } from './types.ts';

export interface OutcomeVerdict {
  outcome: Outcome;
  reason: string;
  /** The observation the verdict rests on (a subject's MeansError becomes one); for reports. */
  observation?: Observation;
}

/**
 * `observation` undefined: the probe did not run (expected n/a). `error`: the probe threw.
 * `subject`: the means the feature is about (Feature.subject).
 */
export function outcomeOf(expectation: Expectation, observation?: Observation, error?: unknown, subject: readonly Means[] = []): OutcomeVerdict {
  if (expectation.expected === 'n/a') return { outcome: 'n/a', reason: expectation.reason };
  if (error !== undefined) {
    const means = asMeansError(error);
    if (!means) return { outcome: 'error', reason: `the check could not tell: ${errorText(error)}` };
    // A MeansError made here from an ApiException carries the server's words; the error's own
    // chain otherwise.
    const text = inChain(error, means) ? errorText(error) : means.message;
    if (!subject.includes(means.means))
      return { outcome: 'error', reason: `the harness's own means failed (${means.means}), so the feature was not observed: ${text}` };
    // The feature is about this means: its failure is the observation.
    observation = { works: false, summary: `${means.means} failed: ${text}`, evidence: [text] };
  }
  if (!observation) return { outcome: 'error', reason: 'the probe returned no observation' };
  if (observation.notApplicable) return { outcome: 'n/a', reason: observation.notApplicable, observation };
  if (!observation.evidence.length && !observation.control?.evidence?.length)
    return { outcome: 'error', reason: `the probe recorded no evidence of the behaviour (it said: ${observation.summary})`, observation };
  const control = observation.control;
  // A control that ran and failed voids the observation, whatever was expected.
  if (control && !control.ok)
    return {
      outcome: 'error',
      reason: `the positive control failed (${control.summary}), so "${observation.summary}" says nothing about the feature`,
      observation,
    };
  // A broken promise outside the documented limitation is a regression whatever was expected.
  if (observation.contradicts) return { outcome: 'regressed', reason: `${observation.contradicts}, but ${observation.summary}`, observation };
  if (expectation.expected === 'supported') {
    return observation.works
      ? { outcome: 'supported', reason: expectation.reason, observation }
      : { outcome: 'regressed', reason: `documented to work (${expectation.reason}), but ${observation.summary}`, observation };
  }
  if (!control) return { outcome: 'error', reason: `no positive control ran, so "${observation.summary}" cannot tell limited from not observed`, observation };
  return observation.works
    ? { outcome: 'lifted', reason: `documented as limited (${expectation.reason}), but it worked: ${observation.summary}`, observation }
    : { outcome: 'limited', reason: expectation.reason, observation };
}

function inChain(error: unknown, e: Error): boolean {
  for (let c: unknown = error; c instanceof Error; c = (c as { cause?: unknown }).cause) if (c === e) return true;
  return false;
}

/** Outcomes that make the run fail (exit 1). */
export function isFailing(outcome: Outcome, strict: boolean): boolean {
  return outcome === 'regressed' || outcome === 'error' || (strict && outcome === 'lifted');
}
