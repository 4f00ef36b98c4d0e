// [sig-windows] security: one test per selected feature of the "security" area. The checks live in
// lib/catalog/features/security.ts; this file only registers them with mocha (timeouts: the run's own).
import { check, featuresOf, testTitle } from '../lib/run/session.ts';

describe('[sig-windows] security', () => {
  for (const feature of featuresOf('security')) it(testTitle(feature), () => check(feature));
});
