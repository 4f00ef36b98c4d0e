// A container's environment as the kubelet builds it: service links, envFrom, env
// (literal, secretKeyRef, configMapKeyRef, fieldRef, resourceFieldRef) and $(VAR)
// expansion. Failures carry the kubelet's messages (CreateContainerConfigError).

import type { V1ConfigMap, V1Container, V1Pod, V1Secret, V1Service } from '@kubernetes/client-node';
import type { Store } from '../api/store.ts';
import { parseQuantity } from '../../util/quantity.ts';

/** A container config error: the container waits with reason CreateContainerConfigError. */
export class ContainerConfigError extends Error {}

export interface EnvContext {
  store: Store;
  pod: V1Pod;
  container: V1Container;
  podIP: string;
  hostIP: string;
  /** Node allocatable, used for resourceFieldRef limits when the container sets none. */
  allocatable: { cpu: number; memory: number };
  /** Supported behaviours broken on purpose for this (Windows) pod. */
  brokenSecretEnv?: boolean;
  brokenConfigMapEnv?: boolean;
}

const decode = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

function getSecret(store: Store, ns: string, name: string): V1Secret | undefined {
  return store.tryGet('secrets', ns, name) as unknown as V1Secret | undefined;
}
function getConfigMap(store: Store, ns: string, name: string): V1ConfigMap | undefined {
  return store.tryGet('configmaps', ns, name) as unknown as V1ConfigMap | undefined;
}

/** Docker-link style service variables (enableServiceLinks) plus KUBERNETES_SERVICE_*. */
function serviceEnv(ctx: EnvContext): Record<string, string> {
  const out: Record<string, string> = {};
  const ns = ctx.pod.metadata!.namespace!;
  const add = (svc: V1Service) => {
    const ip = svc.spec?.clusterIP;
    if (!ip || ip === 'None' || !svc.spec?.ports?.length) return;
    const base = svc.metadata!.name!.toUpperCase().replace(/-/g, '_');
    const p0 = svc.spec.ports[0];
    out[`${base}_SERVICE_HOST`] = ip;
    out[`${base}_SERVICE_PORT`] = String(p0.port);
    out[`${base}_PORT`] = `${(p0.protocol ?? 'TCP').toLowerCase()}://${ip}:${p0.port}`;
    for (const p of svc.spec.ports) {
      const proto = p.protocol ?? 'TCP';
      const k = `${base}_PORT_${p.port}_${proto}`;
      out[k] = `${proto.toLowerCase()}://${ip}:${p.port}`;
      out[`${k}_PROTO`] = proto.toLowerCase();
      out[`${k}_PORT`] = String(p.port);
      out[`${k}_ADDR`] = ip;
      if (p.name) out[`${base}_SERVICE_PORT_${p.name.toUpperCase().replace(/-/g, '_')}`] = String(p.port);
    }
  };
  try {
    if (ctx.pod.spec?.enableServiceLinks !== false) for (const s of ctx.store.scan('services', ns)) add(s as unknown as V1Service);
    const k = ctx.store.tryGet('services', 'default', 'kubernetes') as unknown as V1Service | undefined;
    if (k) add(k);
  } catch {
    /* services not served by this store */
  }
  return out;
}

/** Expands $(VAR) from vars; $$ escapes; unknown references stay as written (kubelet expansion rules). */
export function expandVars(s: string, vars: Record<string, string>): string {
  return s.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.:-]*)\)/g, (m, name: string | undefined) => {
    if (m === '$$') return '$';
    return name !== undefined && name in vars ? vars[name] : m;
  });
}

function fieldRef(path: string, ctx: EnvContext): string {
  const meta = ctx.pod.metadata!;
  const label = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(path);
  if (label) return (label[1] === 'labels' ? meta.labels : meta.annotations)?.[label[2]] ?? '';
  switch (path) {
    case 'metadata.name':
      return meta.name ?? '';
    case 'metadata.namespace':
      return meta.namespace ?? '';
    case 'metadata.uid':
      return meta.uid ?? '';
    case 'spec.nodeName':
      return ctx.pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return ctx.pod.spec?.serviceAccountName ?? 'default';
    case 'status.hostIP':
    case 'status.hostIPs':
      return ctx.hostIP;
    case 'status.podIP':
    case 'status.podIPs':
      return ctx.podIP;
    default:
      throw new ContainerConfigError(`unsupported fieldRef path ${path}`);
  }
}

function resourceField(resource: string, divisor: string | undefined, ctx: EnvContext, containerName?: string): string {
  const c = containerName ? (ctx.pod.spec!.containers.find(x => x.name === containerName) ?? ctx.container) : ctx.container;
  const [kind, what] = resource.split('.') as ['limits' | 'requests', string];
  const raw = c.resources?.[kind]?.[what];
  let v = parseQuantity(raw);
  if (v === undefined)
    v = what === 'cpu' ? (kind === 'limits' ? ctx.allocatable.cpu : 0) : what === 'memory' ? (kind === 'limits' ? ctx.allocatable.memory : 0) : 0;
  const d = parseQuantity(divisor) ?? 1;
  // The kubelet rounds up (ceil) so a 500m cpu limit with divisor 1 reads 1.
  return String(Math.ceil(v / d));
}

/**
 * The container's K8s environment (not the image's defaults), in definition order.
 * Throws ContainerConfigError with the kubelet's text for missing objects or keys.
 */
export function resolveEnv(ctx: EnvContext): Record<string, string> {
  const ns = ctx.pod.metadata!.namespace!;
  const env: Record<string, string> = { ...serviceEnv(ctx) };
  for (const from of ctx.container.envFrom ?? []) {
    const prefix = from.prefix ?? '';
    if (from.secretRef) {
      const s = getSecret(ctx.store, ns, from.secretRef.name!);
      if (!s) {
        if (from.secretRef.optional) continue;
        throw new ContainerConfigError(`secret "${from.secretRef.name}" not found`);
      }
      for (const [k, v] of Object.entries(s.data ?? {})) env[prefix + k] = ctx.brokenSecretEnv ? v : decode(v);
      for (const [k, v] of Object.entries(s.stringData ?? {})) env[prefix + k] = v;
    }
    if (from.configMapRef) {
      const cm = getConfigMap(ctx.store, ns, from.configMapRef.name!);
      if (!cm) {
        if (from.configMapRef.optional) continue;
        throw new ContainerConfigError(`configmap "${from.configMapRef.name}" not found`);
      }
      if (ctx.brokenConfigMapEnv) continue;
      for (const [k, v] of Object.entries(cm.data ?? {})) env[prefix + k] = v;
    }
  }
  for (const e of ctx.container.env ?? []) {
    const vf = e.valueFrom;
    if (!vf) {
      env[e.name] = expandVars(e.value ?? '', env);
      continue;
    }
    if (vf.secretKeyRef) {
      const ref = vf.secretKeyRef;
      const s = getSecret(ctx.store, ns, ref.name!);
      if (!s) {
        if (ref.optional) continue;
        throw new ContainerConfigError(`secret "${ref.name}" not found`);
      }
      const raw = s.data?.[ref.key];
      if (raw === undefined) {
        if (ref.optional) continue;
        throw new ContainerConfigError(`couldn't find key ${ref.key} in Secret ${ns}/${ref.name}`);
      }
      // breaks: secret-env hands the container the base64 text instead of the value.
      env[e.name] = ctx.brokenSecretEnv ? raw : decode(raw);
    } else if (vf.configMapKeyRef) {
      const ref = vf.configMapKeyRef;
      const cm = getConfigMap(ctx.store, ns, ref.name!);
      if (!cm) {
        if (ref.optional) continue;
        throw new ContainerConfigError(`configmap "${ref.name}" not found`);
      }
      const v = cm.data?.[ref.key] ?? (cm.binaryData?.[ref.key] !== undefined ? decode(cm.binaryData[ref.key]) : undefined);
      if (v === undefined) {
        if (ref.optional) continue;
        throw new ContainerConfigError(`couldn't find key ${ref.key} in ConfigMap ${ns}/${ref.name}`);
      }
      if (ctx.brokenConfigMapEnv) continue;
      env[e.name] = v;
    } else if (vf.fieldRef) {
      env[e.name] = fieldRef(vf.fieldRef.fieldPath, ctx);
    } else if (vf.resourceFieldRef) {
      env[e.name] = resourceField(vf.resourceFieldRef.resource, vf.resourceFieldRef.divisor as string | undefined, ctx, vf.resourceFieldRef.containerName);
    }
  }
  return env;
}
