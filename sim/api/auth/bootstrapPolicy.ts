// The default roles the API server's RBAC post-start hook creates: cluster-admin (bound
// to system:masters), the user-facing admin/edit/view built by aggregation from the
// system:aggregate-to-* roles, and the discovery / self-review / public-info roles every
// authenticated user holds. Rules abridged to the resources the sim serves.

import type { V1ClusterRole, V1ClusterRoleBinding, V1PolicyRule } from '@kubernetes/client-node';
import type { KubeObject, Store } from '../store.ts';
import { ADMIN_GROUP } from '../certs.ts';
import { AUTHENTICATED } from './identity.ts';
import { CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, RBAC_GROUP } from './rbac.ts';

const BOOTSTRAP = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const AUTOUPDATE = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };
const aggregateTo = (role: string) => ({ [`rbac.authorization.k8s.io/aggregate-to-${role}`]: 'true' });

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const rule = (apiGroups: string[], resources: string[], verbs: string[]): V1PolicyRule => ({ apiGroups, resources, verbs });

const VIEW: V1PolicyRule[] = [
  rule(
    [''],
    [
      'configmaps',
      'endpoints',
      'persistentvolumeclaims',
      'persistentvolumeclaims/status',
      'pods',
      'replicationcontrollers',
      'replicationcontrollers/scale',
      'serviceaccounts',
      'services',
      'services/status',
    ],
    READ,
  ),
  rule(
    [''],
    [
      'bindings',
      'events',
      'limitranges',
      'namespaces/status',
      'pods/log',
      'pods/status',
      'replicationcontrollers/status',
      'resourcequotas',
      'resourcequotas/status',
    ],
    READ,
  ),
  rule([''], ['namespaces'], READ),
  rule(['discovery.k8s.io'], ['endpointslices'], READ),
  rule(
    ['apps'],
    [
      'controllerrevisions',
      'daemonsets',
      'daemonsets/status',
      'deployments',
      'deployments/scale',
      'deployments/status',
      'replicasets',
      'replicasets/scale',
      'replicasets/status',
      'statefulsets',
      'statefulsets/scale',
      'statefulsets/status',
    ],
    READ,
  ),
  rule(['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], READ),
  rule(['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], READ),
  rule(['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status'], READ),
  rule(['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies'], READ),
];

const EDIT: V1PolicyRule[] = [
  rule([''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'], READ),
  rule([''], ['serviceaccounts'], ['impersonate']),
  rule([''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy'], WRITE),
  rule([''], ['pods/eviction'], ['create']),
  rule(
    [''],
    [
      'configmaps',
      'events',
      'persistentvolumeclaims',
      'replicationcontrollers',
      'replicationcontrollers/scale',
      'secrets',
      'serviceaccounts',
      'services',
      'services/proxy',
    ],
    WRITE,
  ),
  rule([''], ['serviceaccounts/token'], ['create']),
  rule(
    ['apps'],
    ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'],
    WRITE,
  ),
  rule(['autoscaling'], ['horizontalpodautoscalers'], WRITE),
  rule(['batch'], ['cronjobs', 'jobs'], WRITE),
  rule(['policy'], ['poddisruptionbudgets'], WRITE),
  rule(['networking.k8s.io'], ['ingresses', 'networkpolicies'], WRITE),
  rule(['coordination.k8s.io'], ['leases'], [...READ, ...WRITE]),
];

const ADMIN_EXTRA: V1PolicyRule[] = [
  rule(['authorization.k8s.io'], ['localsubjectaccessreviews'], ['create']),
  rule([RBAC_GROUP], ['rolebindings', 'roles'], [...READ, ...WRITE]),
];

function clusterRole(name: string, o: { rules?: V1PolicyRule[]; labels?: Record<string, string>; aggregateFrom?: string }): V1ClusterRole {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRole',
    metadata: { name, labels: { ...BOOTSTRAP, ...o.labels }, annotations: AUTOUPDATE },
    ...(o.aggregateFrom ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: aggregateTo(o.aggregateFrom) }] } } : {}),
    rules: o.rules ?? [],
  };
}

function binding(name: string, role: string, groups: string[]): V1ClusterRoleBinding {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: BOOTSTRAP, annotations: AUTOUPDATE },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
    subjects: groups.map(g => ({ apiGroup: RBAC_GROUP, kind: 'Group', name: g })),
  };
}

export const BOOTSTRAP_CLUSTER_ROLES: V1ClusterRole[] = [
  clusterRole('cluster-admin', { rules: [rule(['*'], ['*'], ['*']), { nonResourceURLs: ['*'], verbs: ['*'] }] }),
  clusterRole('admin', { aggregateFrom: 'admin' }),
  clusterRole('edit', { aggregateFrom: 'edit', labels: aggregateTo('admin') }),
  clusterRole('view', { aggregateFrom: 'view', labels: aggregateTo('edit') }),
  clusterRole('system:aggregate-to-admin', { rules: ADMIN_EXTRA, labels: aggregateTo('admin') }),
  clusterRole('system:aggregate-to-edit', { rules: EDIT, labels: aggregateTo('edit') }),
  clusterRole('system:aggregate-to-view', { rules: VIEW, labels: aggregateTo('view') }),
  clusterRole('system:discovery', {
    rules: [
      {
        nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'],
        verbs: ['get'],
      },
    ],
  }),
  clusterRole('system:basic-user', {
    rules: [
      rule(['authentication.k8s.io'], ['selfsubjectreviews'], ['create']),
      rule(['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'], ['create']),
    ],
  }),
  clusterRole('system:public-info-viewer', { rules: [{ nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'], verbs: ['get'] }] }),
];

export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: V1ClusterRoleBinding[] = [
  binding('cluster-admin', 'cluster-admin', [ADMIN_GROUP]),
  binding('system:discovery', 'system:discovery', [AUTHENTICATED]),
  binding('system:basic-user', 'system:basic-user', [AUTHENTICATED]),
  binding('system:public-info-viewer', 'system:public-info-viewer', [AUTHENTICATED, 'system:unauthenticated']),
];

/** Creates what is missing (never overwrites: as upstream with autoupdate, minus the reconciling). */
export function ensureBootstrapPolicy(store: Store): void {
  for (const r of BOOTSTRAP_CLUSTER_ROLES)
    if (!store.tryGet(CLUSTER_ROLES, undefined, r.metadata!.name!)) store.create(CLUSTER_ROLES, r as unknown as KubeObject, { skipAdmission: true });
  for (const b of BOOTSTRAP_CLUSTER_ROLE_BINDINGS)
    if (!store.tryGet(CLUSTER_ROLE_BINDINGS, undefined, b.metadata!.name!))
      store.create(CLUSTER_ROLE_BINDINGS, b as unknown as KubeObject, { skipAdmission: true });
}
