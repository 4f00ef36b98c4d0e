// Seeded fault injection: API errors and dropped watches at a
// reproducible rate, so reliability tests see the same failures on every run.

import type { Profile } from '../profiles/types.ts';

/** mulberry32: tiny, fast, good enough for reproducible coin flips. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Faults {
  /** A 429 or 500 to answer instead of serving, or undefined. */
  apiError(): 429 | 500 | undefined;
  /** Milliseconds after which to end a watch early, or undefined. */
  watchDropAfterMs(): number | undefined;
  /** Answer this watch (resumed from a resourceVersion) 410 Expired, as after a compaction. */
  watchExpired(): boolean;
  /** Reset this request's connection before answering (a restarting server, a proxy). */
  reset(): boolean;
  /** Milliseconds to hold this request before serving it (1–3 s), or undefined. */
  slowMs(): number | undefined;
}

export function createFaults(profile: Profile): Faults {
  const f = profile.faults ?? {};
  const rand = rng(f.seed ?? 1);
  const errRate = f.apiErrorRate ?? 0;
  const dropRate = f.dropWatchRate ?? 0;
  const resetRate = f.connResetRate ?? 0;
  const slowRate = f.slowRate ?? 0;
  const expiredRate = f.watchExpiredRate ?? 0;
  return {
    watchExpired() {
      return expiredRate > 0 && rand() < expiredRate;
    },
    reset() {
      return resetRate > 0 && rand() < resetRate;
    },
    slowMs() {
      if (slowRate <= 0 || rand() >= slowRate) return undefined;
      return 1000 + Math.floor(rand() * 2000);
    },
    apiError() {
      if (errRate <= 0 || rand() >= errRate) return undefined;
      return rand() < 0.5 ? 429 : 500;
    },
    watchDropAfterMs() {
      if (dropRate <= 0 || rand() >= dropRate) return undefined;
      return 500 + Math.floor(rand() * 4500);
    },
  };
}
