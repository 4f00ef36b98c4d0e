// Pod Security admission (the PodSecurity plugin): each namespace's levels come from its
// pod-security.kubernetes.io/<mode>[-version] labels, else from the profile's defaults
// (the AdmissionConfiguration's), with its exemptions by username, RuntimeClass and
// namespace. Pods are refused at the enforce level (403, upstream's message); pods and
// workload templates get Warning headers at the warn level; workloads are never refused.
// The optional "enforce floor" models a cluster policy (a ValidatingAdmissionPolicy, as
// hardened clusters add) that refuses namespace labels weaker than the default.

import type { V1PodSpec, V1PodTemplateSpec } from '@kubernetes/client-node';
import type { Profile, PodSecurityConfig } from '../../profiles/types.ts';
import { StoreError, type Admission, type KubeObject, type Store } from '../store.ts';
import { addWarning, currentRequest } from '../requestContext.ts';
import { describeViolations, evaluatePodSpec, LEVELS, type Level } from './podSecurityChecks.ts';

export const LABEL_PREFIX = 'pod-security.kubernetes.io/';
const MODES = ['enforce', 'audit', 'warn'] as const;
type Mode = (typeof MODES)[number];

/** Workload kinds whose pod template is checked (warnings only), by store bucket. */
const TEMPLATES: Record<string, (o: KubeObject) => V1PodTemplateSpec | undefined> = {
  'deployments.apps': o => (o.spec as { template?: V1PodTemplateSpec } | undefined)?.template,
  'replicasets.apps': o => (o.spec as { template?: V1PodTemplateSpec } | undefined)?.template,
  'daemonsets.apps': o => (o.spec as { template?: V1PodTemplateSpec } | undefined)?.template,
  'statefulsets.apps': o => (o.spec as { template?: V1PodTemplateSpec } | undefined)?.template,
  'jobs.batch': o => (o.spec as { template?: V1PodTemplateSpec } | undefined)?.template,
};

export const FLOOR_POLICY = 'pod-security-floor';

interface ModePolicy {
  level: Level;
  version: string;
}

const isLevel = (v: string | undefined): v is Level => !!v && (LEVELS as string[]).includes(v);

const VERSION = /^(latest|v1\.([0-9]|[1-9][0-9]*))$/;

/**
 * A mode's level and version for a namespace: its labels, else the defaults, else privileged:latest.
 * As upstream's ParseLevel/ParseVersion, a malformed label fails closed: restricted, latest.
 */
function policyFor(mode: Mode, labels: Record<string, string>, config: PodSecurityConfig): ModePolicy {
  const level = labels[LABEL_PREFIX + mode];
  const version = labels[`${LABEL_PREFIX}${mode}-version`];
  const defaults = config.defaults ?? {};
  const levelOf = (l: string | undefined, fallback: Level): Level => (l === undefined ? fallback : isLevel(l) ? l : 'restricted');
  const versionOf = (v: string | undefined, fallback: string) => (v === undefined ? fallback : VERSION.test(v) ? v : 'latest');
  return { level: levelOf(level, defaults[mode] ?? 'privileged'), version: versionOf(version, defaults[`${mode}-version`] ?? 'latest') };
}

/** Namespace create/update: malformed pod-security labels are refused (422), as upstream's ValidateNamespace does. */
function checkLabels(ns: KubeObject): void {
  const causes: { reason: string; message: string; field: string }[] = [];
  for (const mode of MODES) {
    const level = ns.metadata.labels?.[LABEL_PREFIX + mode];
    const version = ns.metadata.labels?.[`${LABEL_PREFIX}${mode}-version`];
    if (level !== undefined && !isLevel(level))
      causes.push({
        reason: 'FieldValueInvalid',
        field: `metadata.labels[${LABEL_PREFIX}${mode}]`,
        message: `Invalid value: ${JSON.stringify(level)}: must be one of privileged, baseline, restricted`,
      });
    if (version !== undefined && !VERSION.test(version))
      causes.push({
        reason: 'FieldValueInvalid',
        field: `metadata.labels[${LABEL_PREFIX}${mode}-version]`,
        message: `Invalid value: ${JSON.stringify(version)}: must be "latest" or "v1.x"`,
      });
  }
  if (!causes.length) return;
  const detail = causes.map(c => `${c.field}: ${c.message}`);
  throw new StoreError(422, 'Invalid', `Namespace "${ns.metadata.name}" is invalid: ${detail.length > 1 ? `[${detail.join(', ')}]` : detail[0]}`, {
    name: ns.metadata.name,
    kind: 'Namespace',
    causes,
  });
}

/** The minor version a policy version evaluates at: latest (or newer than the server) is the server's. */
function policyMinor(version: string, serverMinor: number): number {
  const m = /^v1\.(\d+)$/.exec(version);
  return m ? Math.min(Number(m[1]), serverMinor) : serverMinor;
}

const rank = (l: Level) => LEVELS.indexOf(l);

export function podSecurityAdmission(store: Store, profile: Profile): Admission {
  const config = profile.podSecurity ?? {};
  const serverMinor = Number(/^v?1\.(\d+)/.exec(profile.kubernetesVersion)?.[1] ?? '33');
  const exemptNamespaces = config.exemptions?.namespaces ?? ['kube-system'];

  return (bucket, op, obj) => {
    if (bucket === 'namespaces') {
      if (op === 'create' || op === 'update') {
        checkLabels(obj);
        if (config.enforceFloor) checkFloor(obj, config);
      }
      return obj;
    }
    const isPod = bucket === 'pods';
    if (!(isPod ? op === 'create' : TEMPLATES[bucket] && (op === 'create' || op === 'update'))) return obj;
    const spec = (isPod ? obj.spec : TEMPLATES[bucket](obj)?.spec) as V1PodSpec | undefined;
    const ns = obj.metadata.namespace;
    if (!spec || !ns || exemptNamespaces.includes(ns)) return obj;
    const user = currentRequest()?.user.name;
    if (user && config.exemptions?.usernames?.includes(user)) return obj;
    if (spec.runtimeClassName && config.exemptions?.runtimeClasses?.includes(spec.runtimeClassName)) return obj;
    const labels = store.tryGet('namespaces', undefined, ns)?.metadata.labels ?? {};

    if (isPod) {
      const enforce = policyFor('enforce', labels, config);
      const violations = evaluatePodSpec(enforce.level, policyMinor(enforce.version, serverMinor), spec);
      if (violations.length) {
        throw new StoreError(
          403,
          'Forbidden',
          `pods "${obj.metadata.name}" is forbidden: violates PodSecurity "${enforce.level}:${enforce.version}": ${describeViolations(violations)}`,
          { name: obj.metadata.name, kind: 'pods' },
        );
      }
    }
    const warn = policyFor('warn', labels, config);
    const warnings = evaluatePodSpec(warn.level, policyMinor(warn.version, serverMinor), spec);
    if (warnings.length) addWarning(`would violate PodSecurity "${warn.level}:${warn.version}": ${describeViolations(warnings)}`);
    return obj;
  };
}

function checkFloor(ns: KubeObject, config: PodSecurityConfig): void {
  const floor = config.defaults?.enforce ?? 'privileged';
  const level = ns.metadata.labels?.[`${LABEL_PREFIX}enforce`];
  if (!isLevel(level) || rank(level) >= rank(floor)) return;
  throw new StoreError(
    403,
    'Forbidden',
    `namespaces "${ns.metadata.name}" is forbidden: ValidatingAdmissionPolicy '${FLOOR_POLICY}' with binding '${FLOOR_POLICY}' denied request: ` +
      `${LABEL_PREFIX}enforce may not be weaker than the cluster default "${floor}"`,
    { name: ns.metadata.name, kind: 'namespaces' },
  );
}
