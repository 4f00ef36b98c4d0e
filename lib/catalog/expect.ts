// Small builders for expectations, so feature files read like the Windows docs' support tables.

import type { Source } from '../facts/sources.ts';
import type { Expectation } from './types.ts';

export const supported = (reason: string, source: Source): Expectation => ({ expected: 'supported', reason, source });
export const limited = (reason: string, source: Source): Expectation => ({ expected: 'limited', reason, source });
export const notApplicable = (reason: string, source: Source): Expectation => ({ expected: 'n/a', reason, source });
