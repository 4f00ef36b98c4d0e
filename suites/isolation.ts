// [sig-windows] isolation: one test per selected feature of the "isolation" area. The checks live in
// lib/catalog/features/isolation.ts; this file only registers them with mocha (timeouts: the run's own).
import { check, featuresOf, testTitle } from '../lib/run/session.ts';

describe('[sig-windows] isolation', () => {
  for (const feature of featuresOf('isolation')) it(testTitle(feature), () => check(feature));
});
