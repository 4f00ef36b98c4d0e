// Impersonation as client-go sends it
// (https://github.com/kubernetes/client-go/blob/master/transport/round_trippers.go, impersonatingRoundTripper):
// Impersonate-User, Impersonate-Uid, one Impersonate-Group header per group and one
// Impersonate-Extra-<key> header per value, the key percent-encoded where a header name cannot hold it.

export interface Impersonation {
  user: string;
  uid?: string;
  groups: string[];
  extra: Record<string, string[]>;
}

/** The kubeconfig user's as/as-uid/as-groups/as-user-extra, with kubectl's --as/--as-uid/--as-group over them. */
export function impersonationOf(
  user: { as?: string; 'as-uid'?: string; 'as-groups'?: string[]; 'as-user-extra'?: Record<string, string[]> },
  flags: { as?: string; asUid?: string; asGroups?: string[] } = {},
): Impersonation | undefined | string {
  const name = flags.as || user.as || '';
  const uid = flags.asUid || user['as-uid'] || undefined;
  const groups = flags.asGroups?.length ? flags.asGroups : (user['as-groups'] ?? []);
  const extra = user['as-user-extra'] ?? {};
  if (!name) {
    // rest.Config: groups, uid or extra without a user is refused.
    if (uid || groups.length || Object.keys(extra).length) return 'impersonating groups, a uid or user extras needs a user to impersonate (as: or --as)';
    return undefined;
  }
  return { user: name, uid, groups, extra };
}

export function impersonationHeaders(i: Impersonation | undefined): Record<string, string | string[]> {
  if (!i) return {};
  const h: Record<string, string | string[]> = { 'Impersonate-User': i.user };
  if (i.uid) h['Impersonate-Uid'] = i.uid;
  if (i.groups.length) h['Impersonate-Group'] = i.groups;
  for (const [k, v] of Object.entries(i.extra)) if (v.length) h[`Impersonate-Extra-${headerKeyEscape(k)}`] = v;
  return h;
}

// round_trippers.go headerKeyEscape: bytes that are not legal header-name characters, and '%', as %XX.
const LEGAL = /^[A-Za-z0-9!#$&'*+\-.^_`|~]$/;
export function headerKeyEscape(key: string): string {
  let out = '';
  for (const b of Buffer.from(key, 'utf8')) {
    const c = String.fromCharCode(b);
    out += b < 0x80 && LEGAL.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** How a report names it: "as system:serviceaccount:ns:sa (groups a, b)". */
export function describeImpersonation(i: Impersonation | undefined): string | undefined {
  if (!i) return undefined;
  return `as ${i.user}${i.groups.length ? ` (groups ${i.groups.join(', ')})` : ''}`;
}
