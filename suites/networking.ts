// [sig-windows] networking: pod addresses, pod ↔ pod paths, DNS, egress, ICMP and the Windows
// node's own paths. The checks live in lib/catalog/features/networking.ts; this file only
// registers them with mocha (timeouts: the run's own).
import { check, featuresOf, testTitle } from '../lib/run/session.ts';

describe('[sig-windows] networking', () => {
  for (const feature of featuresOf('networking')) it(testTitle(feature), () => check(feature));
});
