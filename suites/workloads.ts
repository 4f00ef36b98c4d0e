// [sig-windows] workloads: one test per selected feature of the "workloads" area. The checks live in
// lib/catalog/features/workloads.ts; this file only registers them with mocha (timeouts: the run's own).
import { check, featuresOf, testTitle } from '../lib/run/session.ts';

describe('[sig-windows] workloads', () => {
  for (const feature of featuresOf('workloads')) it(testTitle(feature), () => check(feature));
});
