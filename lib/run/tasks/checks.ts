// Task "checks": every check starts at once, the critical path first (what costs is bounded by
// the run's slots, not by checks in flight); each waits for its own fixtures. The results are
// kept in report order: by suite, each suite's features in catalog order.

import { suiteOf } from '../../catalog/registry.ts';
import type { Feature } from '../../catalog/types.ts';
import { scopedRun } from '../builds.ts';
import { checkFeature, notRunResult, stopReason } from '../checkFeature.ts';
import { CheckPool } from '../checkPool.ts';
import type { RunEvents, SelectedFeature } from '../events.ts';
import { byPriority } from '../priority.ts';
import type { RunState } from '../state.ts';
import type { Task } from '../taskRunner.ts';
import type { Deployment } from './deploy.ts';

export function checksTask(deployment: Deployment, events: RunEvents): Task<RunState> {
  return {
    title: 'checks',
    setup: async r => {
      const pool = new CheckPool(byPriority(r.features, r.config.timeouts), r.features.length, f => r.waves!.run(f, async () => {
        const scope = r.buildScopes?.get(f.id);
        const scoped = scopedRun(r, scope);
        await Promise.all(f.fixtures.map(s => deployment.settled(scoped.namespace, s.id)));
        // A per-build instance speaks for its build even when no node was named (n/a, error).
        return checkFeature(scoped, f).then(res => (scope && !res.windowsBuild ? { ...res, windowsBuild: scope.build } : res));
      }), f => notRunResult(f, stopReason(r.abort.signal)), r.abort.signal, {
        onBegin: f => events.onCheckBegin(selectedOf(f)),
        onEnd: (res, done) => events.onCheckEnd(res, { done, total: r.features.length }),
      });
      pool.start();
      r.results = await Promise.all(reportOrder(r.features).map(f => pool.result(f)));
    },
  };
}

/** Suites in the order their first feature appears; within a suite, catalog order. */
export function reportOrder(features: Feature[]): Feature[] {
  const suites = [...new Set(features.map(suiteOf))];
  return suites.flatMap(s => features.filter(f => suiteOf(f) === s));
}

export function selectedOf(f: Feature): SelectedFeature {
  return { id: f.id, suite: suiteOf(f), area: f.area, title: f.title };
}
