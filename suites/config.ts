// [sig-windows] config: one test per selected feature of the "config" area. The checks live in
// lib/catalog/features/config.ts; this file only registers them with mocha (timeouts: the run's own).
import { check, featuresOf, testTitle } from '../lib/run/session.ts';

describe('[sig-windows] config', () => {
  for (const feature of featuresOf('config')) it(testTitle(feature), () => check(feature));
});
