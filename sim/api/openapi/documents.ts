// The OpenAPI documents the API server serves: one v2 document for everything
// (/openapi/v2) and v3 documents per group version (/openapi/v3/api/v1 ...)
// listed by the /openapi/v3 index with content hashes.

import { createHash } from 'node:crypto';
import { closure, definitions, V2_REF, type Schema } from './definitions.ts';
import { allPaths, type Operation, type Param, type PathItem } from './paths.ts';

export type Json = Record<string, unknown>;

const STATUS = 'io.k8s.apimachinery.pkg.apis.meta.v1.Status';
const META_ROOTS = [
  STATUS,
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch',
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent',
];
const BEARER = { type: 'apiKey', description: 'Bearer Token authentication', name: 'authorization', in: 'header' };

function v2Param(p: Param): Json {
  const out: Json = { ...p };
  if (!p.required) delete out.required;
  return out;
}

function v2Operation(o: Operation): Json {
  const parameters: Json[] = o.parameters.map(v2Param);
  if (o.body) parameters.unshift({ name: 'body', in: 'body', required: true, schema: { $ref: V2_REF + o.body } });
  const out: Json = {
    description: o.description,
    consumes: o.consumes,
    produces: o.produces,
    schemes: ['https'],
    tags: o.tags,
    operationId: o.operationId,
    parameters,
    responses: { 200: { description: 'OK', schema: { $ref: V2_REF + o.response } }, 401: { description: 'Unauthorized' } },
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': o.gvk,
  };
  if (!o.consumes) delete out.consumes;
  return out;
}

function v2PathItem(p: PathItem): Json {
  const out: Json = {};
  for (const [verb, op] of Object.entries(p.ops)) out[verb] = v2Operation(op);
  out.parameters = p.parameters.map(v2Param);
  return out;
}

export function buildV2(k8sVersion: string): Json {
  const { defs, kinds } = definitions();
  const paths: Json = {};
  for (const gv of allPaths(kinds)) for (const item of gv.items) paths[item.path] = v2PathItem(item);
  const sorted: Record<string, Schema> = {};
  for (const name of Object.keys(defs).sort()) sorted[name] = defs[name];
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: k8sVersion },
    paths,
    definitions: sorted,
    securityDefinitions: { BearerToken: BEARER },
    security: [{ BearerToken: [] }],
  };
}

// --- v3 ---

const V3_REF = '#/components/schemas/';

/** A v2 schema in v3 form: component refs, and refs of described properties wrapped in allOf as the server does. */
function v3Schema(defs: Record<string, Schema>, s: Schema, isProperty = false): Json {
  const out: Json = { ...s };
  if (s.$ref) {
    const name = s.$ref.slice(V2_REF.length);
    const ref = V3_REF + name;
    if (isProperty) {
      delete out.$ref;
      out.allOf = [{ $ref: ref }];
      if (defs[name]?.type === 'object') out.default = {};
    } else out.$ref = ref;
  }
  if (s.items) out.items = v3Schema(defs, s.items);
  if (s.additionalProperties) out.additionalProperties = v3Schema(defs, s.additionalProperties);
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, v3Schema(defs, v, true)]));
  return out;
}

function v3Param(p: Param): Json {
  const out: Json = { name: p.name, in: p.in, description: p.description, schema: { type: p.type ?? 'string', uniqueItems: true } };
  if (p.required) out.required = true;
  return out;
}

const MEDIA = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

function v3Operation(o: Operation): Json {
  const ref = { $ref: V3_REF + o.response };
  const out: Json = {
    tags: o.tags,
    description: o.description,
    operationId: o.operationId,
    parameters: o.parameters.map(v3Param),
    responses: { 200: { description: 'OK', content: Object.fromEntries(MEDIA.map(m => [m, { schema: ref }])) }, 401: { description: 'Unauthorized' } },
    'x-kubernetes-action': o.action,
    'x-kubernetes-group-version-kind': o.gvk,
  };
  if (o.body) {
    const types = o.action === 'patch' ? (o.consumes ?? []) : ['*/*'];
    out.requestBody = { content: Object.fromEntries(types.map(t => [t, { schema: { $ref: V3_REF + o.body } }])), required: true };
  }
  return out;
}

export interface V3Docs {
  index: Json;
  /** Keyed by "api/v1", "apis/apps/v1". */
  docs: Map<string, { json: string; hash: string }>;
}

export function buildV3(k8sVersion: string): V3Docs {
  const { defs, kinds } = definitions();
  const docs = new Map<string, { json: string; hash: string }>();
  for (const gv of allPaths(kinds)) {
    const key = gv.group ? `apis/${gv.group}/${gv.version}` : `api/${gv.version}`;
    const paths: Json = {};
    for (const item of gv.items) {
      const p: Json = {};
      for (const [verb, op] of Object.entries(item.ops)) p[verb] = v3Operation(op);
      p.parameters = item.parameters.map(v3Param);
      paths[item.path] = p;
    }
    const schemas: Json = {};
    for (const name of [...closure(defs, [...gv.kinds, ...META_ROOTS])].sort()) schemas[name] = v3Schema(defs, defs[name]);
    const doc = {
      openapi: '3.0.0',
      info: { title: 'Kubernetes', version: k8sVersion },
      paths,
      components: { schemas, securitySchemes: { BearerToken: BEARER } },
      security: [{ BearerToken: [] }],
    };
    const json = JSON.stringify(doc);
    docs.set(key, { json, hash: createHash('sha512').update(json).digest('hex').slice(0, 128).toUpperCase() });
  }
  const paths: Json = {};
  for (const [key, d] of docs) paths[key] = { serverRelativeURL: `/openapi/v3/${key}?hash=${d.hash}` };
  return { index: { paths }, docs };
}
