// What the harness may do in the cluster, declared in one place: the API permissions a
// run needs for itself (namespace, discovery, waits, cleanup), for each kind of fixture
// object it creates (read from the fixture templates), and the extras some probes use
// (exec, logs, port-forward, the kubelet's summary through nodes/proxy, metrics.k8s.io: each
// feature's `access` field).
// The RBAC preflight asks the API about each of them; `wincheck rbac` turns them into the
// least-privilege ClusterRole (ci/rbac.yaml is that for the whole catalog).

import { loadTemplate } from '../fixtures/render.ts';
import { type AccessNeed, type Permission, permissionKey, permissions } from '../cluster/permission.ts';
import type { Feature } from './types.ts';

export const RUN_ITSELF = 'wincheck';

const READ = ['get', 'list', 'watch'];

/**
 * Every run: the namespace's lifecycle (and its heartbeat annotation), discovery, pod waits and their events, cleanup by label.
 * (Creating SelfSubjectAccessReviews, the preflight's own question, every user may: system:basic-user.)
 */
const RUN_ACCESS: Permission[] = [
  ...permissions('', 'namespaces', ['create', 'delete', 'patch', ...READ], 'cluster'),
  ...permissions('', 'nodes', READ, 'cluster'),
  ...permissions('', 'pods', ['create', 'delete', ...READ], 'namespace'),
  ...permissions('', 'events', ['list', 'watch'], 'namespace'),
  ...permissions('node.k8s.io', 'runtimeclasses', ['list'], 'cluster'),
  ...permissions('storage.k8s.io', 'storageclasses', ['list'], 'cluster'),
  ...permissions('', 'persistentvolumes', ['list'], 'cluster'),
  ...permissions('apps', 'daemonsets', ['list'], 'kube-system'),
  ...permissions('', 'configmaps', ['list'], 'kube-system'),
];

/** Creating a fixture object of a kind (get: a create retried after a reset may have landed), waiting for it, deleting cluster-scoped ones. */
const KIND_ACCESS: Record<string, Permission[]> = {
  Pod: permissions('', 'pods', ['create', ...READ], 'namespace'),
  ConfigMap: permissions('', 'configmaps', ['create', 'get'], 'namespace'),
  Secret: permissions('', 'secrets', ['create', 'get'], 'namespace'),
  Service: permissions('', 'services', ['create', ...READ], 'namespace'),
  PersistentVolumeClaim: permissions('', 'persistentvolumeclaims', ['create', ...READ], 'namespace'),
  Deployment: permissions('apps', 'deployments', ['create', ...READ], 'namespace'),
  DaemonSet: permissions('apps', 'daemonsets', ['create', ...READ], 'namespace'),
  StatefulSet: permissions('apps', 'statefulsets', ['create', ...READ], 'namespace'),
  Job: permissions('batch', 'jobs', ['create', ...READ], 'namespace'),
  HorizontalPodAutoscaler: permissions('autoscaling', 'horizontalpodautoscalers', ['create', ...READ], 'namespace'),
  RuntimeClass: permissions('node.k8s.io', 'runtimeclasses', ['create', 'get', 'delete'], 'cluster'),
  StorageClass: permissions('storage.k8s.io', 'storageclasses', ['create', 'get', 'delete'], 'cluster'),
  PersistentVolume: permissions('', 'persistentvolumes', ['create', 'get', 'delete'], 'cluster'),
};

/** Exec into pods: the websocket upgrade is a GET; from Kubernetes 1.35 create is checked too. */
const EXEC = permissions('', 'pods/exec', ['get', 'create'], 'namespace');
/** The kubelet's summary API through the API server's node proxy (res.* stats probes). */
export const NODE_SUMMARY_ACCESS = permissions('', 'nodes/proxy', ['get'], 'cluster');

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
  out.push(...(f.access ?? []));
  return out;
}

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
