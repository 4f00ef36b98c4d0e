// [sig-windows] scheduling: one test per selected feature of the "scheduling" area. The checks live in
// lib/catalog/features/scheduling.ts; this file only registers them with mocha (timeouts: the run's own).
import { check, featuresOf, testTitle } from '../lib/run/session.ts';

describe('[sig-windows] scheduling', () => {
  for (const feature of featuresOf('scheduling')) it(testTitle(feature), () => check(feature));
});
