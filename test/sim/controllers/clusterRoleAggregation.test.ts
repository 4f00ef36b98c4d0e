// The clusterrole-aggregation controller writes the union of the selected roles' rules into
// admin/edit/view, and follows a role labelled into the aggregation later.

import { expect } from 'chai';
import type { V1ClusterRole } from '@kubernetes/client-node';
import { ensureBootstrapPolicy } from '../../../sim/api/auth/bootstrapPolicy.ts';
import { CLUSTER_ROLES } from '../../../sim/api/auth/rbac.ts';
import type { KubeObject } from '../../../sim/api/store.ts';
import { startClusterRoleAggregationController } from '../../../sim/controllers/clusterRoleAggregation.ts';
import { loadProfile } from '../../../sim/profiles/load.ts';
import { newStore, waitFor } from '../../support/simControllers.ts';

describe('sim controllers: ClusterRole aggregation', () => {
  it('fills view/edit/admin from the aggregate-to roles and follows new ones', async () => {
    const store = newStore();
    ensureBootstrapPolicy(store);
    const c = startClusterRoleAggregationController({ store, profile: loadProfile('default'), options: {} });
    try {
      const rules = (name: string) => (store.get(CLUSTER_ROLES, undefined, name) as unknown as V1ClusterRole).rules ?? [];
      const has = (name: string, resource: string, verb: string) => rules(name).some(r => r.resources?.includes(resource) && r.verbs.includes(verb));
      await waitFor(store, 'view aggregated', () => has('view', 'pods', 'list'));
      await waitFor(
        store,
        'admin aggregated from edit and view',
        () => has('admin', 'rolebindings', 'create') && has('admin', 'pods/exec', 'create') && has('admin', 'pods', 'list'),
      );
      expect(has('view', 'secrets', 'get')).to.equal(false);
      store.create(CLUSTER_ROLES, {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'crd-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
        rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get'] }],
      } as unknown as KubeObject);
      await waitFor(store, 'view and admin follow the new role', () => has('view', 'widgets', 'get') && has('admin', 'widgets', 'get'));
    } finally {
      await c.stop();
    }
  });
});
