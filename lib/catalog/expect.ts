// Small builders for expectations, so feature files read like the the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) table.

import type { Expectation } from './types.ts';

export const supported = (reason: string, source: string): Expectation => ({ expected: 'supported', reason, source });
export const limited = (reason: string, source: string): Expectation => ({ expected: 'limited', reason, source });
export const notApplicable = (reason: string, source: string): Expectation => ({ expected: 'n/a', reason, source });
