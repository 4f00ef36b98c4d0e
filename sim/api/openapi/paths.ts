// The REST paths of each served resource as the API server publishes them in
// OpenAPI: collection and item paths with their operations, the GVK and action
// extensions, and the query parameters (fieldValidation on PATCH/PUT/POST is what
// tells kubectl to leave validation to the server).

import { RESOURCES, type ResourceType } from '../resources.ts';
import type { GVK } from './definitions.ts';

export type Verb = 'get' | 'put' | 'post' | 'delete' | 'patch';

export interface Param {
  name: string;
  in: 'query' | 'path' | 'body';
  description: string;
  required?: boolean;
  type?: string;
  uniqueItems?: boolean;
}

export interface Operation {
  operationId: string;
  description: string;
  tags: string[];
  consumes?: string[];
  produces: string[];
  parameters: Param[];
  /** Definition name of the request body, if any. */
  body?: string;
  /** Definition name of the 200 response. */
  response: string;
  action: string;
  gvk: GVK;
}

export interface PathItem {
  path: string;
  parameters: Param[];
  ops: Partial<Record<Verb, Operation>>;
}

const q = (name: string, description: string, type = 'string'): Param => ({ name, in: 'query', description, type, uniqueItems: true });

const DRY_RUN = q(
  'dryRun',
  'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
);
const FIELD_MANAGER = q('fieldManager', 'fieldManager is a name associated with the actor or entity that is making these changes.');
const FIELD_VALIDATION = q(
  'fieldValidation',
  'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore - Warn - Strict',
);
const FORCE = q(
  'force',
  'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
  'boolean',
);
const PRETTY = q('pretty', "If 'true', then the output is pretty printed.");
const WATCH = q('watch', 'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications.', 'boolean');
const LABEL_SELECTOR = q('labelSelector', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.');
const FIELD_SELECTOR = q('fieldSelector', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.');
const RESOURCE_VERSION = q('resourceVersion', 'resourceVersion sets a constraint on what resource versions a request may be served from.');
const GRACE = q('gracePeriodSeconds', 'The duration in seconds before the object should be deleted.', 'integer');
const PROPAGATION = q(
  'propagationPolicy',
  "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan', 'Foreground', 'Background'.",
);

const path = (name: string, description: string): Param => ({ name, in: 'path', description, required: true, type: 'string', uniqueItems: true });

export const PATCH_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];
const PRODUCES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** "CoreV1", "AppsV1", "NetworkingV1" (operation ids and tags). */
function opPrefix(r: ResourceType): string {
  const g = r.group ? r.group.split('.')[0] : 'core';
  return g.charAt(0).toUpperCase() + g.slice(1) + r.version.charAt(0).toUpperCase() + r.version.slice(1);
}

function tag(r: ResourceType): string {
  const g = r.group ? r.group.split('.')[0] : 'core';
  return `${g}_${r.version}`;
}

/** URL prefix of a group version: "/api/v1", "/apis/apps/v1". */
export function gvPrefix(r: Pick<ResourceType, 'group' | 'version'>): string {
  return r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
}

/** Paths of one resource; kindDef/listDef are definition names. */
export function resourcePaths(r: ResourceType, kindDef: string, listDef: string | undefined): PathItem[] {
  const verbs = new Set(r.verbs ?? []);
  const ns = r.namespaced ? 'Namespaced' : '';
  const pre = opPrefix(r);
  const base = gvPrefix(r) + (r.namespaced ? '/namespaces/{namespace}' : '') + `/${r.resource}`;
  const gvk: GVK = { group: r.group, kind: r.kind, version: r.version };
  const nsParam = r.namespaced ? [path('namespace', 'object name and auth scope, such as for teams and projects')] : [];
  const op = (verb: string, action: string, description: string, parameters: Param[], response: string, extra: Partial<Operation> = {}): Operation => ({
    operationId: `${verb}${pre}${ns}${r.kind}`,
    description,
    tags: [tag(r)],
    produces: PRODUCES,
    parameters,
    response,
    action,
    gvk,
    ...extra,
  });
  const writeParams = [DRY_RUN, FIELD_MANAGER, FIELD_VALIDATION];
  const items: PathItem[] = [];

  const collection: PathItem = { path: base, parameters: [...nsParam, PRETTY], ops: {} };
  if (verbs.has('list') && listDef)
    collection.ops.get = op('list', 'list', `list or watch objects of kind ${r.kind}`, [LABEL_SELECTOR, FIELD_SELECTOR, RESOURCE_VERSION, WATCH], listDef);
  if (verbs.has('create')) collection.ops.post = op('create', 'post', `create a ${r.kind}`, writeParams, kindDef, { body: kindDef, consumes: ['*/*'] });
  if (verbs.has('deletecollection'))
    collection.ops.delete = op(
      'deletecollection',
      'deletecollection',
      `delete collection of ${r.kind}`,
      [DRY_RUN, GRACE, PROPAGATION, LABEL_SELECTOR, FIELD_SELECTOR],
      'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
    );
  if (Object.keys(collection.ops).length) items.push(collection);

  const item: PathItem = { path: `${base}/{name}`, parameters: [path('name', `name of the ${r.kind}`), ...nsParam, PRETTY], ops: {} };
  if (verbs.has('get')) item.ops.get = op('read', 'get', `read the specified ${r.kind}`, [], kindDef);
  if (verbs.has('update')) item.ops.put = op('replace', 'put', `replace the specified ${r.kind}`, writeParams, kindDef, { body: kindDef, consumes: ['*/*'] });
  if (verbs.has('patch'))
    item.ops.patch = op('patch', 'patch', `partially update the specified ${r.kind}`, [...writeParams, FORCE], kindDef, {
      body: 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
      consumes: PATCH_TYPES,
    });
  if (verbs.has('delete'))
    item.ops.delete = op('delete', 'delete', `delete a ${r.kind}`, [DRY_RUN, GRACE, PROPAGATION], 'io.k8s.apimachinery.pkg.apis.meta.v1.Status');
  if (Object.keys(item.ops).length) items.push(item);

  if (r.namespaced && verbs.has('list') && listDef) {
    items.push({
      path: `${gvPrefix(r)}/${r.resource}`,
      parameters: [PRETTY],
      ops: {
        get: {
          ...op('list', 'list', `list or watch objects of kind ${r.kind}`, [LABEL_SELECTOR, FIELD_SELECTOR, RESOURCE_VERSION, WATCH], listDef),
          operationId: `list${pre}${r.kind}ForAllNamespaces`,
        },
      },
    });
  }
  for (const sub of r.subresources ?? []) {
    if (sub !== 'status') continue;
    const s: PathItem = { path: `${base}/{name}/status`, parameters: [path('name', `name of the ${r.kind}`), ...nsParam, PRETTY], ops: {} };
    s.ops.get = { ...op('read', 'get', `read status of the specified ${r.kind}`, [], kindDef), operationId: `read${pre}${ns}${r.kind}Status` };
    s.ops.put = {
      ...op('replace', 'put', `replace status of the specified ${r.kind}`, writeParams, kindDef, { body: kindDef, consumes: ['*/*'] }),
      operationId: `replace${pre}${ns}${r.kind}Status`,
    };
    s.ops.patch = {
      ...op('patch', 'patch', `partially update status of the specified ${r.kind}`, [...writeParams, FORCE], kindDef, {
        body: 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
        consumes: PATCH_TYPES,
      }),
      operationId: `patch${pre}${ns}${r.kind}Status`,
    };
    items.push(s);
  }
  return items;
}

export interface GroupVersionPaths {
  group: string;
  version: string;
  items: PathItem[];
  kinds: string[];
}

/** Paths grouped by group version, for the resources that have definitions. */
export function allPaths(kindDefs: Map<string, string>): GroupVersionPaths[] {
  const out: GroupVersionPaths[] = [];
  for (const r of RESOURCES) {
    const kindDef = kindDefs.get(`${r.group}/${r.version}/${r.kind}`);
    if (!kindDef) continue;
    const listDef = kindDefs.get(`${r.group}/${r.version}/${r.listKind}`);
    let gv = out.find(g => g.group === r.group && g.version === r.version);
    if (!gv) {
      gv = { group: r.group, version: r.version, items: [], kinds: [] };
      out.push(gv);
    }
    gv.items.push(...resourcePaths(r, kindDef, listDef));
    gv.kinds.push(kindDef, ...(listDef ? [listDef] : []));
  }
  return out;
}
