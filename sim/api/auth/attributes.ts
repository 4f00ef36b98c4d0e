// A request as the authorizer sees it (k8s.io/apiserver RequestInfo → Attributes): the
// verb from the method (GET on a collection is list, ?watch makes it watch, DELETE on a
// collection is deletecollection), group, resource, subresource, namespace and name; any
// other path is a non-resource request whose verb is the lower-cased method.

import type { Route } from '../router.ts';
import { boolParam } from '../params.ts';
import type { Attributes } from './rbac.ts';
import type { UserInfo } from './identity.ts';

export function requestAttributes(user: UserInfo, r: Route, method: string, pathname: string, query: URLSearchParams): Attributes {
  if (r.kind !== 'resource') return { user, verb: method.toLowerCase(), resourceRequest: false, path: pathname };
  const watch = r.watchPath || boolParam(query, 'watch');
  const named = r.name !== undefined;
  let verb: string;
  switch (method) {
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = named ? 'delete' : 'deletecollection';
      break;
    default:
      verb = watch ? 'watch' : named ? 'get' : 'list';
  }
  // RequestInfo: a namespace object's own requests are "in" that namespace.
  const namespace = r.rt.resource === 'namespaces' && r.rt.group === '' ? r.name : r.namespace;
  return { user, verb, resourceRequest: true, apiGroup: r.rt.group, resource: r.rt.resource, subresource: r.subresource, namespace, name: r.name };
}
