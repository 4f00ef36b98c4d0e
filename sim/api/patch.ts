// PATCH bodies: JSON patch (RFC 6902), JSON merge patch (RFC 7386) and the strategic
// merge patch kubectl sends (lists merged by their patchMergeKey, $patch directives,
// $retainKeys, $setElementOrder, $deleteFromPrimitiveList).

import fastJsonPatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { ApiError } from './status.ts';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObj = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export function applyJsonPatch<T>(doc: T, ops: unknown): T {
  if (!Array.isArray(ops)) throw new ApiError(400, 'BadRequest', 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  try {
    return fastJsonPatch.applyPatch(structuredClone(doc), ops as Operation[], true, false).newDocument;
  } catch (e) {
    const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
    // The real server answers 422 for a failed test op / missing path, 400 for a malformed patch.
    throw new ApiError(422, 'Invalid', `the server rejected our request due to an error in our request: ${msg}`);
  }
}

export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch)) return structuredClone(patch);
  const out: JsonObject = isObj(target) ? structuredClone(target) : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v) as Json;
  }
  return out;
}

/**
 * Merge keys of the lists the strategic merge patch merges (from the upstream Go
 * struct tags). Lists not named here are replaced, as for atomic lists (tolerations,
 * args, command, envFrom, node taints...). `ports` depends on the parent: containerPort
 * in containers, port in Services.
 */
const MERGE_KEYS: Record<string, string | ((items: JsonObject[]) => string)> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
  conditions: 'type',
  addresses: 'type',
  ownerReferences: 'uid',
  ports: items => (items.some(i => 'containerPort' in i) ? 'containerPort' : 'port'),
  secrets: 'name', // ServiceAccount.secrets
};

/** Primitive lists merged as sets. */
const MERGE_PRIMITIVE = new Set(['finalizers']);

function mergeKeyFor(field: string, items: JsonObject[]): string | undefined {
  const k = MERGE_KEYS[field];
  return typeof k === 'function' ? k(items) : k;
}

export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObj(patch))
    throw new ApiError(
      400,
      'BadRequest',
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    );
  return smpMap(isObj(target) ? target : {}, patch);
}

function smpMap(target: JsonObject, patch: JsonObject): Json {
  const directive = patch.$patch;
  if (directive === 'delete') return null;
  if (directive === 'replace') {
    const rest = { ...patch };
    delete rest.$patch;
    return stripDirectives(rest);
  }
  const out: JsonObject = structuredClone(target);
  const retain = Array.isArray(patch.$retainKeys) ? (patch.$retainKeys as Json[]).map(String) : undefined;
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys') continue;
    if (k.startsWith('$setElementOrder/')) continue; // order hints: ignored safely
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      if (Array.isArray(out[field]) && Array.isArray(v))
        out[field] = (out[field] as Json[]).filter(x => !(v as Json[]).some(d => JSON.stringify(d) === JSON.stringify(x)));
      continue;
    }
    if (v === null) {
      delete out[k];
      continue;
    }
    if (isObj(v)) {
      const merged = smpMap(isObj(out[k]) ? (out[k] as JsonObject) : {}, v);
      if (merged === null) delete out[k];
      else out[k] = merged;
    } else if (Array.isArray(v)) {
      out[k] = smpList(k, Array.isArray(out[k]) ? (out[k] as Json[]) : [], v);
    } else out[k] = v;
  }
  if (retain) for (const k of Object.keys(out)) if (!retain.includes(k)) delete out[k];
  return out;
}

function smpList(field: string, target: Json[], patch: Json[]): Json[] {
  // A {$patch: replace} element replaces the whole list with the rest of the patch.
  if (patch.some(p => isObj(p) && p.$patch === 'replace')) return patch.filter(p => !(isObj(p) && p.$patch === 'replace')).map(stripDirectives);
  if (MERGE_PRIMITIVE.has(field) && patch.every(p => !isObj(p))) {
    const out = [...target];
    for (const p of patch) if (!out.some(x => JSON.stringify(x) === JSON.stringify(p))) out.push(p);
    return out;
  }
  const objs = patch.filter(isObj);
  const key = objs.length === patch.length && objs.length > 0 ? mergeKeyFor(field, [...objs, ...target.filter(isObj)]) : undefined;
  if (!key) return patch.map(stripDirectives);
  const out: Json[] = structuredClone(target);
  for (const p of objs) {
    const idx = out.findIndex(t => isObj(t) && t[key] !== undefined && JSON.stringify(t[key]) === JSON.stringify(p[key]));
    if (p.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = smpMap(out[idx] as JsonObject, p) ?? out[idx];
    else out.push(stripDirectives(p));
  }
  return out;
}

function stripDirectives(v: Json): Json {
  if (Array.isArray(v)) return v.filter(x => !(isObj(x) && x.$patch === 'delete')).map(stripDirectives);
  if (!isObj(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === '$patch' || k === '$retainKeys' || k.startsWith('$setElementOrder/') || k.startsWith('$deleteFromPrimitiveList/')) continue;
    if (x === null) continue;
    out[k] = stripDirectives(x);
  }
  return out;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export function patchTypeOf(contentType: string | undefined): PatchType | undefined {
  const ct = (contentType ?? '').split(';')[0].trim().toLowerCase();
  switch (ct) {
    case 'application/json-patch+json':
      return 'json';
    case 'application/merge-patch+json':
      return 'merge';
    case 'application/strategic-merge-patch+json':
      return 'strategic';
    case 'application/apply-patch+yaml':
    case 'application/apply-patch+cbor':
      return 'apply';
    default:
      return undefined;
  }
}

/** Applies a patch of the given type to an object (apply = server-side apply, approximated by a strategic merge). */
export function applyPatch<T>(type: PatchType, current: T, body: unknown): T {
  switch (type) {
    case 'json':
      return applyJsonPatch(current, body);
    case 'merge':
      return mergePatch(current, body) as T;
    case 'strategic':
    case 'apply':
      return strategicMergePatch(current, body) as T;
  }
}
