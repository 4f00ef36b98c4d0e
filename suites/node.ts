// [sig-windows] node: one test per selected feature of the "node" area. The checks live in
// lib/catalog/features/node.ts; this file only registers them with mocha (timeouts: the run's own).
import { check, featuresOf, testTitle } from '../lib/run/session.ts';

describe('[sig-windows] node', () => {
  for (const feature of featuresOf('node')) it(testTitle(feature), () => check(feature));
});
