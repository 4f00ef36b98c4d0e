// URL → route: which resource, namespace, name and subresource a request is about.
// Mirrors the API server's path layout: /api/v1/..., /apis/<group>/<version>/...,
// the legacy /watch/ prefix, and namespaced vs cluster-scoped resources.

import { RESOURCES, type ResourceType } from './resources.ts';

export type Route =
  | { kind: 'root' }
  | { kind: 'version' }
  | { kind: 'health'; which: string }
  | { kind: 'metrics' } // /metrics (apiserver_request_total)
  | { kind: 'openapi' }
  | { kind: 'coreGroups' } // /api
  | { kind: 'groups' } // /apis
  | { kind: 'group'; group: string } // /apis/<g>
  | { kind: 'resources'; group: string; version: string } // /api/v1, /apis/<g>/<v>
  | ResourceRoute
  | { kind: 'notFound' };

export interface ResourceRoute {
  kind: 'resource';
  rt: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
  /** Rest of the path after a proxy subresource, e.g. "stats/summary". */
  subpath?: string;
  /** Legacy /watch/ prefix. */
  watchPath: boolean;
}

/** Group versions served, in discovery order (first = preferred). */
export function servedGroupVersions(metricsServer: boolean): { group: string; versions: string[] }[] {
  const out: { group: string; versions: string[] }[] = [];
  for (const r of RESOURCES) {
    if (r.group === 'metrics.k8s.io' && !metricsServer) continue;
    let g = out.find(x => x.group === r.group);
    if (!g) {
      g = { group: r.group, versions: [] };
      out.push(g);
    }
    if (!g.versions.includes(r.version)) g.versions.push(r.version);
  }
  // Preferred version is the newest (autoscaling/v2 before v1).
  for (const g of out) g.versions.sort((a, b) => rank(b) - rank(a));
  return out;
}

function rank(v: string): number {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
  if (!m) return 0;
  const stage = m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2;
  return Number(m[1]) * 1000 + stage * 100 + Number(m[3] ?? 0);
}

export function route(pathname: string, metricsServer: boolean): Route {
  const segs = pathname
    .split('/')
    .filter(s => s !== '')
    .map(decodeURIComponent);
  if (segs.length === 0) return { kind: 'root' };
  if (segs[0] === 'version' && segs.length === 1) return { kind: 'version' };
  if (['healthz', 'readyz', 'livez'].includes(segs[0])) return { kind: 'health', which: segs[0] };
  if (segs[0] === 'metrics' && segs.length === 1) return { kind: 'metrics' };
  if (segs[0] === 'openapi') return { kind: 'openapi' };
  let group: string, version: string | undefined, rest: string[];
  if (segs[0] === 'api') {
    if (segs.length === 1) return { kind: 'coreGroups' };
    group = '';
    version = segs[1];
    rest = segs.slice(2);
  } else if (segs[0] === 'apis') {
    if (segs.length === 1) return { kind: 'groups' };
    group = segs[1];
    if (!servedGroupVersions(metricsServer).some(g => g.group === group)) return { kind: 'notFound' };
    if (segs.length === 2) return { kind: 'group', group };
    version = segs[2];
    rest = segs.slice(3);
  } else return { kind: 'notFound' };
  const gv = servedGroupVersions(metricsServer).find(g => g.group === group);
  if (!gv || !gv.versions.includes(version)) return { kind: 'notFound' };
  if (rest.length === 0) return { kind: 'resources', group, version };

  let watchPath = false;
  if (rest[0] === 'watch') {
    watchPath = true;
    rest = rest.slice(1);
  }
  const find = (resource: string) => RESOURCES.find(r => r.group === group && r.version === version && r.resource === resource);

  // /namespaces/{ns}/{resource}/... unless it is the namespace's own subresource.
  if (rest[0] === 'namespaces' && rest.length >= 3 && !(rest.length === 3 && (rest[2] === 'status' || rest[2] === 'finalize'))) {
    const rt = find(rest[2]);
    if (!rt || !rt.namespaced) return { kind: 'notFound' };
    return withSub({ kind: 'resource', rt, namespace: rest[1], watchPath }, rest.slice(3));
  }
  const rt = find(rest[0]);
  if (!rt) return { kind: 'notFound' };
  return withSub({ kind: 'resource', rt, watchPath }, rest.slice(1));
}

function withSub(r: ResourceRoute, rest: string[]): Route {
  if (rest.length === 0) return r;
  r.name = rest[0];
  if (rest.length === 1) return r;
  r.subresource = rest[1];
  if (r.subresource === 'proxy') {
    r.subpath = rest.slice(2).join('/');
    return r;
  }
  if (rest.length > 2) return { kind: 'notFound' };
  if (!(r.rt.subresources ?? []).includes(r.subresource)) return { kind: 'notFound' };
  return r;
}
