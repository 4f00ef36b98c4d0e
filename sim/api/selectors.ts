// Label and field selectors as the API server parses them (the string forms kubectl sends).

export type Requirement =
  { key: string; op: 'eq' | 'neq'; value: string } | { key: string; op: 'in' | 'notin'; values: string[] } | { key: string; op: 'exists' | 'notexists' };

export class SelectorError extends Error {}

/** Splits on commas that are not inside parentheses. */
function splitTerms(s: string): string[] {
  const out: string[] = [];
  let depth = 0,
    cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim() !== '') out.push(cur);
  return out.map(t => t.trim()).filter(t => t !== '');
}

export function parseLabelSelector(s: string | undefined): Requirement[] {
  if (!s) return [];
  return splitTerms(s).map(term => {
    let m = /^(!)?\s*([A-Za-z0-9._\-/]+)$/.exec(term);
    if (m) return { key: m[2], op: m[1] ? 'notexists' : 'exists' } as Requirement;
    m = /^([A-Za-z0-9._\-/]+)\s*(notin|in)\s*\(([^)]*)\)$/.exec(term);
    if (m)
      return {
        key: m[1],
        op: m[2] as 'in' | 'notin',
        values: m[3]
          .split(',')
          .map(v => v.trim())
          .filter(v => v !== ''),
      };
    m = /^([A-Za-z0-9._\-/]+)\s*(==|=|!=)\s*([A-Za-z0-9._-]*)$/.exec(term);
    if (m) return { key: m[1], op: m[2] === '!=' ? 'neq' : 'eq', value: m[3] } as Requirement;
    throw new SelectorError(`unable to parse requirement: "${term}"`);
  });
}

export function matchesLabels(reqs: Requirement[], labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return reqs.every(r => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    switch (r.op) {
      case 'exists':
        return has;
      case 'notexists':
        return !has;
      case 'eq':
        return has && l[r.key] === r.value;
      case 'neq':
        return !has || l[r.key] !== r.value;
      case 'in':
        return has && r.values.includes(l[r.key]);
      case 'notin':
        return !has || !r.values.includes(l[r.key]);
    }
  });
}

export interface FieldRequirement {
  path: string;
  op: 'eq' | 'neq';
  value: string;
}

export function parseFieldSelector(s: string | undefined): FieldRequirement[] {
  if (!s) return [];
  return splitTerms(s).map(term => {
    const m = /^([A-Za-z0-9._-]+)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) throw new SelectorError(`invalid selector: '${term}'; can't understand '${term}'`);
    return { path: m[1], op: m[2] === '!=' ? 'neq' : 'eq', value: m[3] };
  });
}

function fieldValue(obj: unknown, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined || cur === null ? '' : String(cur);
}

/**
 * What a field label reads on a stored object, as the registry strategies' ToSelectableFields
 * compute it: every selectable key is always set, so an absent bool reads "false" and an absent
 * count "0" (nodes without spec.unschedulable match spec.unschedulable=false).
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/registry/core/node/strategy.go
 */
type Reader = (obj: unknown) => string;
const path =
  (p: string): Reader =>
  o =>
    fieldValue(o, p);
const bool =
  (p: string): Reader =>
  o =>
    String(fieldValue(o, p) === 'true');
const count =
  (p: string): Reader =>
  o =>
    fieldValue(o, p) || '0';

interface FieldLabels {
  /** Labels the kind's conversion func accepts, with what each reads. */
  readers: Record<string, Reader>;
  /** The 400 text for any other label. */
  refuse: (label: string) => string;
}

const META_NAME: Record<string, Reader> = { 'metadata.name': path('metadata.name') };
const META: Record<string, Reader> = { ...META_NAME, 'metadata.namespace': path('metadata.namespace') };
const notSupported = (label: string) => `field label not supported: ${label}`;

/**
 * The field labels each kind accepts: the conversion funcs registered with
 * AddFieldLabelConversionFunc (pkg/apis/core/v1/conversion.go, pkg/apis/batch/v1/conversion.go,
 * pkg/apis/certificates/v1/conversion.go). A kind with none registered (everything in apps,
 * ConfigMaps, PVCs, custom resources ...) falls back to runtime.DefaultMetaV1FieldSelectorConversion.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/v1/conversion.go
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/runtime/conversion.go
 */
const FIELD_LABELS: Record<string, FieldLabels> = {
  pods: {
    readers: {
      ...META,
      'spec.nodeName': path('spec.nodeName'),
      // Old clients' spelling, rewritten to spec.nodeName.
      'spec.host': path('spec.nodeName'),
      'spec.restartPolicy': path('spec.restartPolicy'),
      'spec.schedulerName': path('spec.schedulerName'),
      'spec.serviceAccountName': path('spec.serviceAccountName'),
      'spec.hostNetwork': bool('spec.hostNetwork'),
      'status.phase': path('status.phase'),
      'status.podIP': path('status.podIP'),
      // Accepted by the conversion func, but PodToSelectableFields never sets it: matches only "".
      'status.podIPs': () => '',
      'status.nominatedNodeName': path('status.nominatedNodeName'),
    },
    refuse: notSupported,
  },
  nodes: { readers: { ...META_NAME, 'spec.unschedulable': bool('spec.unschedulable') }, refuse: notSupported },
  namespaces: { readers: { ...META_NAME, 'status.phase': path('status.phase') }, refuse: notSupported },
  secrets: { readers: { ...META, type: path('type') }, refuse: notSupported },
  services: { readers: { ...META, 'spec.clusterIP': path('spec.clusterIP'), 'spec.type': path('spec.type') }, refuse: notSupported },
  replicationcontrollers: { readers: { ...META, 'status.replicas': count('status.replicas') }, refuse: notSupported },
  // Stored in core form; events.k8s.io's regarding.* / reportingController arrive translated.
  events: {
    readers: {
      ...META,
      ...Object.fromEntries(
        ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'].map(f => [`involvedObject.${f}`, path(`involvedObject.${f}`)]),
      ),
      reason: path('reason'),
      reportingComponent: path('reportingComponent'),
      // EventToSelectableFields: source.component, else the reporting controller.
      source: o => fieldValue(o, 'source.component') || fieldValue(o, 'reportingComponent'),
      type: path('type'),
    },
    refuse: notSupported,
  },
  'jobs.batch': { readers: { ...META, 'status.successful': count('status.succeeded') }, refuse: label => `field label "${label}" not supported for Job` },
  'certificatesigningrequests.certificates.k8s.io': { readers: { ...META_NAME, 'spec.signerName': path('spec.signerName') }, refuse: notSupported },
};

const DEFAULT_FIELD_LABELS: FieldLabels = {
  readers: META,
  refuse: label => `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`,
};

function fieldLabelsOf(bucket: string): FieldLabels {
  return FIELD_LABELS[bucket] ?? DEFAULT_FIELD_LABELS;
}

/**
 * The API server's check of a request's field selector (list, watch and deletecollection alike):
 * a label the kind does not support is a 400 with the conversion func's own text.
 */
export function checkFieldSelector(bucket: string, s: string | undefined): void {
  const labels = fieldLabelsOf(bucket);
  for (const r of parseFieldSelector(s)) if (!Object.hasOwn(labels.readers, r.path)) throw new SelectorError(labels.refuse(r.path));
}

/** Matches on what each label reads for the bucket's kind; a label it does not know reads the object's field by path. */
export function matchesFields(reqs: FieldRequirement[], obj: unknown, bucket: string): boolean {
  const { readers } = fieldLabelsOf(bucket);
  return reqs.every(r => ((Object.hasOwn(readers, r.path) ? readers[r.path](obj) : fieldValue(obj, r.path)) === r.value) === (r.op === 'eq'));
}

/** A structured LabelSelector (matchLabels + matchExpressions), as in Deployments and Services. */
export interface StructuredSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export function structuredToRequirements(sel: StructuredSelector | undefined): Requirement[] {
  if (!sel) return [];
  const reqs: Requirement[] = Object.entries(sel.matchLabels ?? {}).map(([key, value]) => ({ key, op: 'eq', value }));
  for (const e of sel.matchExpressions ?? []) {
    const op = e.operator;
    if (op === 'In') reqs.push({ key: e.key, op: 'in', values: e.values ?? [] });
    else if (op === 'NotIn') reqs.push({ key: e.key, op: 'notin', values: e.values ?? [] });
    else if (op === 'Exists') reqs.push({ key: e.key, op: 'exists' });
    else if (op === 'DoesNotExist') reqs.push({ key: e.key, op: 'notexists' });
  }
  return reqs;
}
