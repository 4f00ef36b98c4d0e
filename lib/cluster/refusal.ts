// A refused credential (HTTP 401) is one line, not a list of missing permissions: the server,
// the context, the user, what kind of credential was sent and what to check. A 403 is an
// answer about permissions and stays the RBAC preflight's list.

import type { KubeConfig } from '@kubernetes/client-node';
import { ClusterUnreachableError } from '../errors.ts';
import { authOf } from './credentials.ts';
import { describeImpersonation } from './impersonation.ts';

/** "cluster S refused the credentials of user U (context C, token sent): HTTP 401; check ...". */
export function refusalLine(kc: KubeConfig, when = ''): string {
  const server = kc.getCurrentCluster()?.server ?? '(no server)';
  const auth = authOf(kc);
  const user = auth?.userName ?? kc.getCurrentUser()?.name ?? '(none)';
  const kind = auth?.source.kind ?? 'token';
  const as = describeImpersonation(auth?.impersonation);
  const hint = auth?.source.hint ?? "check the kubeconfig's user";
  return `cluster ${server} refused the credentials of user ${user} (context ${kc.getCurrentContext()}, ${kind === 'none' ? 'no credential' : kind} sent${as ? `, ${as}` : ''})${when}: HTTP 401 Unauthorized; ${hint}`;
}

export function refusedCredentials(kc: KubeConfig, when = ''): ClusterUnreachableError {
  return new ClusterUnreachableError(refusalLine(kc, when));
}
