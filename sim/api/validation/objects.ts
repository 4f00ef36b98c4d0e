// Per-kind semantic validation: object metadata (names, labels), workloads
// (selector vs template, template restart policy) and Services.

import type { V1DaemonSet, V1Deployment, V1Job, V1LabelSelector, V1ObjectMeta, V1Pod, V1PodTemplateSpec, V1Service } from '@kubernetes/client-node';
import type { KubeObject } from '../store.ts';
import { invalid, notSupported, required, type FieldError } from './errors.ts';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isLabelValue, isQualifiedName } from './names.ts';
import { podSpecErrors, podUpdateErrors, stable, type PodRules } from './pod.ts';

/** Which name syntax a kind's metadata.name follows (none: not validated here). */
const NAME_RULE: Record<string, ((v: string) => string[]) | null> = {
  namespaces: isDNS1123Label,
  services: isDNS1035Label,
  events: null,
  'events.events.k8s.io': null,
  'selfsubjectaccessreviews.authorization.k8s.io': null,
  'selfsubjectrulesreviews.authorization.k8s.io': null,
  'pods.metrics.k8s.io': null,
  'nodes.metrics.k8s.io': null,
};

export function metaErrors(bucket: string, meta: V1ObjectMeta | undefined): FieldError[] {
  const errs: FieldError[] = [];
  if (!meta) return [required('metadata')];
  const rule = bucket in NAME_RULE ? NAME_RULE[bucket] : isDNS1123Subdomain;
  if (rule && meta.name) for (const m of rule(meta.name)) errs.push(invalid('metadata.name', meta.name, m));
  for (const [k, v] of Object.entries(meta.labels ?? {})) {
    for (const m of isQualifiedName(k)) errs.push(invalid('metadata.labels', k, m));
    for (const m of isLabelValue(String(v))) errs.push(invalid('metadata.labels', v, m));
  }
  for (const k of Object.keys(meta.annotations ?? {})) {
    for (const m of isQualifiedName(k.toLowerCase())) errs.push(invalid('metadata.annotations', k, m));
  }
  return errs;
}

function selectorMatches(sel: V1LabelSelector, labels: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (labels[k] !== v) return false;
  for (const e of sel.matchExpressions ?? []) {
    const has = e.key in labels;
    const val = labels[e.key];
    switch (e.operator) {
      case 'In':
        if (!has || !(e.values ?? []).includes(val)) return false;
        break;
      case 'NotIn':
        if (has && (e.values ?? []).includes(val)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

interface Workload {
  spec?: { selector?: V1LabelSelector; template?: V1PodTemplateSpec; replicas?: number };
}

function workloadErrors(o: Workload, old: Workload | undefined, rules: PodRules, restart: string[]): FieldError[] {
  const errs: FieldError[] = [];
  const spec = o.spec;
  if (!spec) return [required('spec')];
  const labels = spec.template?.metadata?.labels ?? {};
  if (!spec.selector) errs.push(required('spec.selector'));
  else if (!Object.keys(spec.selector.matchLabels ?? {}).length && !(spec.selector.matchExpressions ?? []).length)
    errs.push(invalid('spec.selector', spec.selector, 'empty selector is invalid for deployment'));
  else if (!selectorMatches(spec.selector, labels)) errs.push(invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
  if (old?.spec?.selector && spec.selector && stable(old.spec.selector) !== stable(spec.selector))
    errs.push(invalid('spec.selector', spec.selector, 'field is immutable'));
  if (typeof spec.replicas === 'number' && spec.replicas < 0) errs.push(invalid('spec.replicas', spec.replicas, 'must be greater than or equal to 0'));
  if (!spec.template) return [...errs, required('spec.template')];
  for (const v of Object.values(labels)) for (const m of isLabelValue(String(v))) errs.push(invalid('spec.template.metadata.labels', v, m));
  errs.push(...podSpecErrors(spec.template.spec, 'spec.template.spec', rules));
  const rp = spec.template.spec?.restartPolicy;
  if (rp && !restart.includes(rp)) errs.push(notSupported('spec.template.spec.restartPolicy', rp, restart));
  return errs;
}

function serviceErrors(s: V1Service, old: V1Service | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const spec = s.spec;
  if (!spec) return [required('spec')];
  const headless = spec.clusterIP === 'None';
  const ports = spec.ports ?? [];
  if (spec.type !== 'ExternalName' && !headless && ports.length === 0) errs.push(required('spec.ports'));
  ports.forEach((p, i) => {
    if (typeof p.port === 'number' && (p.port < 1 || p.port > 65535))
      errs.push(invalid(`spec.ports[${i}].port`, p.port, 'must be between 1 and 65535, inclusive'));
    if (ports.length > 1 && !p.name) errs.push(required(`spec.ports[${i}].name`));
  });
  const oldIP = old?.spec?.clusterIP;
  if (oldIP && spec.clusterIP && oldIP !== spec.clusterIP && spec.type !== 'ExternalName' && old?.spec?.type !== 'ExternalName')
    errs.push(invalid('spec.clusterIP', spec.clusterIP, 'field is immutable'));
  return errs;
}

/** Semantic errors of one object (metadata and the kind's own rules). */
export function objectErrors(bucket: string, obj: KubeObject, old: KubeObject | undefined, rules: PodRules): FieldError[] {
  const errs = metaErrors(bucket, obj.metadata);
  switch (bucket) {
    case 'pods': {
      const p = obj as unknown as V1Pod;
      errs.push(...podSpecErrors(p.spec, 'spec', rules));
      if (old) errs.push(...podUpdateErrors(p.spec, (old as unknown as V1Pod).spec));
      break;
    }
    case 'deployments.apps':
    case 'replicasets.apps':
    case 'daemonsets.apps':
    case 'statefulsets.apps':
      errs.push(...workloadErrors(obj as unknown as V1Deployment | V1DaemonSet, old as unknown as Workload | undefined, rules, ['Always']));
      break;
    case 'jobs.batch': {
      const j = obj as unknown as V1Job;
      if (!j.spec?.template) {
        errs.push(required('spec.template'));
        break;
      }
      errs.push(...podSpecErrors(j.spec.template.spec, 'spec.template.spec', rules));
      const rp = j.spec.template.spec?.restartPolicy;
      if (!rp || rp === 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', rp ?? '', ['OnFailure', 'Never']));
      break;
    }
    case 'services':
      errs.push(...serviceErrors(obj as unknown as V1Service, old as unknown as V1Service | undefined));
      break;
  }
  return errs;
}
