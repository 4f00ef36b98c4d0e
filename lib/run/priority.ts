// Critical path first. A full run ends when its longest check does, and the longest checks are
// the ones that wait longest by design (Feature.designedWaitMs: steady periods, idle rounds, a
// controller's sync period). Wherever the run queues, they go first: their fixtures are created
// first, their checks start first and their commands get exec slots first (util/limiter.ts), so they
// start about as early as they would alone. The others have slack to wait. Ties keep the
// catalog order; reports keep the catalog order regardless.

import type { Timeouts } from '../cluster/timeouts.ts';
import type { Feature } from '../catalog/types.ts';
import type { FixtureSpec } from '../fixtures/types.ts';

/** The features, longest designed wait first (a copy; ties in their given order). */
export function byPriority(features: Feature[], t: Timeouts): Feature[] {
  const wait = new Map(features.map(f => [f.id, Math.max(0, f.designedWaitMs?.(t) ?? 0)]));
  return features
    .map((f, i) => ({ f, i }))
    .sort((a, b) => wait.get(b.f.id)! - wait.get(a.f.id)! || a.i - b.i)
    .map(x => x.f);
}

/** Each feature's rank in that order (0 = first served). */
export function ranksOf(ordered: Feature[]): Map<string, number> {
  return new Map(ordered.map((f, i) => [f.id, i]));
}

/** Fixture specs ordered by the best rank among the features that use them (unused ones last, in their order). */
export function fixturesByPriority(specs: FixtureSpec[], ranks: Map<string, number>, features: Feature[]): FixtureSpec[] {
  const last = Number.MAX_SAFE_INTEGER;
  const best = new Map<string, number>();
  for (const f of features) {
    const r = ranks.get(f.id) ?? last;
    for (const s of f.fixtures) best.set(s.id, Math.min(best.get(s.id) ?? last, r));
  }
  return specs
    .map((s, i) => ({ s, i }))
    .sort((a, b) => (best.get(a.s.id) ?? last) - (best.get(b.s.id) ?? last) || a.i - b.i)
    .map(x => x.s);
}
