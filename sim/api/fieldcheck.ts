// Unknown-field detection for fieldValidation=Strict|Warn, walking the generated
// model classes of @kubernetes/client-node (their attribute maps list every field
// the upstream schema knows). Kinds without a model are not checked.

import * as k8s from '@kubernetes/client-node';

interface Attr {
  name: string;
  baseName: string;
  type: string;
}
interface ModelClass {
  getAttributeTypeMap(): Attr[];
}

const models = k8s as unknown as Record<string, ModelClass | undefined>;

function modelFor(apiVersion: string, kind: string): ModelClass | undefined {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const ver = version.charAt(0).toUpperCase() + version.slice(1);
  const prefix = group.split('.')[0].replace(/^./, c => c.toUpperCase());
  for (const name of [`${group ? '' : 'Core'}${ver}${kind}`, `${ver}${kind}`, `${prefix}${ver}${kind}`]) {
    const m = models[name];
    if (m && typeof m.getAttributeTypeMap === 'function') return m;
  }
  return undefined;
}

/** Paths of fields the schema does not know, in the real server's notation ("spec.containers[0].foo"). */
export function unknownFields(apiVersion: string, kind: string, obj: unknown): string[] {
  const m = modelFor(apiVersion, kind);
  if (!m) return [];
  const out: string[] = [];
  walkModel(m, obj, '', out);
  return out.sort();
}

function walkModel(m: ModelClass, v: unknown, path: string, out: string[]): void {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return;
  const attrs = m.getAttributeTypeMap();
  for (const [k, x] of Object.entries(v)) {
    const p = path ? `${path}.${k}` : k;
    const a = attrs.find(at => at.baseName === k);
    if (!a) {
      // apiVersion/kind are always accepted on embedded objects.
      if (k !== 'apiVersion' && k !== 'kind') out.push(p);
      continue;
    }
    walkType(a.type, x, p, out);
  }
}

function walkType(type: string, v: unknown, path: string, out: string[]): void {
  const arr = /^Array<(.+)>$/.exec(type);
  if (arr) {
    if (Array.isArray(v)) v.forEach((x, i) => walkType(arr[1], x, `${path}[${i}]`, out));
    return;
  }
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) {
    if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walkType(map[1], x, `${path}.${k}`, out);
    return;
  }
  const m = models[type];
  if (m && typeof m.getAttributeTypeMap === 'function') walkModel(m, v, path, out);
}

export function strictMessage(fields: string[]): string {
  return `strict decoding error: ${fields.map(f => `unknown field "${f}"`).join(', ')}`;
}
