// Defaulting as the API server does it (SetDefaults_* of the core/apps/batch
// groups, plus the admission plugins every cluster runs: ServiceAccount,
// DefaultTolerationSeconds, Priority) for the fields clients and controllers read back.

import type {
  V1Container,
  V1DaemonSet,
  V1Deployment,
  V1Job,
  V1Namespace,
  V1PersistentVolumeClaim,
  V1Pod,
  V1PodSpec,
  V1PodTemplateSpec,
  V1Probe,
  V1ReplicaSet,
  V1Secret,
  V1Service,
  V1StatefulSet,
  V1Volume,
} from '@kubernetes/client-node';
import type { KubeObject } from '../store.ts';

type Defaulter = (o: KubeObject, op: 'create' | 'update') => void;

/** imagePullPolicy: Always for ":latest" or no tag (a digest counts as a tag), else IfNotPresent. */
export function defaultPullPolicy(image: string | undefined): 'Always' | 'IfNotPresent' {
  if (!image) return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const tagAt = image.indexOf(':', lastSlash + 1);
  if (tagAt < 0) return 'Always';
  return image.slice(tagAt + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

function defaultProbe(p: V1Probe | undefined): void {
  if (!p) return;
  p.timeoutSeconds ??= 1;
  p.periodSeconds ??= 10;
  p.successThreshold ??= 1;
  p.failureThreshold ??= 3;
  if (p.httpGet) p.httpGet.scheme ??= 'HTTP';
}

function defaultContainer(c: V1Container): void {
  c.terminationMessagePath ??= '/dev/termination-log';
  c.terminationMessagePolicy ??= 'File';
  c.imagePullPolicy ??= defaultPullPolicy(c.image);
  for (const p of c.ports ?? []) p.protocol ??= 'TCP';
  for (const e of c.env ?? []) if (e.valueFrom?.fieldRef) e.valueFrom.fieldRef.apiVersion ??= 'v1';
  defaultProbe(c.livenessProbe);
  defaultProbe(c.readinessProbe);
  defaultProbe(c.startupProbe);
  // Quantities are stored in their string form (`cpu: 2` in YAML comes back as "2").
  for (const list of [c.resources?.limits, c.resources?.requests]) {
    for (const [k, v] of Object.entries(list ?? {})) if (typeof v === 'number') list![k] = String(v);
  }
  // SetDefaults_Pod: requests default to the limits when only limits are given.
  if (c.resources?.limits) {
    c.resources.requests ??= {};
    for (const [k, v] of Object.entries(c.resources.limits)) c.resources.requests[k] ??= v;
  }
}

function defaultVolume(v: V1Volume): void {
  if (v.secret) v.secret.defaultMode ??= 420;
  if (v.configMap) v.configMap.defaultMode ??= 420;
  if (v.downwardAPI) v.downwardAPI.defaultMode ??= 420;
  if (v.projected) v.projected.defaultMode ??= 420;
  if (v.hostPath) v.hostPath.type ??= '';
  // A volume with no source is an emptyDir.
  const sources = Object.keys(v).filter(k => k !== 'name');
  if (sources.length === 0) v.emptyDir = {};
}

/** SetDefaults_PodSpec and friends: applies to pods and to workload templates alike. */
export function defaultPodSpec(spec: V1PodSpec | undefined): void {
  if (!spec) return;
  spec.restartPolicy ??= 'Always';
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.schedulerName ??= 'default-scheduler';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.securityContext ??= {};
  spec.enableServiceLinks ??= true;
  if (spec.hostNetwork) {
    // Host-network pods publish their container ports on the host.
    for (const c of spec.containers ?? []) for (const p of c.ports ?? []) p.hostPort ??= p.containerPort;
  }
  for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) defaultContainer(c);
  for (const c of spec.ephemeralContainers ?? []) {
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
    c.imagePullPolicy ??= defaultPullPolicy(c.image);
  }
  for (const v of spec.volumes ?? []) defaultVolume(v);
}

function defaultTemplate(t: V1PodTemplateSpec | undefined): void {
  if (t) defaultPodSpec(t.spec);
}

const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

function qosClass(spec: V1PodSpec): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const cs = [...(spec.initContainers ?? []), ...(spec.containers ?? [])];
  const any = cs.some(c => Object.keys(c.resources?.requests ?? {}).length || Object.keys(c.resources?.limits ?? {}).length);
  if (!any) return 'BestEffort';
  const guaranteed = cs.every(c => {
    const l = c.resources?.limits ?? {},
      r = c.resources?.requests ?? {};
    return ['cpu', 'memory'].every(k => l[k] !== undefined && (r[k] === undefined || String(r[k]) === String(l[k])));
  });
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

const pod: Defaulter = (o, op) => {
  const p = o as unknown as V1Pod;
  defaultPodSpec(p.spec);
  if (!p.spec) return;
  const spec = p.spec;
  // DefaultTolerationSeconds admission (create and update): only where the pod has no toleration for the key.
  const tol = spec.tolerations ?? [];
  const has = (key: string) => tol.some(t => (t.key === key || (!t.key && t.operator === 'Exists')) && (!t.effect || t.effect === 'NoExecute'));
  for (const key of [NOT_READY, UNREACHABLE]) {
    if (!has(key)) tol.push({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  }
  spec.tolerations = tol;
  if (op !== 'create') return;
  // ServiceAccount admission.
  spec.serviceAccountName ??= spec.serviceAccount ?? 'default';
  spec.serviceAccount ??= spec.serviceAccountName;
  // Priority admission: the built-in system classes' values (pkg/apis/scheduling/types.go
  // SystemCriticalPriority 2000000000; system-node-critical is 1000 above it).
  if (!spec.priorityClassName) spec.priority ??= 0;
  else spec.priority ??= SYSTEM_PRIORITY[spec.priorityClassName];
  spec.preemptionPolicy ??= 'PreemptLowerPriority';
  // PrepareForCreate: a new pod starts Pending with its QoS class (unless the sim itself wrote a status).
  const status = (p.status ??= {});
  if (!status.phase) {
    status.phase = 'Pending';
    status.qosClass ??= qosClass(spec);
  }
};

const SYSTEM_PRIORITY: Record<string, number | undefined> = { 'system-cluster-critical': 2_000_000_000, 'system-node-critical': 2_000_001_000 };

const deployment: Defaulter = o => {
  const d = o as unknown as V1Deployment;
  if (!d.spec) return;
  d.spec.replicas ??= 1;
  d.spec.strategy ??= {};
  d.spec.strategy.type ??= 'RollingUpdate';
  if (d.spec.strategy.type === 'RollingUpdate') {
    d.spec.strategy.rollingUpdate ??= {};
    d.spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
    d.spec.strategy.rollingUpdate.maxSurge ??= '25%';
  }
  d.spec.revisionHistoryLimit ??= 10;
  d.spec.progressDeadlineSeconds ??= 600;
  defaultTemplate(d.spec.template);
};

const replicaSet: Defaulter = o => {
  const r = o as unknown as V1ReplicaSet;
  if (!r.spec) return;
  r.spec.replicas ??= 1;
  defaultTemplate(r.spec.template);
};

const daemonSet: Defaulter = o => {
  const d = o as unknown as V1DaemonSet;
  if (!d.spec) return;
  d.spec.updateStrategy ??= {};
  d.spec.updateStrategy.type ??= 'RollingUpdate';
  if (d.spec.updateStrategy.type === 'RollingUpdate') {
    d.spec.updateStrategy.rollingUpdate ??= {};
    d.spec.updateStrategy.rollingUpdate.maxUnavailable ??= 1;
    d.spec.updateStrategy.rollingUpdate.maxSurge ??= 0;
  }
  d.spec.revisionHistoryLimit ??= 10;
  defaultTemplate(d.spec.template);
};

const statefulSet: Defaulter = o => {
  const s = o as unknown as V1StatefulSet;
  if (!s.spec) return;
  s.spec.replicas ??= 1;
  s.spec.podManagementPolicy ??= 'OrderedReady';
  s.spec.updateStrategy ??= {};
  s.spec.updateStrategy.type ??= 'RollingUpdate';
  if (s.spec.updateStrategy.type === 'RollingUpdate') {
    s.spec.updateStrategy.rollingUpdate ??= {};
    s.spec.updateStrategy.rollingUpdate.partition ??= 0;
  }
  s.spec.revisionHistoryLimit ??= 10;
  s.spec.persistentVolumeClaimRetentionPolicy ??= { whenDeleted: 'Retain', whenScaled: 'Retain' };
  for (const pvc of s.spec.volumeClaimTemplates ?? []) if (pvc.spec) pvc.spec.volumeMode ??= 'Filesystem';
  defaultTemplate(s.spec.template);
};

const job: Defaulter = o => {
  const j = o as unknown as V1Job;
  if (!j.spec) return;
  j.spec.completions ??= 1;
  j.spec.parallelism ??= 1;
  j.spec.backoffLimit ??= 6;
  j.spec.completionMode ??= 'NonIndexed';
  j.spec.suspend ??= false;
  defaultTemplate(j.spec.template);
};

const service: Defaulter = o => {
  const s = o as unknown as V1Service;
  if (!s.spec) return;
  s.spec.type ??= 'ClusterIP';
  s.spec.sessionAffinity ??= 'None';
  if (s.spec.type !== 'ExternalName') s.spec.internalTrafficPolicy ??= 'Cluster';
  if (s.spec.type === 'NodePort' || s.spec.type === 'LoadBalancer') s.spec.externalTrafficPolicy ??= 'Cluster';
  if (s.spec.sessionAffinity === 'ClientIP') {
    s.spec.sessionAffinityConfig ??= {};
    s.spec.sessionAffinityConfig.clientIP ??= {};
    s.spec.sessionAffinityConfig.clientIP.timeoutSeconds ??= 10800;
  }
  for (const p of s.spec.ports ?? []) {
    p.protocol ??= 'TCP';
    p.targetPort ??= p.port;
  }
};

const secret: Defaulter = o => {
  const s = o as unknown as V1Secret;
  s.type ??= 'Opaque';
  // stringData is write-only: the API server merges it into data (base64), stringData winning.
  if (s.stringData) {
    s.data = { ...(s.data ?? {}) };
    for (const [k, v] of Object.entries(s.stringData)) s.data[k] = Buffer.from(v, 'utf8').toString('base64');
    delete s.stringData;
  }
};

const namespace: Defaulter = (o, op) => {
  const n = o as unknown as V1Namespace;
  const name = n.metadata?.name;
  if (name) n.metadata!.labels = { ...(n.metadata!.labels ?? {}), 'kubernetes.io/metadata.name': name };
  if (op === 'create') {
    n.spec ??= {};
    n.spec.finalizers ??= ['kubernetes'];
  }
  n.status ??= {};
  n.status.phase ??= 'Active';
};

const pvc: Defaulter = o => {
  const p = o as unknown as V1PersistentVolumeClaim;
  if (p.spec) p.spec.volumeMode ??= 'Filesystem';
};

const DEFAULTERS: Record<string, Defaulter> = {
  pods: pod,
  'deployments.apps': deployment,
  'replicasets.apps': replicaSet,
  'daemonsets.apps': daemonSet,
  'statefulsets.apps': statefulSet,
  'jobs.batch': job,
  services: service,
  secrets: secret,
  namespaces: namespace,
  persistentvolumeclaims: pvc,
};

/** Applies the defaults of the bucket's kind in place. */
export function applyDefaults(bucket: string, obj: KubeObject, op: 'create' | 'update'): void {
  DEFAULTERS[bucket]?.(obj, op);
}
