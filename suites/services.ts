// [sig-windows] services: ClusterIP, NodePort, LoadBalancer, session affinity, client IP and
// destination preservation, hairpin. The checks live in lib/catalog/features/services.ts; this
// file only registers them with mocha (timeouts: the run's own).
import { check, featuresOf, testTitle } from '../lib/run/session.ts';

describe('[sig-windows] services', () => {
  for (const feature of featuresOf('services')) it(testTitle(feature), () => check(feature));
});
