// User impersonation as kube-apiserver's filter does it
// (https://github.com/kubernetes/apiserver/blob/master/pkg/endpoints/filters/impersonation.go):
// Impersonate-User (a ServiceAccount when it is system:serviceaccount:<ns>:<name>), -Uid, -Group
// and -Extra-<key>, each needing the `impersonate` verb on users, serviceaccounts, groups, uids
// or userextras/<key>; an impersonated ServiceAccount gets its groups; system:authenticated is
// added unless asked for or system:unauthenticated is; refused with the usual 403 text.

import type { IncomingHttpHeaders } from 'node:http';
import type { Store } from '../store.ts';
import { ApiError } from '../status.ts';
import { authorize, forbidden, type Attributes } from './rbac.ts';
import { AUTHENTICATED, type UserInfo } from './identity.ts';

const AUTHENTICATION_GROUP = 'authentication.k8s.io';
const SA_PREFIX = 'system:serviceaccount:';

function values(h: string | string[] | undefined): string[] {
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
}

/** The user the request acts as: `requester` itself without Impersonate-* headers. */
/** headers: each header's values apart (IncomingMessage.headersDistinct), as Go's http.Header keeps them. */
export function impersonatedUser(store: Store, requester: UserInfo, headers: IncomingHttpHeaders | NodeJS.Dict<string[]>): UserInfo {
  const name = values(headers['impersonate-user'])[0];
  const uid = values(headers['impersonate-uid'])[0];
  const groups = values(headers['impersonate-group']);
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(headers))
    if (k.startsWith('impersonate-extra-')) extra[decodeURIComponent(k.slice('impersonate-extra-'.length))] = values(v);
  if (!name) {
    if (uid || groups.length || Object.keys(extra).length)
      throw new ApiError(400, 'BadRequest', 'requested impersonation of groups, uid or extra without impersonating a user');
    return requester;
  }
  const check = (a: Omit<Attributes, 'user' | 'verb' | 'resourceRequest'>) => {
    const attrs: Attributes = { user: requester, verb: 'impersonate', resourceRequest: true, ...a };
    if (!authorize(store, attrs).allowed) throw forbidden(attrs);
  };
  let userGroups: string[] = [];
  if (name.startsWith(SA_PREFIX)) {
    const [namespace, sa] = name.slice(SA_PREFIX.length).split(':');
    check({ apiGroup: '', resource: 'serviceaccounts', namespace, name: sa });
    userGroups = ['system:serviceaccounts', `system:serviceaccounts:${namespace}`];
  } else check({ apiGroup: '', resource: 'users', name });
  for (const g of groups) check({ apiGroup: '', resource: 'groups', name: g });
  if (uid) check({ apiGroup: AUTHENTICATION_GROUP, resource: 'uids', name: uid });
  for (const [k, vs] of Object.entries(extra)) for (const v of vs) check({ apiGroup: AUTHENTICATION_GROUP, resource: 'userextras', subresource: k, name: v });
  const all = [...userGroups, ...groups];
  if (name !== 'system:anonymous' && !all.includes(AUTHENTICATED) && !all.includes('system:unauthenticated')) all.push(AUTHENTICATED);
  return { name, uid, groups: all, ...(Object.keys(extra).length ? { extra } : {}) };
}
