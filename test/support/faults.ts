// Fault profiles shared by test/reliability and bench/faults.ts.

import type { Profile } from '../../sim/profiles/types.ts';

/** Deploy, watch, exec, port-forward, Services, node access and the kubelet's stats (rawGet): the paths faults can break. */
export const FAULT_FEATURES = [
  'sched.os-selector',
  'work.iis-pod',
  'work.deployment',
  'work.port-forward',
  'cfg.secret-env',
  'cfg.configmap-env',
  'net.w2l',
  'res.stats',
];

/** 5% API errors, dropped watches (a fifth of the resumed ones 410 Expired), some resets and slow answers, one node flapping NotReady. */
export const faulty =
  (seed: number, f: Partial<NonNullable<Profile['faults']>> = {}) =>
  (p: Profile) => {
    p.faults = {
      seed,
      apiErrorRate: 0.05,
      dropWatchRate: 0.05,
      watchExpiredRate: 0.2,
      connResetRate: 0.02,
      slowRate: 0.02,
      nodeFlap: { afterMs: 4_000, forMs: 3_000 },
      ...f,
    };
  };

/** What an error caused by a fault says (the harness must name it). */
export const FAULT_WORDS =
  /injected fault|too many requests|ECONNRESET|socket hang up|reset|no answer|HTTP 5\d\d|HTTP 429|HTTP-Code: (429|5\d\d)|server response: (429|5\d\d)/i;
