// [sig-windows] storage: one test per selected feature of the "storage" area. The checks live in
// lib/catalog/features/storage.ts; this file only registers them with mocha (timeouts: the run's own).
import { check, featuresOf, testTitle } from '../lib/run/session.ts';

describe('[sig-windows] storage', () => {
  for (const feature of featuresOf('storage')) it(testTitle(feature), () => check(feature));
});
