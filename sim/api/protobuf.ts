// Request bodies in the Kubernetes protobuf encoding. kubectl 1.32+ sends its typed
// creates (create namespace/deployment/configmap/secret/job/service..., autoscale)
// as application/vnd.kubernetes.protobuf with no JSON fallback, so the sim decodes
// the messages those commands produce. Field numbers are the wire contract of the
// upstream API types; a field the table does not know is refused with 415 naming it,
// never silently dropped. Responses stay JSON (such clients accept it).

import { ApiError } from './status.ts';

/**
 * A message: "number:name[/type][*][!]". type: string (default), int32, int64, bool,
 * bytes, map (string→string), map:bytes, map:Quantity, or a message name; `*` repeated;
 * `!` a pointer field kept even when zero (gogo encodes every non-pointer field).
 * A field typed `ignore` is read and dropped (read-only status, managedFields).
 */
const SCHEMA: Record<string, string> = {
  Unknown: '1:typeMeta/TypeMeta 2:raw/bytes 3:contentEncoding 4:contentType',
  TypeMeta: '1:apiVersion 2:kind',
  ObjectMeta:
    '1:name 2:generateName 3:namespace 4:selfLink 5:uid 6:resourceVersion 7:generation/int64 8:creationTimestamp/Time ' +
    '9:deletionTimestamp/Time 10:deletionGracePeriodSeconds/int64! 11:labels/map 12:annotations/map 13:ownerReferences/OwnerReference* ' +
    '14:finalizers* 17:managedFields/ignore*',
  OwnerReference: '1:kind 3:name 4:uid 5:apiVersion 6:controller/bool! 7:blockOwnerDeletion/bool!',
  Time: '1:seconds/int64 2:nanos/int32',
  Quantity: '1:string',
  IntOrString: '1:type/int32 2:intVal/int32 3:strVal',
  LabelSelector: '1:matchLabels/map 2:matchExpressions/LabelSelectorRequirement*',
  LabelSelectorRequirement: '1:key 2:operator 3:values*',
  ObjectReference: '1:kind 2:namespace 3:name 4:uid 5:apiVersion 6:resourceVersion 7:fieldPath',
  LocalObjectReference: '1:name',

  Namespace: '1:metadata/ObjectMeta 2:spec/NamespaceSpec 3:status/ignore',
  NamespaceSpec: '1:finalizers*',
  ConfigMap: '1:metadata/ObjectMeta 2:data/map 3:binaryData/map:bytes 4:immutable/bool!',
  Secret: '1:metadata/ObjectMeta 2:data/map:bytes 3:type 4:stringData/map 5:immutable/bool!',
  ServiceAccount: '1:metadata/ObjectMeta 2:secrets/ObjectReference* 3:imagePullSecrets/LocalObjectReference* 4:automountServiceAccountToken/bool!',
  Service: '1:metadata/ObjectMeta 2:spec/ServiceSpec 3:status/ignore',
  ServiceSpec:
    '1:ports/ServicePort* 2:selector/map 3:clusterIP 4:type 5:externalIPs* 7:sessionAffinity 8:loadBalancerIP 9:loadBalancerSourceRanges* ' +
    '10:externalName 11:externalTrafficPolicy 12:healthCheckNodePort/int32 13:publishNotReadyAddresses/bool 17:ipFamilyPolicy! 18:clusterIPs* ' +
    '19:ipFamilies* 20:allocateLoadBalancerNodePorts/bool! 21:loadBalancerClass! 22:internalTrafficPolicy! 23:trafficDistribution!',
  ServicePort: '1:name 2:protocol 3:port/int32 4:targetPort/IntOrString 5:nodePort/int32 6:appProtocol!',
  Pod: '1:metadata/ObjectMeta 2:spec/PodSpec 3:status/ignore',
  PodTemplateSpec: '1:metadata/ObjectMeta 2:spec/PodSpec',
  PodSpec:
    '1:volumes/Volume* 2:containers/Container* 3:restartPolicy 4:terminationGracePeriodSeconds/int64! 5:activeDeadlineSeconds/int64! ' +
    '6:dnsPolicy 7:nodeSelector/map 8:serviceAccountName 9:serviceAccount 10:nodeName 11:hostNetwork/bool 12:hostPID/bool 13:hostIPC/bool ' +
    '14:securityContext/PodSecurityContext 15:imagePullSecrets/LocalObjectReference* 16:hostname 17:subdomain 19:schedulerName ' +
    '20:initContainers/Container* 21:automountServiceAccountToken/bool! 22:tolerations/Toleration* 24:priorityClassName 25:priority/int32! ' +
    '27:shareProcessNamespace/bool! 29:runtimeClassName! 30:enableServiceLinks/bool! 31:preemptionPolicy! 35:setHostnameAsFQDN/bool! ' +
    '36:os/PodOS 37:hostUsers/bool!',
  PodOS: '1:name',
  PodSecurityContext: '',
  Container:
    '1:name 2:image 3:command* 4:args* 5:workingDir 6:ports/ContainerPort* 7:env/EnvVar* 8:resources/ResourceRequirements ' +
    '9:volumeMounts/VolumeMount* 13:terminationMessagePath 14:imagePullPolicy 16:stdin/bool 17:stdinOnce/bool 18:tty/bool ' +
    '20:terminationMessagePolicy 24:restartPolicy!',
  ContainerPort: '1:name 2:hostPort/int32 3:containerPort/int32 4:protocol 5:hostIP',
  EnvVar: '1:name 2:value',
  ResourceRequirements: '1:limits/map:Quantity 2:requests/map:Quantity',
  VolumeMount: '1:name 2:readOnly/bool 3:mountPath 4:subPath 5:mountPropagation! 6:subPathExpr',
  Volume: '1:name 2:volumeSource/VolumeSource',
  VolumeSource: '2:emptyDir/EmptyDirVolumeSource! 6:secret/SecretVolumeSource! 19:configMap/ConfigMapVolumeSource!',
  EmptyDirVolumeSource: '1:medium 2:sizeLimit/Quantity!',
  SecretVolumeSource: '1:secretName 3:defaultMode/int32! 4:optional/bool!',
  ConfigMapVolumeSource: '1:localObjectReference/LocalObjectReference 3:defaultMode/int32! 4:optional/bool!',
  Toleration: '1:key 2:operator 3:value 4:effect 5:tolerationSeconds/int64!',
  Deployment: '1:metadata/ObjectMeta 2:spec/DeploymentSpec 3:status/ignore',
  DeploymentSpec:
    '1:replicas/int32! 2:selector/LabelSelector 3:template/PodTemplateSpec 4:strategy/DeploymentStrategy 5:minReadySeconds/int32 ' +
    '6:revisionHistoryLimit/int32! 7:paused/bool 9:progressDeadlineSeconds/int32!',
  DeploymentStrategy: '1:type 2:rollingUpdate/RollingUpdateDeployment!',
  RollingUpdateDeployment: '1:maxUnavailable/IntOrString! 2:maxSurge/IntOrString!',
  Job: '1:metadata/ObjectMeta 2:spec/JobSpec 3:status/ignore',
  JobSpec:
    '1:parallelism/int32! 2:completions/int32! 3:activeDeadlineSeconds/int64! 4:selector/LabelSelector! 5:manualSelector/bool! ' +
    '6:template/PodTemplateSpec 7:backoffLimit/int32! 8:ttlSecondsAfterFinished/int32! 9:completionMode! 10:suspend/bool!',
  HPAv1: '1:metadata/ObjectMeta 2:spec/HPASpecV1 3:status/ignore',
  HPASpecV1: '1:scaleTargetRef/CrossVersionObjectReference 2:minReplicas/int32! 3:maxReplicas/int32 4:targetCPUUtilizationPercentage/int32!',
  HPAv2: '1:metadata/ObjectMeta 2:spec/HPASpecV2 3:status/ignore',
  HPASpecV2: '1:scaleTargetRef/CrossVersionObjectReference 2:minReplicas/int32! 3:maxReplicas/int32 4:metrics/MetricSpec*',
  CrossVersionObjectReference: '1:kind 2:name 3:apiVersion',
  MetricSpec: '1:type 4:resource/ResourceMetricSource!',
  ResourceMetricSource: '1:name 2:target/MetricTarget',
  MetricTarget: '1:type 2:value/Quantity! 3:averageValue/Quantity! 4:averageUtilization/int32!',

  // rbac.authorization.k8s.io/v1 (kubectl create role/clusterrole/rolebinding/clusterrolebinding)
  Role: '1:metadata/ObjectMeta 2:rules/PolicyRule*',
  ClusterRole: '1:metadata/ObjectMeta 2:rules/PolicyRule* 3:aggregationRule/AggregationRule!',
  PolicyRule: '1:verbs* 2:apiGroups* 3:resources* 4:resourceNames* 5:nonResourceURLs*',
  AggregationRule: '1:clusterRoleSelectors/LabelSelector*',
  RoleBinding: '1:metadata/ObjectMeta 2:subjects/Subject* 3:roleRef/RoleRef',
  Subject: '1:kind 2:apiGroup 3:name 4:namespace',
  RoleRef: '1:apiGroup 2:kind 3:name',
  // authentication.k8s.io/v1 TokenRequest (kubectl create token) and SelfSubjectReview (kubectl auth whoami)
  TokenRequest: '1:metadata/ObjectMeta 2:spec/TokenRequestSpec 3:status/ignore',
  TokenRequestSpec: '1:audiences* 3:boundObjectRef/BoundObjectReference! 4:expirationSeconds/int64!',
  BoundObjectReference: '1:kind 2:apiVersion 3:name 4:uid',
  SelfSubjectReview: '1:metadata/ObjectMeta 2:status/ignore',
  // authorization.k8s.io/v1 (kubectl auth can-i)
  SelfSubjectAccessReview: '1:metadata/ObjectMeta 2:spec/SelfSubjectAccessReviewSpec 3:status/ignore',
  SelfSubjectAccessReviewSpec: '1:resourceAttributes/ResourceAttributes! 2:nonResourceAttributes/NonResourceAttributes!',
  ResourceAttributes: '1:namespace 2:verb 3:group 4:version 5:resource 6:subresource 7:name 8:fieldSelector/ignore 9:labelSelector/ignore',
  NonResourceAttributes: '1:path 2:verb',
  SelfSubjectRulesReview: '1:metadata/ObjectMeta 2:spec/SelfSubjectRulesReviewSpec 3:status/ignore',
  SelfSubjectRulesReviewSpec: '1:namespace',
};

/** Top-level kinds by apiVersion/kind. */
const KINDS: Record<string, string> = {
  'v1/Namespace': 'Namespace',
  'v1/ConfigMap': 'ConfigMap',
  'v1/Secret': 'Secret',
  'v1/ServiceAccount': 'ServiceAccount',
  'v1/Service': 'Service',
  'v1/Pod': 'Pod',
  'apps/v1/Deployment': 'Deployment',
  'batch/v1/Job': 'Job',
  'autoscaling/v1/HorizontalPodAutoscaler': 'HPAv1',
  'autoscaling/v2/HorizontalPodAutoscaler': 'HPAv2',
  'rbac.authorization.k8s.io/v1/Role': 'Role',
  'rbac.authorization.k8s.io/v1/ClusterRole': 'ClusterRole',
  'rbac.authorization.k8s.io/v1/RoleBinding': 'RoleBinding',
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': 'RoleBinding',
  'authentication.k8s.io/v1/TokenRequest': 'TokenRequest',
  'authentication.k8s.io/v1/SelfSubjectReview': 'SelfSubjectReview',
  'authorization.k8s.io/v1/SelfSubjectAccessReview': 'SelfSubjectAccessReview',
  'authorization.k8s.io/v1/SelfSubjectRulesReview': 'SelfSubjectRulesReview',
};

interface Field {
  name: string;
  type: string;
  repeated: boolean;
  pointer: boolean;
}

const parsed = new Map<string, Map<number, Field>>();
function fieldsOf(msg: string): Map<number, Field> {
  let m = parsed.get(msg);
  if (m) return m;
  m = new Map();
  for (const spec of (SCHEMA[msg] ?? '').split(/\s+/).filter(Boolean)) {
    const x = /^(\d+):(\w+)(?:\/([\w:]+))?(\*)?(!)?$/.exec(spec);
    if (!x) throw new Error(`bad protobuf schema entry ${msg}: ${spec}`);
    m.set(Number(x[1]), { name: x[2], type: x[3] ?? 'string', repeated: !!x[4], pointer: !!x[5] });
  }
  parsed.set(msg, m);
  return m;
}

// --- wire format ---

class Reader {
  pos = 0;
  constructor(
    readonly buf: Buffer,
    readonly end = buf.length,
  ) {}
  varint(): bigint {
    let r = 0n,
      shift = 0n;
    for (;;) {
      if (this.pos >= this.end) throw new Error('truncated varint');
      const b = this.buf[this.pos++];
      r |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return r;
      shift += 7n;
    }
  }
  bytes(): Buffer {
    const n = Number(this.varint());
    if (this.pos + n > this.end) throw new Error('truncated field');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

const signed = (v: bigint): number => Number(v >= 1n << 63n ? v - (1n << 64n) : v);

type Json = unknown;

function decodeMessage(msg: string, buf: Buffer, path: string): Record<string, Json> {
  const fields = fieldsOf(msg);
  const out: Record<string, Json> = {};
  const r = new Reader(buf);
  while (r.pos < r.end) {
    const key = Number(r.varint());
    const no = key >>> 3,
      wire = key & 7;
    const f = fields.get(no);
    const here = path ? `${path}.${f?.name ?? `#${no}`}` : (f?.name ?? `#${no}`);
    if (!f)
      throw new ApiError(
        415,
        'UnsupportedMediaType',
        `the simulated API server cannot decode protobuf field ${no} of ${msg} (at ${here}); send this object as application/json`,
      );
    if (f.type === 'ignore') {
      r.skip(wire);
      continue;
    }
    const v = decodeValue(f, wire, r, here);
    if (f.repeated) ((out[f.name] ??= []) as Json[]).push(v);
    else if (f.type.startsWith('map')) Object.assign((out[f.name] ??= {}) as object, v);
    else out[f.name] = v;
  }
  // gogo writes every non-pointer field; JSON (omitempty) would not have the zero ones.
  for (const [, f] of fields) {
    const v = out[f.name];
    if (v === undefined) {
      delete out[f.name];
      continue;
    }
    if (f.pointer) continue;
    if (v === '' || v === 0 || v === false || (Array.isArray(v) && !v.length) || (isPlain(v) && !Object.keys(v).length)) delete out[f.name];
  }
  return out;
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function decodeValue(f: Field, wire: number, r: Reader, path: string): Json {
  switch (f.type) {
    case 'string':
      return r.bytes().toString('utf8');
    case 'bytes':
      return Buffer.from(r.bytes());
    case 'bool':
      return r.varint() !== 0n;
    case 'int32':
    case 'int64':
      return signed(r.varint());
  }
  if (f.type.startsWith('map')) {
    const valueType = f.type.split(':')[1] ?? 'string';
    const entry = new Reader(r.bytes());
    let k = '',
      val: Json = valueType === 'Quantity' ? '' : '';
    while (entry.pos < entry.end) {
      const key = Number(entry.varint());
      if (key >>> 3 === 1) k = entry.bytes().toString('utf8');
      else if (key >>> 3 === 2) {
        const b = entry.bytes();
        val = valueType === 'bytes' ? b.toString('base64') : valueType === 'Quantity' ? special('Quantity', b, path) : b.toString('utf8');
      } else entry.skip(key & 7);
    }
    return { [k]: val };
  }
  if (wire !== 2) throw new ApiError(415, 'UnsupportedMediaType', `unexpected protobuf wire type at ${path}`);
  return special(f.type, r.bytes(), path);
}

/** Messages whose JSON form is a scalar (Time, Quantity, IntOrString), or flattened (volume sources). */
function special(type: string, buf: Buffer, path: string): Json {
  const m = decodeMessage(type, buf, path);
  switch (type) {
    case 'Time': {
      if (!m.seconds) return undefined;
      return new Date(Number(m.seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    case 'Quantity':
      return m.string ?? '';
    case 'IntOrString':
      return m.type === 1 ? (m.strVal ?? '') : (m.intVal ?? 0);
    case 'Volume': {
      const { volumeSource, ...rest } = m;
      return { ...rest, ...(volumeSource as object) };
    }
    case 'ConfigMapVolumeSource': {
      const { localObjectReference, ...rest } = m;
      return { ...(localObjectReference as object), ...rest };
    }
    default:
      return m;
  }
}

/** Decodes a `k8s\0`-prefixed runtime.Unknown envelope into the object's JSON form. */
export function decodeProtobufObject(body: Buffer): Record<string, Json> {
  if (body.length < 4 || body.subarray(0, 4).toString('latin1') !== 'k8s\0') {
    throw new ApiError(400, 'BadRequest', 'provided input is not a Kubernetes protobuf message (missing the k8s\\0 prefix)');
  }
  let env: Record<string, Json>;
  try {
    env = decodeMessage('Unknown', body.subarray(4), '');
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError(400, 'BadRequest', `invalid protobuf envelope: ${(e as Error).message}`);
  }
  const tm = (env.typeMeta ?? {}) as { apiVersion?: string; kind?: string };
  const msg = KINDS[`${tm.apiVersion}/${tm.kind}`];
  if (!msg)
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the simulated API server cannot decode ${tm.kind} (${tm.apiVersion}) from protobuf; send it as application/json`,
    );
  let obj: Record<string, Json>;
  try {
    obj = decodeMessage(msg, (env.raw as Buffer | undefined) ?? Buffer.alloc(0), '');
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw new ApiError(400, 'BadRequest', `invalid protobuf ${tm.kind}: ${(e as Error).message}`);
  }
  return { apiVersion: tm.apiVersion, kind: tm.kind, ...obj };
}
