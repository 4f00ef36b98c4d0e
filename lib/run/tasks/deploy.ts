// Task "deploy fixtures": every selected feature's fixtures, the critical path's first, in waves
// that fit the nodes' capacity (lib/run/waves.ts), after one pre-pull phase (unless --no-prepull).
// Not awaited: each check starts once its own fixtures are created, not after all of them.

import type { RenderedFixture } from '../../fixtures/types.ts';
import { deployPlans } from '../builds.ts';
import { prepullImages, pullTargets } from '../prepull.ts';
import { fixturesByPriority } from '../priority.ts';
import type { RunState } from '../state.ts';
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
      const plans = deployPlans(r).map(p => ({ ...p, specs: fixturesByPriority(p.specs, r.ranks!, r.features) }));
      for (const p of plans) p.run.log(`Deploying ${p.specs.length} fixture(s)${p.scope ? ` for ${p.scope.label} in ${p.scope.namespace}` : ''}: ${p.specs.map(s => s.id).join(', ') || 'none'}.`);
      const settle = new Map<string, () => void>();
      for (const p of plans)
        for (const s of p.specs) settledByKey.set(`${p.run.namespace}/${s.id}`, new Promise(resolve => settle.set(`${p.run.namespace}/${s.id}`, resolve)));
      const prepull = r.config.prepull === false ? undefined : async (rendered: RenderedFixture[]) => { await prepullImages(r, pullTargets(rendered, r.cluster!.nodes)); };
      r.waves = await planDeployment(r, plans, key => settle.get(key)?.());
      deploying = r.waves.start(prepull);
      deploying.catch(() => undefined);
    },
    // Creates still in flight settle before the namespace goes: nothing is created after cleanup.
    teardown: async r => { await deploying; await r.waves?.idle(); },
  };
  return { task, settled: (namespace, id) => settledByKey.get(`${namespace}/${id}`) };
}
