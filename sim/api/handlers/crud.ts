// The generic REST verbs on a resource: get, list, create, update, patch, delete,
// deletecollection, and the status/scale/finalize subresources that reuse them.

import type { KubeObject } from '../store.ts';
import { StoreError } from '../store.ts';
import { apiVersionOf, type ResourceType } from '../resources.ts';
import { storageBucket, toExternal, toStorage } from '../convert.ts';
import { checkFieldSelector } from '../selectors.ts';
import { ApiError, sendJSON, successStatus } from '../status.ts';
import { toTable, wantsTable, labelSelectorString, type IncludeObject } from '../tables.ts';
import { applyPatch, patchTypeOf, type PatchType } from '../patch.ts';
import { unknownFields, strictMessage } from '../fieldcheck.ts';
import { asKubeObject, isDryRun, readObject, type Ctx } from '../context.ts';
import type { V1DeleteOptions, V1LabelSelector } from '@kubernetes/client-node';
import { int64Param, optionalBoolParam } from '../params.ts';

/** Resources whose PUT creates a missing object (AllowCreateOnUpdate upstream). */
const CREATE_ON_UPDATE = new Set(['endpoints', 'leases.coordination.k8s.io', 'events']);

const hasStatus = (rt: ResourceType) => (rt.subresources ?? []).includes('status');

/** events.k8s.io field names → the stored core form; a label the kind does not support is a 400. */
export function translateFieldSelector(rt: ResourceType, fs: string | undefined): string | undefined {
  const stored =
    !fs || rt.group !== 'events.k8s.io'
      ? fs
      : fs.replace(/(^|,)regarding\./g, '$1involvedObject.').replace(/(^|,)reportingController=/g, '$1reportingComponent=');
  checkFieldSelector(storageBucket(rt), stored);
  return stored;
}

function respond(ctx: Ctx, code: number, obj: KubeObject, headers: Record<string, string | string[]> = {}): void {
  if (wantsTable(ctx.req.headers.accept) && ctx.req.method === 'GET') {
    const include = (ctx.query.get('includeObject') as IncludeObject | null) ?? 'Metadata';
    sendJSON(ctx.res, code, toTable(ctx.route.rt, ctx.bucket, [obj], include, ctx.state.k8sMinor, { resourceVersion: obj.metadata.resourceVersion }), headers);
  } else sendJSON(ctx.res, code, obj, headers);
}

/** fieldValidation=Strict → 400 on unknown fields; Warn (kubectl's default for some verbs) → Warning headers. */
function checkFields(ctx: Ctx, obj: unknown): Record<string, string[]> {
  const mode = ctx.query.get('fieldValidation') ?? 'Warn';
  if (mode === 'Ignore') return {};
  const rt = ctx.route.rt;
  const unknown = unknownFields(apiVersionOf(rt), rt.kind, withoutDirectives(obj));
  if (!unknown.length) return {};
  if (mode === 'Strict') throw new ApiError(400, 'BadRequest', strictMessage(unknown));
  return { Warning: unknown.map(f => `299 - "unknown field \\"${f}\\""`) };
}

/** A strategic merge patch without its $patch / $setElementOrder / ... directives. */
function withoutDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutDirectives);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !k.startsWith('$'))
      .map(([k, x]) => [k, withoutDirectives(x)]),
  );
}

function checkBodyMeta(ctx: Ctx, o: KubeObject): void {
  const rt = ctx.route.rt;
  if (o.kind && o.kind !== rt.kind) {
    throw new ApiError(400, 'BadRequest', `the API version in the data (${o.apiVersion}) does not match the expected API version (${apiVersionOf(rt)})`);
  }
  if (rt.namespaced) {
    if (o.metadata.namespace && ctx.route.namespace && o.metadata.namespace !== ctx.route.namespace)
      throw new ApiError(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
    if (ctx.route.namespace) o.metadata.namespace = ctx.route.namespace;
  }
}

export function get(ctx: Ctx): void {
  const { state, route, bucket } = ctx;
  respond(ctx, 200, toExternal(route.rt, state.store.get(bucket, route.namespace, route.name!)));
}

/** What a continue token carries: the last key served and the list's resourceVersion (as etcd3's continue key). */
interface Continue {
  key: string;
  rv: string;
}

const encodeContinue = (c: Continue) => Buffer.from(JSON.stringify(c)).toString('base64url');

// Chunked lists as kube-apiserver serves them: limit, continue, remainingItemCount, and 410
// Expired once the list's revision is compacted, with a fresh token to go on inconsistently
// (https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks).
export function list(ctx: Ctx): void {
  const { state, route, bucket, query } = ctx;
  const rt = route.rt;
  const fieldSelector = translateFieldSelector(rt, query.get('fieldSelector') ?? undefined);
  const meta: { resourceVersion: string; continue?: string; remainingItemCount?: number } = { resourceVersion: state.store.currentRV() };
  const token = query.get('continue');
  let after: string | undefined;
  if (token) {
    let c: Continue;
    try {
      c = JSON.parse(Buffer.from(token, 'base64url').toString()) as Continue;
    } catch {
      throw new ApiError(400, 'BadRequest', 'continue key is not valid: illegal base64 data');
    }
    if (typeof c?.key !== 'string' || !/^(-1|\d+)$/.test(String(c.rv)))
      throw new ApiError(400, 'BadRequest', 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
    // rv -1: the token of an expired continue, which goes on at the latest revision (inconsistently).
    if (c.rv !== '-1' && !state.store.continuable(Number(c.rv))) {
      throw new ApiError(
        410,
        'Expired',
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
        undefined,
        { continue: encodeContinue({ key: c.key, rv: '-1' }) },
      );
    }
    after = c.key;
    if (c.rv !== '-1') meta.resourceVersion = c.rv;
  }
  const limit = int64Param(query, 'limit') ?? 0;
  const page = state.store.listPage(bucket, {
    namespace: route.namespace,
    labelSelector: query.get('labelSelector') ?? undefined,
    fieldSelector,
    after,
    limit,
  });
  if (page.remaining > 0 && page.lastKey !== undefined) {
    meta.remainingItemCount = page.remaining;
    meta.continue = encodeContinue({ key: page.lastKey, rv: meta.resourceVersion });
  }
  const ext = page.items.map(o => toExternal(rt, o));
  if (wantsTable(ctx.req.headers.accept)) {
    const include = (query.get('includeObject') as IncludeObject | null) ?? 'Metadata';
    sendJSON(ctx.res, 200, toTable(rt, bucket, ext, include, state.k8sMinor, meta));
    return;
  }
  sendJSON(ctx.res, 200, { kind: rt.listKind, apiVersion: apiVersionOf(rt), metadata: meta, items: ext });
}

export async function create(ctx: Ctx): Promise<void> {
  const { state, route, bucket, query } = ctx;
  const body = asKubeObject(await readObject(ctx.req));
  checkBodyMeta(ctx, body);
  const headers = checkFields(ctx, body);
  const created = state.store.create(bucket, toStorage(route.rt, body), { dryRun: isDryRun(query) });
  respond(ctx, 201, toExternal(route.rt, created), headers);
}

/** Status-subresource semantics: the main resource ignores status, /status only changes status. */
function mergeForSubresource(rt: ResourceType, sub: string | undefined, next: KubeObject, old: KubeObject): KubeObject {
  if (sub === 'status')
    return {
      ...old,
      status: next.status,
      metadata: {
        ...old.metadata,
        resourceVersion: next.metadata.resourceVersion,
        labels: next.metadata.labels ?? old.metadata.labels,
        annotations: next.metadata.annotations ?? old.metadata.annotations,
      },
    };
  if (sub === 'finalize')
    return {
      ...old,
      spec: { ...(old.spec as object), finalizers: (next.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [] },
      metadata: { ...old.metadata, resourceVersion: next.metadata.resourceVersion },
    };
  if (sub === 'ephemeralcontainers')
    return {
      ...old,
      spec: { ...(old.spec as object), ephemeralContainers: (next.spec as { ephemeralContainers?: unknown[] } | undefined)?.ephemeralContainers },
      metadata: { ...old.metadata, resourceVersion: next.metadata.resourceVersion },
    };
  if (hasStatus(rt) && rt.resource !== 'namespaces' && old.status !== undefined) return { ...next, status: old.status };
  return next;
}

export async function update(ctx: Ctx): Promise<void> {
  const { state, route, bucket, query } = ctx;
  const rt = route.rt;
  const body = asKubeObject(await readObject(ctx.req));
  checkBodyMeta(ctx, body);
  if (body.metadata.name && body.metadata.name !== route.name)
    throw new ApiError(400, 'BadRequest', `the name of the object (${body.metadata.name}) does not match the name on the URL (${route.name})`);
  body.metadata.name = route.name;
  const headers = checkFields(ctx, body);
  const dryRun = isDryRun(query);
  const old = state.store.tryGet(bucket, route.namespace, route.name!);
  if (!old) {
    if (CREATE_ON_UPDATE.has(bucket) && !route.subresource) {
      respond(ctx, 201, toExternal(rt, state.store.create(bucket, toStorage(rt, body), { dryRun })), headers);
      return;
    }
    throw new StoreError(404, 'NotFound', `${rt.resource}${rt.group ? '.' + rt.group : ''} "${route.name}" not found`, {
      name: route.name,
      group: rt.group,
      kind: rt.resource,
    });
  }
  const next = mergeForSubresource(rt, route.subresource, toStorage(rt, body), old);
  const updated = state.store.update(bucket, next, { dryRun });
  respond(ctx, 200, toExternal(rt, updated), headers);
}

/** Reads, patches and writes back, retrying when someone else wrote in between (as the real server does). */
export function patchObject(ctx: Ctx, type: PatchType, body: unknown, sub?: string): KubeObject {
  const { state, route, bucket, query } = ctx;
  const rt = route.rt;
  const dryRun = isDryRun(query);
  for (let attempt = 0; ; attempt++) {
    const cur = state.store.get(bucket, route.namespace, route.name!);
    const ext = toExternal(rt, cur);
    const patched = asKubeObject(applyPatch(type, ext, body));
    patched.metadata.name = route.name;
    if (rt.namespaced) patched.metadata.namespace = route.namespace;
    const explicitRV = patched.metadata.resourceVersion !== cur.metadata.resourceVersion;
    if (!explicitRV) patched.metadata.resourceVersion = cur.metadata.resourceVersion;
    const next = mergeForSubresource(rt, sub, toStorage(rt, patched), cur);
    try {
      return state.store.update(bucket, next, { dryRun });
    } catch (e) {
      if (e instanceof StoreError && e.code === 409 && !explicitRV && attempt < 5) continue;
      throw e;
    }
  }
}

export async function patch(ctx: Ctx): Promise<void> {
  const { state, route, bucket, query } = ctx;
  const rt = route.rt;
  const type = patchTypeOf(ctx.req.headers['content-type']);
  if (!type)
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json`,
    );
  const body = await readObject(ctx.req);
  if (type === 'apply' && !query.get('fieldManager'))
    throw new ApiError(400, 'BadRequest', 'PATCH, application/apply-patch+yaml requests must have a fieldManager query parameter');
  const headers = type !== 'json' ? checkFields(ctx, body) : {};
  // Server-side apply creates what does not exist yet.
  if (type === 'apply' && !route.subresource && !state.store.tryGet(bucket, route.namespace, route.name!)) {
    const o = asKubeObject(body);
    checkBodyMeta(ctx, o);
    if (o.metadata.name && o.metadata.name !== route.name)
      throw new ApiError(400, 'BadRequest', `the name of the object (${o.metadata.name}) does not match the name on the URL (${route.name})`);
    o.metadata.name = route.name;
    respond(ctx, 201, toExternal(rt, state.store.create(bucket, toStorage(rt, o), { dryRun: isDryRun(query) })), headers);
    return;
  }
  respond(ctx, 200, toExternal(rt, patchObject(ctx, type, body, route.subresource)), headers);
}

async function deleteOptions(ctx: Ctx): Promise<V1DeleteOptions> {
  const body = await readObject(ctx.req);
  const opts: V1DeleteOptions = (body && typeof body === 'object' ? body : {}) as V1DeleteOptions;
  const q = ctx.query;
  const grace = int64Param(q, 'gracePeriodSeconds');
  if (grace !== undefined) opts.gracePeriodSeconds = grace;
  if (q.has('propagationPolicy')) opts.propagationPolicy = q.get('propagationPolicy')!;
  if (q.getAll('dryRun').includes('All')) opts.dryRun = ['All'];
  const orphan = optionalBoolParam(q, 'orphanDependents');
  if (orphan !== undefined) opts.orphanDependents = orphan;
  return opts;
}

/**
 * Deletes one object as the API server does: Orphan and Foreground add the orphan /
 * foregroundDeletion finalizer and only mark the object; the garbage collector
 * (sim/controllers) then handles the dependents. Background deletes at once.
 */
export function deleteOne(ctx: Ctx, bucket: string, namespace: string | undefined, name: string, opts: V1DeleteOptions): KubeObject {
  const policy = opts.propagationPolicy ?? (opts.orphanDependents === true ? 'Orphan' : undefined);
  if (policy && !['Orphan', 'Foreground', 'Background'].includes(policy)) {
    throw new ApiError(
      422,
      'Invalid',
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`,
      { causes: [{ reason: 'FieldValueNotSupported', message: `Unsupported value: "${policy}"`, field: 'propagationPolicy' }] },
    );
  }
  return ctx.state.store.delete(bucket, namespace, name, {
    dryRun: (opts.dryRun ?? []).includes('All'),
    gracePeriodSeconds: opts.gracePeriodSeconds,
    preconditions: opts.preconditions ? { uid: opts.preconditions.uid, resourceVersion: opts.preconditions.resourceVersion } : undefined,
    addFinalizers: policy === 'Orphan' ? ['orphan'] : policy === 'Foreground' ? ['foregroundDeletion'] : undefined,
  });
}

export async function remove(ctx: Ctx): Promise<void> {
  const { state, route, bucket } = ctx;
  const rt = route.rt;
  const opts = await deleteOptions(ctx);
  const res = deleteOne(ctx, bucket, route.namespace, route.name!, opts);
  const dryRun = (opts.dryRun ?? []).includes('All');
  // Still there (graceful deletion, finalizers): the object; gone: a Success Status, as upstream.
  if (dryRun || state.store.tryGet(bucket, route.namespace, route.name!)) {
    sendJSON(ctx.res, 200, toExternal(rt, res));
  } else {
    sendJSON(ctx.res, 200, successStatus({ name: route.name, group: rt.group, kind: rt.resource, uid: res.metadata.uid }));
  }
}

export async function removeCollection(ctx: Ctx): Promise<void> {
  const { state, route, bucket, query } = ctx;
  const rt = route.rt;
  const opts = await deleteOptions(ctx);
  const { items } = state.store.list(bucket, {
    namespace: route.namespace,
    labelSelector: query.get('labelSelector') ?? undefined,
    fieldSelector: translateFieldSelector(rt, query.get('fieldSelector') ?? undefined),
  });
  const out: KubeObject[] = [];
  for (const o of items) {
    try {
      out.push(toExternal(rt, deleteOne(ctx, bucket, o.metadata.namespace, o.metadata.name!, opts)));
    } catch (e) {
      if (!(e instanceof StoreError && e.code === 404)) throw e;
    }
  }
  sendJSON(ctx.res, 200, { kind: rt.listKind, apiVersion: apiVersionOf(rt), metadata: { resourceVersion: state.store.currentRV() }, items: out });
}

// --- scale subresource (autoscaling/v1 Scale) ---

function toScale(o: KubeObject): object {
  const spec = (o.spec ?? {}) as { replicas?: number; selector?: V1LabelSelector };
  const status = (o.status ?? {}) as { replicas?: number };
  const sel = labelSelectorString(spec.selector);
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: o.metadata.name,
      namespace: o.metadata.namespace,
      uid: o.metadata.uid,
      resourceVersion: o.metadata.resourceVersion,
      creationTimestamp: o.metadata.creationTimestamp,
    },
    spec: { replicas: spec.replicas ?? 1 },
    status: { replicas: status.replicas ?? 0, selector: sel === '<none>' ? '' : sel },
  };
}

export async function scale(ctx: Ctx): Promise<void> {
  const { state, route, bucket, query } = ctx;
  const cur = state.store.get(bucket, route.namespace, route.name!);
  const method = ctx.req.method;
  if (method === 'GET') {
    sendJSON(ctx.res, 200, toScale(cur));
    return;
  }
  let desired: { spec?: { replicas?: number }; metadata?: { resourceVersion?: string } };
  if (method === 'PUT') desired = (await readObject(ctx.req)) as typeof desired;
  else if (method === 'PATCH') {
    const type = patchTypeOf(ctx.req.headers['content-type']);
    if (!type) throw new ApiError(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format');
    desired = applyPatch(type, toScale(cur), await readObject(ctx.req)) as typeof desired;
  } else throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  const replicas = desired?.spec?.replicas;
  if (typeof replicas !== 'number' || replicas < 0) {
    throw new ApiError(
      422,
      'Invalid',
      `Scale.autoscaling "${route.name}" is invalid: spec.replicas: Invalid value: ${replicas}: must be greater than or equal to 0`,
      {
        name: route.name,
        group: 'autoscaling',
        kind: 'Scale',
        causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${replicas}: must be greater than or equal to 0`, field: 'spec.replicas' }],
      },
    );
  }
  const next = { ...cur, spec: { ...(cur.spec as object), replicas } };
  if (desired.metadata?.resourceVersion) next.metadata = { ...cur.metadata, resourceVersion: desired.metadata.resourceVersion };
  const updated = state.store.update(bucket, next, { dryRun: isDryRun(query) });
  sendJSON(ctx.res, 200, toScale(updated));
}
