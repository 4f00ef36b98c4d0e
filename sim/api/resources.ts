// The resource types the simulated API serves: one row per resource, the shape of
// discovery (/api, /apis) and of every URL the server routes.

export interface ResourceType {
  group: string; // '' for the core group
  version: string;
  resource: string; // plural, as in the URL
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames?: string[];
  singular: string;
  /** Subresources served, e.g. status, scale, exec, log, portforward, proxy. */
  subresources?: string[];
  categories?: string[];
  verbs?: string[];
}

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function row(group: string, version: string, resource: string, kind: string, namespaced: boolean, extra: Partial<ResourceType> = {}): ResourceType {
  return {
    group,
    version,
    resource,
    kind,
    listKind: `${kind}List`,
    namespaced,
    singular: kind.toLowerCase(),
    verbs: VERBS,
    ...extra,
  };
}

export const RESOURCES: ResourceType[] = [
  row('', 'v1', 'namespaces', 'Namespace', false, { shortNames: ['ns'], subresources: ['status', 'finalize'] }),
  row('', 'v1', 'nodes', 'Node', false, { shortNames: ['no'], subresources: ['status', 'proxy'] }),
  row('', 'v1', 'pods', 'Pod', true, {
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status', 'exec', 'attach', 'log', 'portforward', 'binding', 'eviction', 'ephemeralcontainers'],
  }),
  row('', 'v1', 'services', 'Service', true, { shortNames: ['svc'], categories: ['all'], subresources: ['status', 'proxy'] }),
  row('', 'v1', 'endpoints', 'Endpoints', true, { shortNames: ['ep'], singular: 'endpoints' }),
  row('', 'v1', 'secrets', 'Secret', true),
  row('', 'v1', 'configmaps', 'ConfigMap', true, { shortNames: ['cm'] }),
  row('', 'v1', 'events', 'Event', true, { shortNames: ['ev'] }),
  row('', 'v1', 'serviceaccounts', 'ServiceAccount', true, { shortNames: ['sa'], subresources: ['token'] }),
  row('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, { shortNames: ['pvc'], subresources: ['status'] }),
  row('', 'v1', 'persistentvolumes', 'PersistentVolume', false, { shortNames: ['pv'], subresources: ['status'] }),
  row('', 'v1', 'resourcequotas', 'ResourceQuota', true, { shortNames: ['quota'], subresources: ['status'] }),
  row('', 'v1', 'limitranges', 'LimitRange', true, { shortNames: ['limits'] }),
  row('apps', 'v1', 'deployments', 'Deployment', true, { shortNames: ['deploy'], categories: ['all'], subresources: ['status', 'scale'] }),
  row('apps', 'v1', 'replicasets', 'ReplicaSet', true, { shortNames: ['rs'], categories: ['all'], subresources: ['status', 'scale'] }),
  row('apps', 'v1', 'daemonsets', 'DaemonSet', true, { shortNames: ['ds'], categories: ['all'], subresources: ['status'] }),
  row('apps', 'v1', 'statefulsets', 'StatefulSet', true, { shortNames: ['sts'], categories: ['all'], subresources: ['status', 'scale'] }),
  row('apps', 'v1', 'controllerrevisions', 'ControllerRevision', true),
  row('batch', 'v1', 'jobs', 'Job', true, { categories: ['all'], subresources: ['status'] }),
  row('node.k8s.io', 'v1', 'runtimeclasses', 'RuntimeClass', false),
  row('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false, { shortNames: ['sc'] }),
  row('discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice', true),
  row('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', true, { shortNames: ['netpol'] }),
  row('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, { shortNames: ['hpa'], categories: ['all'], subresources: ['status'] }),
  row('autoscaling', 'v1', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, { shortNames: ['hpa'], categories: ['all'], subresources: ['status'] }),
  row('events.k8s.io', 'v1', 'events', 'Event', true, { shortNames: ['ev'] }),
  row('coordination.k8s.io', 'v1', 'leases', 'Lease', true),
  row('rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true),
  row('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true),
  row('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false),
  row('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false),
  row('authentication.k8s.io', 'v1', 'selfsubjectreviews', 'SelfSubjectReview', false, { verbs: ['create'] }),
  row('authorization.k8s.io', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', false, { verbs: ['create'] }),
  row('authorization.k8s.io', 'v1', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', false, { verbs: ['create'] }),
  row('metrics.k8s.io', 'v1beta1', 'pods', 'PodMetrics', true, { verbs: ['get', 'list'] }),
  row('metrics.k8s.io', 'v1beta1', 'nodes', 'NodeMetrics', false, { verbs: ['get', 'list'] }),
];

/** The storage key of a resource: one store bucket per group/resource, whatever the version. */
export function bucketOf(r: Pick<ResourceType, 'group' | 'resource'>): string {
  return r.group ? `${r.resource}.${r.group}` : r.resource;
}

export function findResource(group: string, version: string, resource: string): ResourceType | undefined {
  return RESOURCES.find(r => r.group === group && r.version === version && r.resource === resource);
}

export function resourceForKind(apiVersion: string, kind: string): ResourceType | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return RESOURCES.find(r => r.group === group && r.version === version && r.kind === kind);
}

export function apiVersionOf(r: Pick<ResourceType, 'group' | 'version'>): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}
