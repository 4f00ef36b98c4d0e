// Structural validation against the upstream OpenAPI schemas, as compiled by the
// kubernetes-models package, with ajv's errors turned into the API server's field
// errors (`spec.containers[0].ports[0].containerPort: Invalid value: "80": must be integer`).

import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Node } from 'kubernetes-models/v1/Node';
import { Pod } from 'kubernetes-models/v1/Pod';
import { Service } from 'kubernetes-models/v1/Service';
import { Endpoints } from 'kubernetes-models/v1/Endpoints';
import { Secret } from 'kubernetes-models/v1/Secret';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Event } from 'kubernetes-models/v1/Event';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { PersistentVolume } from 'kubernetes-models/v1/PersistentVolume';
import { ResourceQuota } from 'kubernetes-models/v1/ResourceQuota';
import { LimitRange } from 'kubernetes-models/v1/LimitRange';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { ReplicaSet } from 'kubernetes-models/apps/v1/ReplicaSet';
import { DaemonSet } from 'kubernetes-models/apps/v1/DaemonSet';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { ControllerRevision } from 'kubernetes-models/apps/v1/ControllerRevision';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { RuntimeClass } from 'kubernetes-models/node.k8s.io/v1/RuntimeClass';
import { StorageClass } from 'kubernetes-models/storage.k8s.io/v1/StorageClass';
import { EndpointSlice } from 'kubernetes-models/discovery.k8s.io/v1/EndpointSlice';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { HorizontalPodAutoscaler as HPAv2 } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { HorizontalPodAutoscaler as HPAv1 } from 'kubernetes-models/autoscaling/v1/HorizontalPodAutoscaler';
import { Event as EventsV1Event } from 'kubernetes-models/events.k8s.io/v1/Event';
import { Lease } from 'kubernetes-models/coordination.k8s.io/v1/Lease';
import { SelfSubjectAccessReview } from 'kubernetes-models/authorization.k8s.io/v1/SelfSubjectAccessReview';
import { SelfSubjectRulesReview } from 'kubernetes-models/authorization.k8s.io/v1/SelfSubjectRulesReview';
import type { KubeObject } from '../store.ts';
import { invalid, notSupported, required, type FieldError } from './errors.ts';

interface Validatable {
  validate(): void;
}
type ModelCtor = new (data: object) => Validatable;

const MODELS: Record<string, unknown> = {
  'v1/Namespace': Namespace,
  'v1/Node': Node,
  'v1/Pod': Pod,
  'v1/Service': Service,
  'v1/Endpoints': Endpoints,
  'v1/Secret': Secret,
  'v1/ConfigMap': ConfigMap,
  'v1/Event': Event,
  'v1/ServiceAccount': ServiceAccount,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/PersistentVolume': PersistentVolume,
  'v1/ResourceQuota': ResourceQuota,
  'v1/LimitRange': LimitRange,
  'apps/v1/Deployment': Deployment,
  'apps/v1/ReplicaSet': ReplicaSet,
  'apps/v1/DaemonSet': DaemonSet,
  'apps/v1/StatefulSet': StatefulSet,
  'apps/v1/ControllerRevision': ControllerRevision,
  'batch/v1/Job': Job,
  'node.k8s.io/v1/RuntimeClass': RuntimeClass,
  'storage.k8s.io/v1/StorageClass': StorageClass,
  'discovery.k8s.io/v1/EndpointSlice': EndpointSlice,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'autoscaling/v2/HorizontalPodAutoscaler': HPAv2,
  'autoscaling/v1/HorizontalPodAutoscaler': HPAv1,
  'events.k8s.io/v1/Event': EventsV1Event,
  'coordination.k8s.io/v1/Lease': Lease,
  'authorization.k8s.io/v1/SelfSubjectAccessReview': SelfSubjectAccessReview,
  'authorization.k8s.io/v1/SelfSubjectRulesReview': SelfSubjectRulesReview,
};

interface AjvError {
  instancePath: string;
  keyword: string;
  params: { missingProperty?: string; allowedValues?: unknown[]; type?: string; format?: string };
  message?: string;
}

/** "/spec/containers/0/ports/0/containerPort" → "spec.containers[0].ports[0].containerPort". */
export function toFieldPath(instancePath: string): string {
  let out = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else out += out ? `.${seg}` : seg;
  }
  return out;
}

function valueAt(obj: unknown, instancePath: string): unknown {
  let cur = obj;
  for (const raw of instancePath.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

const join = (path: string, child: string) => (path ? `${path}.${child}` : child);

function convert(obj: unknown, e: AjvError): FieldError {
  const field = toFieldPath(e.instancePath);
  switch (e.keyword) {
    case 'required':
      return required(join(field, e.params.missingProperty ?? ''));
    case 'enum':
      return notSupported(field, valueAt(obj, e.instancePath), (e.params.allowedValues ?? []).map(String));
    case 'type':
      return invalid(field, valueAt(obj, e.instancePath), `must be ${e.params.type === 'integer' ? 'integer' : `of type ${e.params.type}`}`);
    case 'format':
      return invalid(field, valueAt(obj, e.instancePath), `must be a valid ${e.params.format}`);
    default:
      return invalid(field, valueAt(obj, e.instancePath), e.message ?? 'invalid');
  }
}

/** Field errors of the upstream schema for this apiVersion/kind; [] when the kind has no model here. */
export function schemaErrors(obj: KubeObject): FieldError[] {
  const Model = MODELS[`${obj.apiVersion}/${obj.kind}`] as ModelCtor | undefined;
  if (!Model) return [];
  try {
    new Model(obj).validate();
    return [];
  } catch (err) {
    const errors = (err as { errors?: AjvError[] }).errors;
    if (!Array.isArray(errors)) throw err;
    // A oneOf/anyOf failure repeats itself per branch: keep one error per field and keyword.
    const seen = new Set<string>();
    const out: FieldError[] = [];
    for (const e of errors) {
      if (e.keyword === 'oneOf' || e.keyword === 'anyOf') continue;
      const fe = convert(obj, e);
      const key = `${fe.field}|${fe.type}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push(fe);
      }
    }
    return out;
  }
}
