// Server-side printing: meta.k8s.io/v1 Table with the columns the real API server
// prints (pkg/printers/internalversion), so `kubectl get` looks as on a real cluster.

import type {
  V1Pod,
  V1Node,
  V1Service,
  V1Deployment,
  V1ReplicaSet,
  V1DaemonSet,
  V1StatefulSet,
  V1Namespace,
  CoreV1Event,
  V1Secret,
  V1ConfigMap,
  V1Endpoints,
  V1RuntimeClass,
  V1StorageClass,
  V1PersistentVolumeClaim,
  V1PodSpec,
  V1LabelSelector,
  V1PersistentVolume,
  V1Job,
  V1ServiceAccount,
} from '@kubernetes/client-node';
import type { KubeObject } from './store.ts';
import type { ResourceType } from './resources.ts';

export interface TableColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}
export interface TableRow {
  cells: unknown[];
  object?: unknown;
}
export interface Table {
  kind: 'Table';
  apiVersion: 'meta.k8s.io/v1';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  columnDefinitions: TableColumn[];
  rows: TableRow[];
}

export type IncludeObject = 'None' | 'Metadata' | 'Object';

type Cell = string | number | boolean;
interface Printer {
  columns: [name: string, type: string, priority?: number, format?: string][];
  row(o: KubeObject, now: number): Cell[];
}

/** kubectl's duration.HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(seconds / 3600);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.floor(hours / 24)}d` : `${Math.floor(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    const y = Math.floor(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

const ts = (t: unknown): number | undefined => (t ? new Date(t as string).getTime() : undefined);
const age = (o: KubeObject, now: number): string => {
  const t = ts(o.metadata.creationTimestamp);
  return t === undefined ? '<unknown>' : humanDuration(now - t);
};
const orNone = (s: string | undefined): string => (s ? s : '<none>');

function selectorString(sel: V1LabelSelector | undefined): string {
  if (!sel) return '<none>';
  const parts = Object.entries(sel.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of sel.matchExpressions ?? []) {
    const op = e.operator;
    if (op === 'In' || op === 'NotIn') parts.push(`${e.key} ${op.toLowerCase()} (${(e.values ?? []).join(',')})`);
    else if (op === 'Exists') parts.push(e.key);
    else if (op === 'DoesNotExist') parts.push(`!${e.key}`);
  }
  return parts.length ? parts.join(',') : '<none>';
}
export { selectorString as labelSelectorString };

function mapSelector(m: Record<string, string> | undefined): string {
  const parts = Object.entries(m ?? {}).map(([k, v]) => `${k}=${v}`);
  return parts.length ? parts.join(',') : '<none>';
}

function containersImages(spec: V1PodSpec | undefined): [string, string] {
  const cs = spec?.containers ?? [];
  return [cs.map(c => c.name).join(','), cs.map(c => c.image ?? '').join(',')];
}

/** kubectl's pod STATUS column (printPod). */
export function podStatusReason(pod: V1Pod): string {
  const st = pod.status ?? {};
  let reason = st.phase ?? 'Pending';
  if (st.reason) reason = st.reason;
  // Scheduling gates: SchedulingGated.
  let initializing = false;
  const inits = st.initContainerStatuses ?? [];
  const nInit = pod.spec?.initContainers?.length ?? 0;
  for (let i = 0; i < inits.length; i++) {
    const c = inits[i];
    const isSidecar = pod.spec?.initContainers?.find(x => x.name === c.name)?.restartPolicy === 'Always';
    if (c.state?.terminated && c.state.terminated.exitCode === 0) continue;
    if (isSidecar && c.started) continue;
    if (c.state?.terminated) {
      const t = c.state.terminated;
      reason = t.reason ? `Init:${t.reason}` : t.signal ? `Init:Signal:${t.signal}` : `Init:ExitCode:${t.exitCode}`;
    } else if (c.state?.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${c.state.waiting.reason}`;
    } else {
      reason = `Init:${i}/${nInit}`;
    }
    initializing = true;
    break;
  }
  if (!initializing) {
    let hasRunning = false;
    const cs = st.containerStatuses ?? [];
    for (let i = cs.length - 1; i >= 0; i--) {
      const c = cs[i];
      if (c.state?.waiting?.reason) reason = c.state.waiting.reason;
      else if (c.state?.terminated?.reason) reason = c.state.terminated.reason;
      else if (c.state?.terminated) reason = c.state.terminated.signal ? `Signal:${c.state.terminated.signal}` : `ExitCode:${c.state.terminated.exitCode}`;
      else if (c.ready && c.state?.running) hasRunning = true;
    }
    if (reason === 'Completed' && hasRunning) {
      const ready = (st.conditions ?? []).some(c => c.type === 'Ready' && c.status === 'True');
      reason = ready ? 'Running' : 'NotReady';
    }
  }
  if (pod.metadata?.deletionTimestamp) reason = st.reason === 'NodeLost' ? 'Unknown' : 'Terminating';
  return reason;
}

function podRestarts(pod: V1Pod, now: number): string {
  let restarts = 0;
  let last: number | undefined;
  for (const c of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
    restarts += c.restartCount ?? 0;
    const f = ts(c.lastState?.terminated?.finishedAt);
    if (f !== undefined && (last === undefined || f > last)) last = f;
  }
  return restarts > 0 && last !== undefined ? `${restarts} (${humanDuration(now - last)} ago)` : String(restarts);
}

const NAME: [string, string, number, string] = ['Name', 'string', 0, 'name'];

const PRINTERS: Record<string, Printer> = {
  pods: {
    columns: [
      NAME,
      ['Ready', 'string'],
      ['Status', 'string'],
      ['Restarts', 'string'],
      ['Age', 'string'],
      ['IP', 'string', 1],
      ['Node', 'string', 1],
      ['Nominated Node', 'string', 1],
      ['Readiness Gates', 'string', 1],
    ],
    row(o, now) {
      const p = o as unknown as V1Pod;
      const total = p.spec?.containers?.length ?? 0;
      const ready = (p.status?.containerStatuses ?? []).filter(c => c.ready).length;
      const gates = p.spec?.readinessGates ?? [];
      const gatesCell = gates.length
        ? `${gates.filter(g => (p.status?.conditions ?? []).some(c => c.type === g.conditionType && c.status === 'True')).length}/${gates.length}`
        : '<none>';
      return [
        o.metadata.name!,
        `${ready}/${total}`,
        podStatusReason(p),
        podRestarts(p, now),
        age(o, now),
        orNone(p.status?.podIP),
        orNone(p.spec?.nodeName),
        orNone(p.status?.nominatedNodeName),
        gatesCell,
      ];
    },
  },
  nodes: {
    columns: [
      NAME,
      ['Status', 'string'],
      ['Roles', 'string'],
      ['Age', 'string'],
      ['Version', 'string'],
      ['Internal-IP', 'string', 1],
      ['External-IP', 'string', 1],
      ['OS-Image', 'string', 1],
      ['Kernel-Version', 'string', 1],
      ['Container-Runtime', 'string', 1],
    ],
    row(o, now) {
      const n = o as unknown as V1Node;
      const ready = (n.status?.conditions ?? []).find(c => c.type === 'Ready');
      const status = [ready ? (ready.status === 'True' ? 'Ready' : ready.status === 'False' ? 'NotReady' : 'Unknown') : 'Unknown'];
      if (n.spec?.unschedulable) status.push('SchedulingDisabled');
      const roles = new Set<string>();
      for (const [k, v] of Object.entries(o.metadata.labels ?? {})) {
        if (k.startsWith('node-role.kubernetes.io/')) {
          const r = k.slice('node-role.kubernetes.io/'.length);
          if (r) roles.add(r);
        } else if (k === 'kubernetes.io/role' && v) roles.add(v);
      }
      const addr = (t: string) => (n.status?.addresses ?? []).find(a => a.type === t)?.address;
      const info = n.status?.nodeInfo;
      return [
        o.metadata.name!,
        status.join(','),
        roles.size ? [...roles].sort().join(',') : '<none>',
        age(o, now),
        info?.kubeletVersion ?? '',
        orNone(addr('InternalIP')),
        orNone(addr('ExternalIP')),
        info?.osImage ?? '<unknown>',
        info?.kernelVersion ?? '<unknown>',
        info?.containerRuntimeVersion ?? '<unknown>',
      ];
    },
  },
  services: {
    columns: [
      NAME,
      ['Type', 'string'],
      ['Cluster-IP', 'string'],
      ['External-IP', 'string'],
      ['Port(s)', 'string'],
      ['Age', 'string'],
      ['Selector', 'string', 1],
    ],
    row(o, now) {
      const s = o as unknown as V1Service;
      const type = s.spec?.type ?? 'ClusterIP';
      let ext = '<none>';
      const ing = (s.status?.loadBalancer?.ingress ?? []).map(i => i.ip ?? i.hostname ?? '').filter(Boolean);
      if (type === 'LoadBalancer') ext = [...ing, ...(s.spec?.externalIPs ?? [])].join(',') || '<pending>';
      else if (type === 'ExternalName') ext = s.spec?.externalName ?? '<none>';
      else if (s.spec?.externalIPs?.length) ext = s.spec.externalIPs.join(',');
      const ports = (s.spec?.ports ?? []).map(p => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol ?? 'TCP'}`).join(',');
      return [o.metadata.name!, type, s.spec?.clusterIP || '<none>', ext, ports || '<none>', age(o, now), mapSelector(s.spec?.selector)];
    },
  },
  'deployments.apps': {
    columns: [
      NAME,
      ['Ready', 'string'],
      ['Up-to-date', 'integer'],
      ['Available', 'integer'],
      ['Age', 'string'],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ],
    row(o, now) {
      const d = o as unknown as V1Deployment;
      const [c, i] = containersImages(d.spec?.template?.spec);
      return [
        o.metadata.name!,
        `${d.status?.readyReplicas ?? 0}/${d.spec?.replicas ?? 1}`,
        d.status?.updatedReplicas ?? 0,
        d.status?.availableReplicas ?? 0,
        age(o, now),
        c,
        i,
        selectorString(d.spec?.selector),
      ];
    },
  },
  'replicasets.apps': {
    columns: [
      NAME,
      ['Desired', 'integer'],
      ['Current', 'integer'],
      ['Ready', 'integer'],
      ['Age', 'string'],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ],
    row(o, now) {
      const r = o as unknown as V1ReplicaSet;
      const [c, i] = containersImages(r.spec?.template?.spec);
      return [
        o.metadata.name!,
        r.spec?.replicas ?? 1,
        r.status?.replicas ?? 0,
        r.status?.readyReplicas ?? 0,
        age(o, now),
        c,
        i,
        selectorString(r.spec?.selector),
      ];
    },
  },
  'daemonsets.apps': {
    columns: [
      NAME,
      ['Desired', 'integer'],
      ['Current', 'integer'],
      ['Ready', 'integer'],
      ['Up-to-date', 'integer'],
      ['Available', 'integer'],
      ['Node Selector', 'string'],
      ['Age', 'string'],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ],
    row(o, now) {
      const d = o as unknown as V1DaemonSet;
      const s = d.status;
      const [c, i] = containersImages(d.spec?.template?.spec);
      return [
        o.metadata.name!,
        s?.desiredNumberScheduled ?? 0,
        s?.currentNumberScheduled ?? 0,
        s?.numberReady ?? 0,
        s?.updatedNumberScheduled ?? 0,
        s?.numberAvailable ?? 0,
        mapSelector(d.spec?.template?.spec?.nodeSelector),
        age(o, now),
        c,
        i,
        selectorString(d.spec?.selector),
      ];
    },
  },
  'statefulsets.apps': {
    columns: [NAME, ['Ready', 'string'], ['Age', 'string'], ['Containers', 'string', 1], ['Images', 'string', 1]],
    row(o, now) {
      const s = o as unknown as V1StatefulSet;
      const [c, i] = containersImages(s.spec?.template?.spec);
      return [o.metadata.name!, `${s.status?.readyReplicas ?? 0}/${s.spec?.replicas ?? 1}`, age(o, now), c, i];
    },
  },
  'jobs.batch': {
    columns: [
      NAME,
      ['Status', 'string'],
      ['Completions', 'string'],
      ['Duration', 'string'],
      ['Age', 'string'],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ],
    row(o, now) {
      const j = o as unknown as V1Job;
      const conds = j.status?.conditions ?? [];
      const has = (t: string) => conds.some(c => c.type === t && c.status === 'True');
      const status = has('Complete') ? 'Complete' : has('Failed') ? 'Failed' : o.metadata.deletionTimestamp ? 'Terminating' : 'Running';
      const start = ts(j.status?.startTime),
        end = ts(j.status?.completionTime);
      const [c, i] = containersImages(j.spec?.template?.spec);
      return [
        o.metadata.name!,
        status,
        `${j.status?.succeeded ?? 0}/${j.spec?.completions ?? 1}`,
        start === undefined ? '' : humanDuration((end ?? now) - start),
        age(o, now),
        c,
        i,
        selectorString(j.spec?.selector),
      ];
    },
  },
  'horizontalpodautoscalers.autoscaling': {
    columns: [NAME, ['Reference', 'string'], ['Targets', 'string'], ['MinPods', 'string'], ['MaxPods', 'string'], ['Replicas', 'string'], ['Age', 'string']],
    row(o, now) {
      const spec = (o.spec ?? {}) as {
        scaleTargetRef?: { kind?: string; name?: string };
        minReplicas?: number;
        maxReplicas?: number;
        targetCPUUtilizationPercentage?: number;
        metrics?: { type?: string; resource?: { name?: string; target?: { averageUtilization?: number; averageValue?: string } } }[];
      };
      const status = (o.status ?? {}) as {
        currentReplicas?: number;
        currentCPUUtilizationPercentage?: number;
        currentMetrics?: { type?: string; resource?: { name?: string; current?: { averageUtilization?: number } } }[];
      };
      const targets: string[] = [];
      if (spec.targetCPUUtilizationPercentage !== undefined) {
        const cur = status.currentCPUUtilizationPercentage;
        targets.push(`cpu: ${cur === undefined ? '<unknown>' : `${cur}%`}/${spec.targetCPUUtilizationPercentage}%`);
      }
      for (const m of spec.metrics ?? []) {
        if (m.type !== 'Resource' || !m.resource) {
          targets.push('<unknown>');
          continue;
        }
        const cur = (status.currentMetrics ?? []).find(c => c.type === 'Resource' && c.resource?.name === m.resource?.name)?.resource?.current
          ?.averageUtilization;
        const t =
          m.resource.target?.averageUtilization !== undefined ? `${m.resource.target.averageUtilization}%` : (m.resource.target?.averageValue ?? '<unknown>');
        targets.push(`${m.resource.name}: ${cur === undefined ? '<unknown>' : `${cur}%`}/${t}`);
      }
      const ref = spec.scaleTargetRef ?? {};
      return [
        o.metadata.name!,
        `${ref.kind ?? ''}/${ref.name ?? ''}`,
        targets.join(', ') || '<none>',
        String(spec.minReplicas ?? 1),
        String(spec.maxReplicas ?? 0),
        String(status.currentReplicas ?? 0),
        age(o, now),
      ];
    },
  },
  namespaces: {
    columns: [NAME, ['Status', 'string'], ['Age', 'string']],
    row(o, now) {
      return [o.metadata.name!, (o as unknown as V1Namespace).status?.phase ?? 'Active', age(o, now)];
    },
  },
  events: {
    columns: [
      ['Last Seen', 'string'],
      ['Type', 'string'],
      ['Reason', 'string'],
      ['Object', 'string'],
      ['Subobject', 'string', 1],
      ['Source', 'string', 1],
      ['Message', 'string'],
      ['First Seen', 'string', 1],
      ['Count', 'string', 1],
      ['Name', 'string', 1],
    ],
    row(o, now) {
      const e = o as unknown as CoreV1Event;
      const first = ts(e.firstTimestamp) ?? ts(e.eventTime) ?? ts(o.metadata.creationTimestamp);
      const last = ts(e.lastTimestamp) ?? ts(e.series?.lastObservedTime) ?? first;
      const src = e.source?.component ? `${e.source.component}${e.source.host ? `, ${e.source.host}` : ''}` : (e.reportingComponent ?? '');
      const obj = `${(e.involvedObject.kind ?? '').toLowerCase()}/${e.involvedObject.name ?? ''}`;
      return [
        last === undefined ? '<unknown>' : humanDuration(now - last),
        e.type ?? '',
        e.reason ?? '',
        obj,
        e.involvedObject.fieldPath ?? '',
        src,
        (e.message ?? '').trim(),
        first === undefined ? '<unknown>' : humanDuration(now - first),
        String(e.count ?? e.series?.count ?? 1),
        o.metadata.name!,
      ];
    },
  },
  secrets: {
    columns: [NAME, ['Type', 'string'], ['Data', 'string'], ['Age', 'string']],
    row(o, now) {
      const s = o as unknown as V1Secret;
      return [o.metadata.name!, s.type ?? 'Opaque', String(Object.keys(s.data ?? {}).length + Object.keys(s.stringData ?? {}).length), age(o, now)];
    },
  },
  configmaps: {
    columns: [NAME, ['Data', 'string'], ['Age', 'string']],
    row(o, now) {
      const c = o as unknown as V1ConfigMap;
      return [o.metadata.name!, String(Object.keys(c.data ?? {}).length + Object.keys(c.binaryData ?? {}).length), age(o, now)];
    },
  },
  endpoints: {
    columns: [NAME, ['Endpoints', 'string'], ['Age', 'string']],
    row(o, now) {
      const e = o as unknown as V1Endpoints;
      const list: string[] = [];
      for (const s of e.subsets ?? [])
        for (const a of s.addresses ?? []) for (const p of s.ports?.length ? s.ports : [{ port: 0 }]) list.push(p.port ? `${a.ip}:${p.port}` : a.ip);
      const shown = list.slice(0, 3).join(',') + (list.length > 3 ? ` + ${list.length - 3} more...` : '');
      return [o.metadata.name!, shown || '<none>', age(o, now)];
    },
  },
  'runtimeclasses.node.k8s.io': {
    columns: [NAME, ['Handler', 'string'], ['Age', 'string']],
    row(o, now) {
      return [o.metadata.name!, (o as unknown as V1RuntimeClass).handler ?? '', age(o, now)];
    },
  },
  'storageclasses.storage.k8s.io': {
    columns: [
      NAME,
      ['Provisioner', 'string'],
      ['ReclaimPolicy', 'string'],
      ['VolumeBindingMode', 'string'],
      ['AllowVolumeExpansion', 'string'],
      ['Age', 'string'],
    ],
    row(o, now) {
      const s = o as unknown as V1StorageClass;
      const a = o.metadata.annotations ?? {};
      const isDefault = a['storageclass.kubernetes.io/is-default-class'] === 'true' || a['storageclass.beta.kubernetes.io/is-default-class'] === 'true';
      return [
        o.metadata.name! + (isDefault ? ' (default)' : ''),
        s.provisioner ?? '',
        s.reclaimPolicy ?? 'Delete',
        s.volumeBindingMode ?? 'Immediate',
        String(s.allowVolumeExpansion ?? false),
        age(o, now),
      ];
    },
  },
  persistentvolumeclaims: {
    columns: [
      NAME,
      ['Status', 'string'],
      ['Volume', 'string'],
      ['Capacity', 'string'],
      ['Access Modes', 'string'],
      ['StorageClass', 'string'],
      ['VolumeAttributesClass', 'string'],
      ['Age', 'string'],
      ['VolumeMode', 'string', 1],
    ],
    row(o, now) {
      const p = o as unknown as V1PersistentVolumeClaim;
      const bound = p.status?.phase === 'Bound';
      return [
        o.metadata.name!,
        o.metadata.deletionTimestamp ? 'Terminating' : (p.status?.phase ?? 'Pending'),
        p.spec?.volumeName ?? '',
        bound ? (p.status?.capacity?.storage ?? '') : '',
        bound ? accessModes(p.status?.accessModes) : '',
        p.spec?.storageClassName ?? '',
        p.spec?.volumeAttributesClassName ?? '<unset>',
        age(o, now),
        p.spec?.volumeMode ?? 'Filesystem',
      ];
    },
  },
  persistentvolumes: {
    columns: [
      NAME,
      ['Capacity', 'string'],
      ['Access Modes', 'string'],
      ['Reclaim Policy', 'string'],
      ['Status', 'string'],
      ['Claim', 'string'],
      ['StorageClass', 'string'],
      ['Reason', 'string'],
      ['Age', 'string'],
      ['VolumeMode', 'string', 1],
    ],
    row(o, now) {
      const p = o as unknown as V1PersistentVolume;
      const claim = p.spec?.claimRef ? `${p.spec.claimRef.namespace}/${p.spec.claimRef.name}` : '';
      return [
        o.metadata.name!,
        p.spec?.capacity?.storage ?? '',
        accessModes(p.spec?.accessModes),
        p.spec?.persistentVolumeReclaimPolicy ?? 'Retain',
        p.status?.phase ?? 'Pending',
        claim,
        p.spec?.storageClassName ?? '',
        p.status?.reason ?? '',
        age(o, now),
        p.spec?.volumeMode ?? 'Filesystem',
      ];
    },
  },
  serviceaccounts: {
    columns: [NAME, ['Secrets', 'string'], ['Age', 'string']],
    row(o, now) {
      return [o.metadata.name!, String((o as unknown as V1ServiceAccount).secrets?.length ?? 0), age(o, now)];
    },
  },
};

function accessModes(m: string[] | undefined): string {
  const short: Record<string, string> = { ReadWriteOnce: 'RWO', ReadOnlyMany: 'ROX', ReadWriteMany: 'RWX', ReadWriteOncePod: 'RWOP' };
  return (m ?? []).map(x => short[x] ?? x).join(',');
}

const GENERIC: Printer = { columns: [NAME, ['Age', 'string']], row: (o, now) => [o.metadata.name!, age(o, now)] };

function printerFor(bucket: string, k8sMinor: number): Printer {
  const p = PRINTERS[bucket] ?? GENERIC;
  // The Status column of Jobs appeared in 1.30.
  if (bucket === 'jobs.batch' && k8sMinor < 30) {
    return {
      columns: p.columns.filter(c => c[0] !== 'Status'),
      row: (o, now) => {
        const r = p.row(o, now);
        r.splice(1, 1);
        return r;
      },
    };
  }
  // VolumeAttributesClass appeared in the PVC table in 1.29.
  if (bucket === 'persistentvolumeclaims' && k8sMinor < 29) {
    return {
      columns: p.columns.filter(c => c[0] !== 'VolumeAttributesClass'),
      row: (o, now) => {
        const r = p.row(o, now);
        r.splice(6, 1);
        return r;
      },
    };
  }
  return p;
}

const DESCRIPTIONS: Record<string, string> = {
  Name: 'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
  Age: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
};

export function toTable(rt: ResourceType, bucket: string, objs: KubeObject[], include: IncludeObject, k8sMinor: number, meta: Table['metadata'] = {}): Table {
  const p = printerFor(bucket, k8sMinor);
  const now = Date.now();
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: meta,
    columnDefinitions: p.columns.map(([name, type, priority, format]) => ({
      name,
      type,
      format: format ?? '',
      description: DESCRIPTIONS[name] ?? `${name} of the ${rt.kind}`,
      priority: priority ?? 0,
    })),
    rows: objs.map(o => {
      const row: TableRow = { cells: p.row(o, now) };
      if (include === 'Object') row.object = o;
      else if (include === 'Metadata') row.object = { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata };
      return row;
    }),
  };
}

/** Whether an Accept header asks for a Table (kubectl get). */
export function wantsTable(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some(p => {
    const s = p.replace(/\s+/g, '');
    return s.includes('as=Table') && s.includes('g=meta.k8s.io');
  });
}
