// The clusterrole-aggregation controller: a ClusterRole with an aggregationRule gets, as its
// rules, those of every ClusterRole its selectors match (what `kubectl describe clusterrole
// view` shows). The authorizer computes the same union on its own (sim/api/auth/rbac.ts), so
// a request never waits for this controller.

import type { V1ClusterRole } from '@kubernetes/client-node';
import { StoreError } from '../api/store.ts';
import { CLUSTER_ROLES, clusterRoleRules } from '../api/auth/rbac.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { WorkQueue } from './workqueue.ts';

export function startClusterRoleAggregationController({ store }: ControllerContext): Stoppable {
  const queue = new WorkQueue('clusterrole-aggregation-controller', name => sync(name));
  const enqueueAggregated = () => {
    for (const o of store.list(CLUSTER_ROLES).items) if ((o as unknown as V1ClusterRole).aggregationRule) queue.add(o.metadata.name!);
  };
  const sub = store.onAny(
    guarded('clusterrole-aggregation-controller', bucket => {
      if (bucket === CLUSTER_ROLES) enqueueAggregated();
    }),
  );
  enqueueAggregated();

  function sync(name: string): void {
    const role = store.tryGet(CLUSTER_ROLES, undefined, name) as unknown as V1ClusterRole | undefined;
    if (!role?.aggregationRule) return;
    const rules = clusterRoleRules(store, name);
    if (JSON.stringify(rules) === JSON.stringify(role.rules ?? [])) return;
    try {
      store.mutate(CLUSTER_ROLES, undefined, name, o => {
        (o as unknown as V1ClusterRole).rules = rules;
      });
    } catch (err) {
      if (!(err instanceof StoreError)) throw err;
    }
  }

  return {
    async stop() {
      sub.stop();
      await queue.stop();
    },
  };
}
