// The bridge between mocha suite files and the run: suites/*.ts call defineSuite(), which
// asks the current session which features to register and how to check them.

import { isFailing } from '../catalog/outcome.ts';
import { suiteOf } from '../catalog/registry.ts';
import type { CheckResult, Feature } from '../catalog/types.ts';

export interface Session {
  features: Feature[];
  strict: boolean;
  check(feature: Feature): Promise<CheckResult>;
  /** Filled by check(); the mocha reporter reads it on "test end". */
  results: Map<string, CheckResult>;
}

let current: Session | undefined;

export function setSession(s: Session | undefined): void {
  current = s;
}

export function currentSession(): Session {
  if (!current) throw new Error('wincheck suites are run by "wincheck run", not loaded directly');
  return current;
}

export function testTitle(f: Pick<Feature, 'id' | 'title'>): string {
  return `${f.id}: ${f.title}`;
}

export function featureIdOfTitle(title: string): string {
  return title.split(':')[0];
}

/** The body of every test: check the feature, fail the mocha test when the outcome fails the run. */
export async function checkAsTest(session: Session, f: Feature): Promise<void> {
  const r = await session.check(f);
  session.results.set(f.id, r);
  if (isFailing(r.outcome, session.strict)) throw new Error(`${r.outcome}: ${r.reason}`);
}

/** The selected features of a suite, for a suite file's `for (...) it(...)`. */
export function featuresOf(suite: string): Feature[] {
  return currentSession().features.filter(f => suiteOf(f) === suite);
}

/** A suite file's test body: check the feature through the current run. */
export function check(f: Feature): Promise<void> {
  return checkAsTest(currentSession(), f);
}
