// [sig-windows] resources: one test per selected feature of the "resources" area. The checks live in
// lib/catalog/features/resources.ts; this file only registers them with mocha (timeouts: the run's own).
import { check, featuresOf, testTitle } from '../lib/run/session.ts';

describe('[sig-windows] resources', () => {
  for (const feature of featuresOf('resources')) it(testTitle(feature), () => check(feature));
});
