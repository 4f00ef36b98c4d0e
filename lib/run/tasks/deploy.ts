// Task "deploy fixtures": every selected feature's fixtures, the critical path's first, in waves
// that fit the nodes' capacity (lib/run/waves.ts), after one pre-pull phase (unless --no-prepull).
// Not awaited: each check starts once its own fixtures are created, not after all of them.

import type { RenderedFixture } from '../../fixtures/types.ts';
import { deployPlans } from '../builds.ts';
import { prepullImages, pullTargets } from '../prepull.ts';
import { fixturesByPriority, headStart } from '../priority.ts';
import { isDisruptive } from '../disruptive.ts';
import { mainTarget, type RunState } from '../state.ts';
import type { Task } from '../taskRunner.ts';
import { planDeployment } from '../waves.ts';

export interface Deployment {
  task: Task<RunState>;
  /** Settles when this fixture (in this namespace) is created or its failure recorded. */
  settled(namespace: string, fixtureId: string): Promise<void> | undefined;
}

export function deployTask(): Deployment {
  const settledByKey = new Map<string, Promise<void>>();
  let deploying: Promise<void> = Promise.resolve();
  const task: Task<RunState> = {
    title: 'deploy fixtures',
    setup: async r => {
      // One deployment per Windows build's namespace (just the run's own on single-build clusters).
      const { config, kube, redactor, log } = r;
      const cluster = r.cluster!;
      const signal = r.abort.signal;
      const plans = deployPlans({
        features: r.features,
        cluster,
        main: mainTarget(r),
        scopes: r.buildScopes,
        unpermitted: r.unpermitted,
        egressUrl: config.egressUrl,
        disruptiveNode: config.disruptiveNode,
      }).map(p => ({ ...p, specs: fixturesByPriority(p.specs, r.ranks!, r.features) }));
      for (const p of plans)
        log(
          `Deploying ${p.specs.length} fixture(s)${p.scope ? ` for ${p.scope.label} in ${p.scope.namespace}` : ''}: ${p.specs.map(s => s.id).join(', ') || 'none'}.`,
        );
      const settle = new Map<string, () => void>();
      for (const p of plans)
        for (const s of p.specs)
          settledByKey.set(`${p.target.namespace}/${s.id}`, new Promise(resolve => settle.set(`${p.target.namespace}/${s.id}`, resolve)));
      const pulls = {
        kube,
        runId: r.runId,
        namespace: r.namespace,
        labels: r.labels,
        deadlineMs: config.timeouts.prepull,
        progressMs: config.timeouts.prepullProgress,
        redactor,
        signal,
        log,
      };
      const prepull =
        config.prepull === false
          ? undefined
          : async (rendered: RenderedFixture[]) => {
              await prepullImages(pulls, pullTargets(rendered, cluster.nodes));
            };
      r.waves = await planDeployment(
        {
          kube,
          redactor,
          signal,
          releaseTimeoutMs: config.timeouts.namespaceDelete,
          errors: r.errors,
          log,
          cluster,
          features: r.features,
          namespace: r.namespace,
          scopes: r.buildScopes,
          headStart: headOf(r),
        },
        plans,
        key => settle.get(key)?.(),
      );
      deploying = r.waves.start(prepull);
      deploying.catch(() => undefined);
    },
    // Creates still in flight settle before the namespace goes: nothing is created after cleanup.
    teardown: async r => {
      await deploying;
      await r.waves?.idle();
    },
  };
  return { task, settled: (namespace, id) => settledByKey.get(`${namespace}/${id}`) };
}

/** The critical path's features and their head start (lib/run/priority.ts). */
function headOf(r: RunState): { features: string[]; boundMs: number } | undefined {
  const h = headStart(r.features, r.config.timeouts, isDisruptive);
  return h && { features: h.head.map(f => f.id), boundMs: h.boundMs };
}
