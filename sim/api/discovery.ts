// Discovery documents: /version, /api, /apis, /apis/<g>, /apis/<g>/<v>, in both the
// legacy form and the aggregated form (apidiscovery.k8s.io v2 / v2beta1) that
// kubectl asks for first and that saves it one request per group version.

import type { Profile } from '../profiles/types.ts';
import { RESOURCES, type ResourceType } from './resources.ts';
import { servedGroupVersions } from './router.ts';

interface SubInfo {
  kind: string;
  group?: string;
  version?: string;
  verbs: string[];
}

function subInfo(r: ResourceType, sub: string): SubInfo {
  switch (sub) {
    case 'status':
      return { kind: r.kind, verbs: ['get', 'patch', 'update'] };
    case 'scale':
      return { kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] };
    case 'exec':
      return { kind: 'PodExecOptions', verbs: ['create', 'get'] };
    case 'attach':
      return { kind: 'PodAttachOptions', verbs: ['create', 'get'] };
    case 'portforward':
      return { kind: 'PodPortForwardOptions', verbs: ['create', 'get'] };
    case 'log':
      return { kind: 'Pod', verbs: ['get'] };
    case 'binding':
      return { kind: 'Binding', verbs: ['create'] };
    case 'eviction':
      return { kind: 'Eviction', group: 'policy', version: 'v1', verbs: ['create'] };
    case 'ephemeralcontainers':
      return { kind: 'Pod', verbs: ['get', 'patch', 'update'] };
    case 'finalize':
      return { kind: 'Namespace', verbs: ['update'] };
    case 'proxy':
      return { kind: r.kind === 'Node' ? 'NodeProxyOptions' : `${r.kind}ProxyOptions`, verbs: ['create', 'delete', 'get', 'patch', 'update'] };
    default:
      return { kind: r.kind, verbs: ['get'] };
  }
}

function resourcesOf(group: string, version: string): ResourceType[] {
  return RESOURCES.filter(r => r.group === group && r.version === version);
}

export function versionInfo(profile: Profile): object {
  const m = /^v?(\d+)\.(\d+)/.exec(profile.kubernetesVersion);
  return {
    major: m?.[1] ?? '1',
    minor: m?.[2] ?? '0',
    gitVersion: profile.kubernetesVersion.startsWith('v') ? profile.kubernetesVersion : `v${profile.kubernetesVersion}`,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-01-01T00:00:00Z',
    goVersion: 'go1.24.0',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

export function apiVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupEntry(g: { group: string; versions: string[] }) {
  const versions = g.versions.map(v => ({ groupVersion: `${g.group}/${v}`, version: v }));
  return { name: g.group, versions, preferredVersion: versions[0] };
}

export function apiGroupList(metricsServer: boolean): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: servedGroupVersions(metricsServer)
      .filter(g => g.group !== '')
      .map(groupEntry),
  };
}

export function apiGroup(group: string, metricsServer: boolean): object | undefined {
  const g = servedGroupVersions(metricsServer).find(x => x.group === group);
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry(g) } : undefined;
}

export function apiResourceList(group: string, version: string): object {
  const resources: object[] = [];
  for (const r of resourcesOf(group, version)) {
    const e: Record<string, unknown> = { name: r.resource, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs };
    if (r.shortNames) e.shortNames = r.shortNames;
    if (r.categories) e.categories = r.categories;
    resources.push(e);
    for (const s of r.subresources ?? []) {
      const i = subInfo(r, s);
      const se: Record<string, unknown> = { name: `${r.resource}/${s}`, singularName: '', namespaced: r.namespaced, kind: i.kind, verbs: i.verbs };
      if (i.group) {
        se.group = i.group;
        se.version = i.version;
      }
      resources.push(se);
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: group ? `${group}/${version}` : version, resources };
}

export type AggregatedVersion = 'v2' | 'v2beta1';

/** Which aggregated discovery form the Accept header asks for, if any (first one listed wins). */
export function aggregatedAccept(accept: string | undefined): AggregatedVersion | undefined {
  if (!accept) return undefined;
  for (const part of accept.split(',')) {
    const p = part.replace(/\s+/g, '');
    if (!p.includes('as=APIGroupDiscoveryList') || !p.includes('g=apidiscovery.k8s.io')) continue;
    if (p.includes('v=v2beta1')) return 'v2beta1';
    if (/v=v2(;|$)/.test(p)) return 'v2';
  }
  return undefined;
}

export function aggregatedContentType(v: AggregatedVersion): string {
  return `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;
}

/** APIGroupDiscoveryList for /api (core = true) or /apis. */
export function aggregatedDiscovery(core: boolean, v: AggregatedVersion, metricsServer: boolean): object {
  const groups = servedGroupVersions(metricsServer).filter(g => (g.group === '') === core);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${v}`,
    metadata: {},
    items: groups.map(g => ({
      metadata: core ? { creationTimestamp: null } : { name: g.group, creationTimestamp: null },
      versions: g.versions.map(ver => ({
        version: ver,
        freshness: 'Current',
        resources: resourcesOf(g.group, ver).map(r => {
          const e: Record<string, unknown> = {
            resource: r.resource,
            responseKind: { group: r.group, version: r.version, kind: r.kind },
            scope: r.namespaced ? 'Namespaced' : 'Cluster',
            singularResource: r.singular,
            verbs: r.verbs,
          };
          if (r.shortNames) e.shortNames = r.shortNames;
          if (r.categories) e.categories = r.categories;
          if (r.subresources?.length)
            e.subresources = r.subresources.map(s => {
              const i = subInfo(r, s);
              return { subresource: s, responseKind: { group: i.group ?? r.group, version: i.version ?? r.version, kind: i.kind }, verbs: i.verbs };
            });
          return e;
        }),
      })),
    })),
  };
}
