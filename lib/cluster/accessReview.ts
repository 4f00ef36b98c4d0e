// The RBAC preflight: one SelfSubjectAccessReview per permission the selected features
// need, asked before anything is created, so a missing permission is named up front
// (verb, resource, scope, who needs it) instead of failing checks one by one later.

import { AuthorizationV1Api, type KubeConfig } from '@kubernetes/client-node';
import { apiErrorMessage, apiStatusCode } from './apiError.ts';
import { refusedCredentials } from './refusal.ts';
import { resilientConfiguration } from './resilience.ts';
import type { AccessNeed } from './permission.ts';

/** Where a permission is needed: cluster-scoped, the run's namespace, kube-system, or every namespace. */
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
        // A 401 is the credential refused, not a missing permission: one line for the run (refusal.ts).
        if (apiStatusCode(e) === 401) throw refusedCredentials(kc, ' at the RBAC preflight');
        return { ...n, reason: `could not ask: ${apiErrorMessage(e)}` };
      }
    }),
  );
  return answers.filter((d): d is Denied => !!d);
}
