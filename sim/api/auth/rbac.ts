// The RBAC authorizer: Roles, ClusterRoles (with aggregationRule), RoleBindings and
// ClusterRoleBindings from the store, matched as k8s.io/apiserver's rbac/validation
// does, plus the privileged-group shortcut for system:masters. Also the 403 text the
// API server's authorization filter writes (forbiddenMessage) and the rules
// SelfSubjectRulesReview lists.

import type { V1ClusterRole, V1ClusterRoleBinding, V1PolicyRule, V1Role, V1RoleBinding, RbacV1Subject } from '@kubernetes/client-node';
import type { Store } from '../store.ts';
import { ApiError } from '../status.ts';
import { matchesLabels, structuredToRequirements } from '../selectors.ts';
import { ADMIN_GROUP } from '../certs.ts';
import { serviceAccountUserName, type UserInfo } from './identity.ts';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';
export const ROLES = `roles.${RBAC_GROUP}`;
export const ROLE_BINDINGS = `rolebindings.${RBAC_GROUP}`;
export const CLUSTER_ROLES = `clusterroles.${RBAC_GROUP}`;
export const CLUSTER_ROLE_BINDINGS = `clusterrolebindings.${RBAC_GROUP}`;

/** What authorization is asked about one request (k8s.io/apiserver authorizer.Attributes). */
export interface Attributes {
  user: UserInfo;
  verb: string;
  resourceRequest: boolean;
  apiGroup?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Non-resource requests: the URL path. */
  path?: string;
}

export interface Decision {
  allowed: boolean;
  reason: string;
}

const has = (list: string[] | undefined, v: string) => !!list && (list.includes('*') || list.includes(v));

function resourceMatches(rule: V1PolicyRule, resource: string, subresource: string | undefined): boolean {
  const combined = subresource ? `${resource}/${subresource}` : resource;
  return (rule.resources ?? []).some(r => r === '*' || r === combined || (subresource !== undefined && r === `*/${subresource}`));
}

export function ruleAllows(rule: V1PolicyRule, a: Omit<Attributes, 'user'>): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if (!a.resourceRequest) {
    return (rule.nonResourceURLs ?? []).some(u => u === '*' || u === a.path || (u.endsWith('*') && (a.path ?? '').startsWith(u.slice(0, -1))));
  }
  if (!has(rule.apiGroups, a.apiGroup ?? '')) return false;
  if (!resourceMatches(rule, a.resource ?? '', a.subresource)) return false;
  if (!rule.resourceNames?.length) return true;
  return !!a.name && rule.resourceNames.includes(a.name);
}

function subjectMatches(s: RbacV1Subject, user: UserInfo, bindingNamespace: string | undefined): boolean {
  switch (s.kind) {
    case 'User':
      return s.name === user.name;
    case 'Group':
      return user.groups.includes(s.name);
    case 'ServiceAccount':
      return user.name === serviceAccountUserName(s.namespace ?? bindingNamespace ?? '', s.name);
    default:
      return false;
  }
}

/** A ClusterRole's rules, aggregated roles included (what the aggregation controller writes). */
export function clusterRoleRules(store: Store, name: string, seen = new Set<string>()): V1PolicyRule[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const role = store.tryGet(CLUSTER_ROLES, undefined, name) as unknown as V1ClusterRole | undefined;
  if (!role) return [];
  const selectors = role.aggregationRule?.clusterRoleSelectors;
  if (!selectors?.length) return role.rules ?? [];
  const out: V1PolicyRule[] = [];
  for (const other of store.list(CLUSTER_ROLES).items) {
    const labels = other.metadata.labels;
    if (other.metadata.name === name || !selectors.some(sel => matchesLabels(structuredToRequirements(sel), labels))) continue;
    out.push(...clusterRoleRules(store, other.metadata.name!, seen));
  }
  return out;
}

interface Grant {
  rules: V1PolicyRule[];
  describe: string;
  namespace?: string;
}

/** Every rule set granted to the user: cluster-wide ones, and those of RoleBindings in `namespace`. */
function grants(store: Store, user: UserInfo, namespace: string | undefined): Grant[] {
  const out: Grant[] = [];
  for (const o of store.list(CLUSTER_ROLE_BINDINGS).items) {
    const b = o as unknown as V1ClusterRoleBinding;
    const subject = (b.subjects ?? []).find(s => subjectMatches(s, user, undefined));
    if (!subject || b.roleRef.kind !== 'ClusterRole') continue;
    out.push({
      rules: clusterRoleRules(store, b.roleRef.name),
      describe: `ClusterRoleBinding "${b.metadata?.name}" of ClusterRole "${b.roleRef.name}" to ${subject.kind} "${subject.name}"`,
    });
  }
  if (!namespace) return out;
  for (const o of store.list(ROLE_BINDINGS, { namespace }).items) {
    const b = o as unknown as V1RoleBinding;
    const subject = (b.subjects ?? []).find(s => subjectMatches(s, user, namespace));
    if (!subject) continue;
    const rules =
      b.roleRef.kind === 'ClusterRole'
        ? clusterRoleRules(store, b.roleRef.name)
        : ((store.tryGet(ROLES, namespace, b.roleRef.name) as unknown as V1Role | undefined)?.rules ?? []);
    out.push({
      rules,
      namespace,
      describe: `RoleBinding "${b.metadata?.name}/${namespace}" of ${b.roleRef.kind} "${b.roleRef.name}" to ${subject.kind} "${subject.name}"`,
    });
  }
  return out;
}

export function authorize(store: Store, a: Attributes): Decision {
  if (a.user.groups.includes(ADMIN_GROUP)) return { allowed: true, reason: '' };
  for (const g of grants(store, a.user, a.resourceRequest ? a.namespace : undefined)) {
    if (g.rules.some(r => ruleAllows(r, a))) return { allowed: true, reason: `RBAC: allowed by ${g.describe}` };
  }
  return { allowed: false, reason: '' };
}

/** The rules a SelfSubjectRulesReview lists for the user in a namespace. */
export function rulesFor(store: Store, user: UserInfo, namespace: string): { resourceRules: V1PolicyRule[]; nonResourceRules: V1PolicyRule[] } {
  const all = user.groups.includes(ADMIN_GROUP)
    ? [
        { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
        { verbs: ['*'], nonResourceURLs: ['*'] },
      ]
    : grants(store, user, namespace).flatMap(g => g.rules);
  const resourceRules = all
    .filter(r => r.resources?.length)
    .map(r => ({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, ...(r.resourceNames?.length ? { resourceNames: r.resourceNames } : {}) }));
  const nonResourceRules = all.filter(r => r.nonResourceURLs?.length).map(r => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs }));
  return { resourceRules, nonResourceRules };
}

/** The authorization filter's 403 (responsewriters.ForbiddenStatusError). */
export function forbidden(a: Attributes, reason = ''): ApiError {
  const user = a.user.name;
  let msg: string;
  if (!a.resourceRequest) msg = `User "${user}" cannot ${a.verb} path "${a.path}"`;
  else {
    const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
    msg = a.namespace
      ? `User "${user}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup ?? ''}" in the namespace "${a.namespace}"`
      : `User "${user}" cannot ${a.verb} resource "${resource}" in API group "${a.apiGroup ?? ''}" at the cluster scope`;
  }
  if (reason) msg += `: ${reason}`;
  if (!a.resourceRequest) return new ApiError(403, 'Forbidden', `forbidden: ${msg}`, {});
  const gr = a.apiGroup ? `${a.resource}.${a.apiGroup}` : a.resource!;
  const message = a.name ? `${gr} "${a.name}" is forbidden: ${msg}` : `${gr} is forbidden: ${msg}`;
  return new ApiError(403, 'Forbidden', message, { ...(a.name ? { name: a.name } : {}), ...(a.apiGroup ? { group: a.apiGroup } : {}), kind: a.resource });
}
