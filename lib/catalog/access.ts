// What the harness may do in the cluster, declared in one place: the API permissions a
// run needs for itself (namespace, discovery, waits, cleanup), for each kind of fixture
// object it creates (read from the fixture templates), and the extras some probes use
// (exec, logs, port-forward, the kubelet's summary through nodes/proxy, metrics.k8s.io).
// The RBAC preflight asks the API about each of them; `wincheck rbac` turns them into the
// least-privilege ClusterRole (ci/rbac.yaml is that for the whole catalog).

import { loadTemplate } from '../fixtures/render.ts';
import type { Feature } from './types.ts';

/** Where a permission is needed: cluster-scoped, the run's namespace, kube-system, or every namespace. */
export type Scope = 'cluster' | 'namespace' | 'kube-system' | 'all-namespaces';

export interface Permission {
  verb: string;
  group: string;
  /** Plural resource, "pods/exec" for a subresource. */
  resource: string;
  scope: Scope;
}

export interface AccessNeed extends Permission {
  /** Who needs it: feature ids, or "wincheck" for the run itself. */
  neededBy: string[];
}

export const RUN_ITSELF = 'wincheck';

const rule = (group: string, resource: string, verbs: string[], scope: Scope): Permission[] => verbs.map(verb => ({ verb, group, resource, scope }));
const READ = ['get', 'list', 'watch'];

/**
 * Every run: the namespace's lifecycle (and its heartbeat annotation), discovery, pod waits and their events, cleanup by label.
 * (Creating SelfSubjectAccessReviews, the preflight's own question, every user may: system:basic-user.)
 */
const RUN_ACCESS: Permission[] = [
  ...rule('', 'namespaces', ['create', 'delete', 'patch', ...READ], 'cluster'),
  ...rule('', 'nodes', READ, 'cluster'),
  ...rule('', 'pods', ['create', 'delete', ...READ], 'namespace'),
  ...rule('', 'events', ['list', 'watch'], 'namespace'),
  ...rule('node.k8s.io', 'runtimeclasses', ['list'], 'cluster'),
  ...rule('storage.k8s.io', 'storageclasses', ['list'], 'cluster'),
  ...rule('', 'persistentvolumes', ['list'], 'cluster'),
  ...rule('apps', 'daemonsets', ['list'], 'kube-system'),
  ...rule('', 'configmaps', ['list'], 'kube-system'),
];

/** Creating a fixture object of a kind (get: a create retried after a reset may have landed), waiting for it, deleting cluster-scoped ones. */
const KIND_ACCESS: Record<string, Permission[]> = {
  Pod: rule('', 'pods', ['create', ...READ], 'namespace'),
  ConfigMap: rule('', 'configmaps', ['create', 'get'], 'namespace'),
  Secret: rule('', 'secrets', ['create', 'get'], 'namespace'),
  Service: rule('', 'services', ['create', ...READ], 'namespace'),
  PersistentVolumeClaim: rule('', 'persistentvolumeclaims', ['create', ...READ], 'namespace'),
  Deployment: rule('apps', 'deployments', ['create', ...READ], 'namespace'),
  DaemonSet: rule('apps', 'daemonsets', ['create', ...READ], 'namespace'),
  StatefulSet: rule('apps', 'statefulsets', ['create', ...READ], 'namespace'),
  Job: rule('batch', 'jobs', ['create', ...READ], 'namespace'),
  HorizontalPodAutoscaler: rule('autoscaling', 'horizontalpodautoscalers', ['create', ...READ], 'namespace'),
  RuntimeClass: rule('node.k8s.io', 'runtimeclasses', ['create', 'get', 'delete'], 'cluster'),
  StorageClass: rule('storage.k8s.io', 'storageclasses', ['create', 'get', 'delete'], 'cluster'),
  PersistentVolume: rule('', 'persistentvolumes', ['create', 'get', 'delete'], 'cluster'),
};

/** Exec into pods: the websocket upgrade is a GET; from Kubernetes 1.35 create is checked too. */
const EXEC = rule('', 'pods/exec', ['get', 'create'], 'namespace');
const NODE_SUMMARY = rule('', 'nodes/proxy', ['get'], 'cluster');

/** What probes do beyond their fixtures, by feature id. */
const FEATURE_ACCESS: Record<string, Permission[]> = {
  'work.exec-logs': rule('', 'pods/log', ['get'], 'namespace'),
  'work.port-forward': rule('', 'pods/portforward', ['get', 'create'], 'namespace'),
  'work.deployment': rule('apps', 'deployments', ['update'], 'namespace'),
  'stor.resize': [...rule('', 'persistentvolumeclaims', ['update'], 'namespace'), ...rule('storage.k8s.io', 'storageclasses', ['get'], 'cluster')],
  'res.cpu-limit-enforced': NODE_SUMMARY,
  'res.stats': NODE_SUMMARY,
  'res.memory-no-oomkill': NODE_SUMMARY,
  'res.limits': NODE_SUMMARY,
  'res.metrics-api': [...rule('metrics.k8s.io', 'pods', ['get'], 'namespace'), ...rule('metrics.k8s.io', 'nodes', ['get'], 'cluster')],
  // kube-proxy as a HostProcess DaemonSet (no Windows service): its pod on the node, in kube-system.
  'node.services': rule('', 'pods', ['list'], 'kube-system'),
  'iso.hyperv-runtimeclass': rule('', 'pods', ['list'], 'all-namespaces'),
  'iso.hyperv-annotation': rule('', 'pods', ['list'], 'all-namespaces'),
};

const kindsCache = new Map<string, string[]>();
/** The kinds a fixture template creates (its documents' top-level kind lines). */
export function templateKinds(template: string): string[] {
  let kinds = kindsCache.get(template);
  if (!kinds) {
    kinds = [...loadTemplate(template).matchAll(/^kind:\s*["']?(\w+)/gm)].map(m => m[1]);
    kindsCache.set(template, kinds);
  }
  return kinds;
}

export function featureAccess(f: Feature): Permission[] {
  const out: Permission[] = [];
  for (const spec of f.fixtures) {
    for (const kind of templateKinds(spec.template)) {
      const perms = KIND_ACCESS[kind];
      if (!perms) throw new Error(`fixture template ${spec.template} creates a ${kind}: lib/catalog/access.ts has no permissions for that kind`);
      out.push(...perms);
    }
  }
  const usesPods = f.fixtures.length > 0 || (f.needs ?? []).some(n => n === 'node-access' || n === 'hostprocess');
  if (usesPods) out.push(...EXEC);
  out.push(...(FEATURE_ACCESS[f.id] ?? []));
  return out;
}

export const permissionKey = (p: Permission) => `${p.scope}|${p.group}|${p.resource}|${p.verb}`;

/** Every permission the features need, once each, with who needs it; the run's own first. */
export function accessNeeds(features: Feature[]): AccessNeed[] {
  const needs = new Map<string, AccessNeed>();
  const add = (p: Permission, who: string) => {
    const k = permissionKey(p);
    const n = needs.get(k) ?? { ...p, neededBy: [] };
    if (!n.neededBy.includes(who)) n.neededBy.push(who);
    needs.set(k, n);
  };
  for (const p of RUN_ACCESS) add(p, RUN_ITSELF);
  for (const f of features) for (const p of featureAccess(f)) add(p, f.id);
  return [...needs.values()];
}

export function describePermission(p: Permission, namespace?: string): string {
  const resource = p.group ? `${p.resource}.${p.group}` : p.resource;
  const where = p.scope === 'cluster' ? 'cluster-wide' : p.scope === 'all-namespaces' ? 'in all namespaces'
    : p.scope === 'kube-system' ? 'in namespace kube-system' : `in ${namespace ? `namespace ${namespace}` : 'the run namespace'}`;
  return `${p.verb} ${resource} ${where}`;
}
