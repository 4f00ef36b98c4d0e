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

export function matchesFields(reqs: FieldRequirement[], obj: unknown): boolean {
  return reqs.every(r => (fieldValue(obj, r.path) === r.value) === (r.op === 'eq'));
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
