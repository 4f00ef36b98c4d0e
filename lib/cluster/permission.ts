// What the harness may do in a cluster, as data: a permission (verb, group, resource, scope) and
// who needs it. No client here: `wincheck rbac` and `list` read it without loading the client library.

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

/** One Permission per verb on a resource: permissions('', 'pods/log', ['get'], 'namespace'). */
export const permissions = (group: string, resource: string, verbs: string[], scope: Scope): Permission[] =>
  verbs.map(verb => ({ verb, group, resource, scope }));

export const permissionKey = (p: Permission) => `${p.scope}|${p.group}|${p.resource}|${p.verb}`;

export function describePermission(p: Permission, namespace?: string): string {
  const resource = p.group ? `${p.resource}.${p.group}` : p.resource;
  const where =
    p.scope === 'cluster'
      ? 'cluster-wide'
      : p.scope === 'all-namespaces'
        ? 'in all namespaces'
        : p.scope === 'kube-system'
          ? 'in namespace kube-system'
          : `in ${namespace ? `namespace ${namespace}` : 'the run namespace'}`;
  return `${p.verb} ${resource} ${where}`;
}
