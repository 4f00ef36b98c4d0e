// Subresources that are not plain CRUD: pods/log (streamed from the runtime),
// pods/binding, pods/eviction, nodes/proxy, metrics.k8s.io and the self-subject reviews.

import type { V1Pod, V1Binding, V1Eviction } from '@kubernetes/client-node';
import { StoreError, type KubeObject } from '../store.ts';
import type { LogRequest, SubresourceHandlers } from '../runtimeContract.ts';
import { ApiError, sendJSON, sendStatus, statusOf, successStatus, toStatus } from '../status.ts';
import { readObject, asKubeObject, type Ctx } from '../context.ts';
import { deleteOne } from './crud.ts';
import { matchesLabels, parseLabelSelector } from '../selectors.ts';
import { boolParam, int64Param } from '../params.ts';

function needHandlers(ctx: Ctx): SubresourceHandlers {
  const h = ctx.state.handlers;
  if (!h) throw new ApiError(503, 'ServiceUnavailable', 'the node runtime is not connected to the API server yet');
  return h;
}

/** The container a pod subresource is about: explicit, annotated default, or the only one. */
export function resolveContainer(pod: V1Pod, requested: string | undefined): string {
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? []), ...(pod.spec?.ephemeralContainers ?? [])].map(c => c.name);
  const name = pod.metadata?.name ?? '';
  if (requested) {
    if (!all.includes(requested)) throw new ApiError(400, 'BadRequest', `container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const def = pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'];
  if (def && all.includes(def)) return def;
  const main = (pod.spec?.containers ?? []).map(c => c.name);
  if (main.length === 1) return main[0];
  throw new ApiError(400, 'BadRequest', `a container name must be specified for pod ${name}, choose one of: [${main.join(' ')}]`);
}

export async function podLog(ctx: Ctx): Promise<void> {
  const { state, route, query, req, res } = ctx;
  const pod = state.store.get('pods', route.namespace, route.name!) as unknown as V1Pod;
  const container = resolveContainer(pod, query.get('container') ?? undefined);
  const h = needHandlers(ctx);
  const lr: LogRequest = {
    namespace: route.namespace!,
    pod: route.name!,
    container,
    follow: boolParam(query, 'follow'),
    previous: boolParam(query, 'previous'),
    tailLines: int64Param(query, 'tailLines'),
    sinceSeconds: int64Param(query, 'sinceSeconds'),
    timestamps: boolParam(query, 'timestamps'),
    limitBytes: int64Param(query, 'limitBytes'),
  };
  const ac = new AbortController();
  const end = () => ac.abort();
  state.closers.add(end);
  req.on('close', end);
  res.on('close', end);
  // Headers go out with the first byte, so a runtime error before any output is still a Status.
  let started = false;
  const origWrite = res.write.bind(res);
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!started) {
      started = true;
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
    }
    return (origWrite as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof res.write;
  try {
    await h.log(lr, res, ac.signal);
    if (!started) {
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': 0 });
    }
    res.end();
  } catch (e) {
    if (!started) sendStatus(res, toStatus(e));
    else res.end();
  } finally {
    state.closers.delete(end);
  }
}

export async function binding(ctx: Ctx): Promise<void> {
  const { state, route } = ctx;
  const b = asKubeObject(await readObject(ctx.req)) as unknown as V1Binding;
  const node = b.target?.name;
  if (!node)
    throw new ApiError(422, 'Invalid', `Binding.core "${route.name}" is invalid: target.name: Required value`, {
      causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'target.name' }],
    });
  state.store.mutate('pods', route.namespace, route.name!, o => {
    const spec = (o.spec ?? (o.spec = {})) as { nodeName?: string };
    if (spec.nodeName)
      throw new StoreError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on pods/binding "${route.name}": pod ${route.name} is already assigned to node "${spec.nodeName}"`,
        { name: route.name, kind: 'pods/binding' },
      );
    spec.nodeName = node;
    const status = (o.status ?? (o.status = {})) as { conditions?: { type: string; status: string; lastTransitionTime?: string }[] };
    status.conditions = (status.conditions ?? []).filter(c => c.type !== 'PodScheduled');
    status.conditions.push({ type: 'PodScheduled', status: 'True', lastTransitionTime: new Date().toISOString() });
  });
  sendJSON(ctx.res, 201, { ...successStatus(), code: 201 });
}

export async function eviction(ctx: Ctx): Promise<void> {
  const { state, route } = ctx;
  const ev = ((await readObject(ctx.req)) ?? {}) as V1Eviction;
  state.store.get('pods', route.namespace, route.name!);
  deleteOne(ctx, 'pods', route.namespace, route.name!, ev.deleteOptions ?? {});
  sendJSON(ctx.res, 201, { ...successStatus(), code: 201 });
}

export async function nodeProxy(ctx: Ctx): Promise<void> {
  const { state, route, req, res } = ctx;
  state.store.get('nodes', undefined, route.name!);
  if (req.method !== 'GET') throw new ApiError(405, 'MethodNotAllowed', 'the simulated kubelet only serves GET through the node proxy');
  const h = needHandlers(ctx);
  const qs = ctx.query.toString();
  const r = await h.nodeProxy(route.name!, (route.subpath ?? '') + (qs ? `?${qs}` : ''));
  const body = typeof r.body === 'string' ? Buffer.from(r.body) : r.body;
  res.writeHead(r.status, { 'Content-Type': r.contentType, 'Content-Length': body.length });
  res.end(body);
}

// --- metrics.k8s.io (served only with the metrics-server add-on) ---

export async function metrics(ctx: Ctx): Promise<void> {
  const { route, query } = ctx;
  if (ctx.req.method !== 'GET') throw new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
  const h = needHandlers(ctx);
  const isPods = route.rt.resource === 'pods';
  const fetch = isPods ? h.podMetrics?.(route.namespace) : h.nodeMetrics?.();
  let items = ((await fetch) ?? []) as KubeObject[];
  if (isPods && route.namespace) items = items.filter(o => o.metadata?.namespace === route.namespace);
  const sel = parseLabelSelector(query.get('labelSelector') ?? undefined);
  items = items.filter(o => matchesLabels(sel, o.metadata?.labels));
  const kind = isPods ? 'PodMetrics' : 'NodeMetrics';
  const withType = (o: KubeObject) => ({ ...o, kind, apiVersion: 'metrics.k8s.io/v1beta1' });
  if (route.name) {
    const o = items.find(x => x.metadata?.name === route.name);
    if (!o) {
      const id = isPods ? `${route.namespace}/${route.name}` : route.name;
      throw new ApiError(404, 'NotFound', `${isPods ? 'podmetrics' : 'nodemetrics'}.metrics.k8s.io "${id}" not found`, {
        name: route.name,
        group: 'metrics.k8s.io',
        kind: route.rt.resource,
      });
    }
    sendJSON(ctx.res, 200, withType(o));
    return;
  }
  sendJSON(ctx.res, 200, { kind: `${kind}List`, apiVersion: 'metrics.k8s.io/v1beta1', metadata: {}, items: items.map(withType) });
}

export function upgradeRequired(ctx: Ctx): void {
  sendStatus(ctx.res, statusOf(400, 'BadRequest', 'Upgrade request required'));
}
