// What a feature needs of the API: for each kind of fixture object it creates (read from the
// fixture templates), and the extras some probes use (exec, logs, port-forward, the kubelet's
// summary through nodes/proxy, metrics.k8s.io: each feature's `access` field). What the run
// itself calls (namespace, discovery, waves, cleanup...) is lib/run/access.ts, which adds these.

import { loadTemplate } from '../fixtures/render.ts';
import { type Permission, permissions } from '../cluster/permission.ts';
import type { Feature } from './types.ts';

const READ = ['get', 'list', 'watch'];

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

/** The kinds the features' fixture templates create, once each. */
export function fixtureKinds(features: Feature[]): string[] {
  return [...new Set(features.flatMap(f => f.fixtures.flatMap(spec => templateKinds(spec.template))))];
}

/** Deleting objects of a fixture kind (the run's waves free room with it; cleanup removes cluster-scoped ones). */
export function deleteAccess(kind: string): Permission[] {
  const p = KIND_ACCESS[kind]?.[0];
  if (!p) throw new Error(`lib/catalog/access.ts has no permissions for fixture kind ${kind}`);
  return permissions(p.group, p.resource, ['delete'], p.scope);
}
