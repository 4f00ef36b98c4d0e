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

/** Features within this much of the longest designed wait share the head start. */
export const HEAD_MARGIN_MS = 1000;
/** The longest the other fixtures wait for the head's pods (a real Windows pod may take minutes; the rest must not). */
export const HEAD_START_MAX_MS = 2000;

/**
 * The critical path's head start: its fixtures are created first and the others only once its
 * pods are Ready, or after `boundMs` (half the slack the others have by design, at most
 * HEAD_START_MAX_MS). Created at once, some hundred pods start together and the longest check's
 * own pods and first commands queue behind them (about 0.4 s later Ready on the default sim, its
 * first commands 3 to 10 times slower). Undefined when nothing stands out (no slack to give).
 * Disruptive checks run after every routine one: they are never the head.
 */
export function headStart(features: Feature[], t: Timeouts, disruptive: (f: Feature) => boolean): { head: Feature[]; boundMs: number } | undefined {
  const waits = features
    .filter(f => !disruptive(f))
    .map(f => ({ f, w: Math.max(0, f.designedWaitMs?.(t) ?? 0) }))
    .sort((a, b) => b.w - a.w);
  const top = waits[0]?.w ?? 0;
  if (!top) return undefined;
  const head = waits.filter(x => x.w >= top - HEAD_MARGIN_MS);
  const next = waits.find(x => x.w < top - HEAD_MARGIN_MS)?.w ?? 0;
  const boundMs = Math.min(HEAD_START_MAX_MS, (head[head.length - 1].w - next) / 2);
  return boundMs >= 100 ? { head: head.map(x => x.f), boundMs } : undefined;
}
