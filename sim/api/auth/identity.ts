// Who a request is from, as the API server's authenticators name users: the admin
// (token or client certificate, group system:masters), ServiceAccounts (tokens from
// the TokenRequest API) and other client certificates (CN = user, O = groups).

import type { X509Certificate } from 'node:crypto';
import { ADMIN_GROUP, ADMIN_USER } from '../certs.ts';

export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

export const AUTHENTICATED = 'system:authenticated';
export const ANONYMOUS: UserInfo = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
export const ADMIN: UserInfo = { name: ADMIN_USER, groups: [ADMIN_GROUP, AUTHENTICATED] };

export const serviceAccountUserName = (namespace: string, name: string) => `system:serviceaccount:${namespace}:${name}`;

export function serviceAccountUser(namespace: string, name: string, uid?: string): UserInfo {
  return { name: serviceAccountUserName(namespace, name), uid, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, AUTHENTICATED] };
}

/** x509 request authenticator: subject CN is the user, each O a group. */
export function certificateUser(cert: X509Certificate): UserInfo {
  const parts = cert.subject.split('\n').map(l => l.split('=')) as [string, string][];
  const cn = parts.find(([k]) => k === 'CN')?.[1] ?? '';
  const groups = parts.filter(([k]) => k === 'O').map(([, v]) => v);
  return { name: cn, groups: [...groups, AUTHENTICATED] };
}
