// The RBAC preflight: one SelfSubjectAccessReview per permission the selected features
// need, asked before anything is created, so a missing permission is named up front
// (verb, resource, scope, who needs it) instead of failing checks one by one later.

import { AuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { apiErrorMessage } from './apiError.ts';
import { resilientConfiguration } from './resilience.ts';

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

export interface Denied extends AccessNeed {
  /** The API server's reason, when it gave one (or the error asking). */
  reason?: string;
}

export async function deniedPermissions(kc: KubeConfig, needs: AccessNeed[], runNamespace: string, signal?: AbortSignal): Promise<Denied[]> {
  // Through the one retry policy: a 429 or a reset must not read as a missing permission.
  const api = new AuthorizationV1Api(resilientConfiguration(kc, { signal }));
  const answers = await Promise.all(
    needs.map(async (n): Promise<Denied | undefined> => {
      const [resource, subresource] = n.resource.split('/');
      const namespace = n.scope === 'namespace' ? runNamespace : n.scope === 'kube-system' ? 'kube-system' : undefined;
      try {
        const r = await api.createSelfSubjectAccessReview({
          body: {
            apiVersion: 'authorization.k8s.io/v1',
            kind: 'SelfSubjectAccessReview',
            spec: { resourceAttributes: { verb: n.verb, group: n.group, resource, subresource, namespace } },
          },
        });
        return r.status?.allowed ? undefined : { ...n, reason: r.status?.reason || undefined };
      } catch (e) {
        return { ...n, reason: `could not ask: ${apiErrorMessage(e)}` };
      }
    }),
  );
  return answers.filter((d): d is Denied => !!d);
}
