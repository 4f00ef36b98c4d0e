// The OpenAPI definitions of the served kinds (io.k8s.api.core.v1.Pod ...), derived
// from the upstream schemas as the kubernetes-models package ships them (its .d.ts
// interfaces carry the property names, required fields, enums and descriptions),
// with integer formats from @kubernetes/client-node's models and the patch
// extensions clients use for strategic merge. Built once, lazily.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as k8s from '@kubernetes/client-node';
import { RESOURCES, type ResourceType } from '../resources.ts';

export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  description?: string;
  required?: string[];
  enum?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema;
  items?: Schema;
  'x-kubernetes-group-version-kind'?: GVK[];
  'x-kubernetes-patch-merge-key'?: string;
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
}

export interface GVK {
  group: string;
  kind: string;
  version: string;
}

export const V2_REF = '#/definitions/';

/** Names whose camel-cased form has no version segment, and the scalar types the generator maps specially. */
const SPECIAL: Record<string, { name: string; schema: Schema }> = {
  IoK8sApimachineryPkgApiResourceQuantity: { name: 'io.k8s.apimachinery.pkg.api.resource.Quantity', schema: { type: 'string' } },
  IoK8sApimachineryPkgUtilIntstrIntOrString: { name: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString', schema: { type: 'string', format: 'int-or-string' } },
  IoK8sApimachineryPkgRuntimeRawExtension: { name: 'io.k8s.apimachinery.pkg.runtime.RawExtension', schema: { type: 'object' } },
  IoK8sApimachineryPkgApisMetaV1Time: { name: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time', schema: { type: 'string', format: 'date-time' } },
  IoK8sApimachineryPkgApisMetaV1MicroTime: { name: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime', schema: { type: 'string', format: 'date-time' } },
  IoK8sApimachineryPkgApisMetaV1FieldsV1: { name: 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1', schema: { type: 'object' } },
};

/** "IoK8sApiCoreV1Pod" → "io.k8s.api.core.v1.Pod". */
export function definitionName(camel: string): string {
  if (SPECIAL[camel]) return SPECIAL[camel].name;
  const tokens = camel.match(/[A-Z][a-z0-9]*/g) ?? [];
  const v = tokens.findIndex(t => /^V\d+((alpha|beta)\d+)?$/.test(t));
  if (v < 0) throw new Error(`openapi: cannot name ${camel}`);
  return [...tokens.slice(0, v + 1).map(t => t.toLowerCase()), tokens.slice(v + 1).join('')].join('.');
}

// Strategic-merge metadata of upstream's Go struct tags, for the lists clients merge.
const PATCH: Record<string, Record<string, [mergeKey: string | undefined, strategy: string]>> = {
  'io.k8s.api.core.v1.PodSpec': {
    containers: ['name', 'merge'],
    initContainers: ['name', 'merge'],
    ephemeralContainers: ['name', 'merge'],
    volumes: ['name', 'merge,retainKeys'],
    imagePullSecrets: ['name', 'merge'],
    hostAliases: ['ip', 'merge'],
    topologySpreadConstraints: ['topologyKey', 'merge'],
    schedulingGates: ['name', 'merge'],
    resourceClaims: ['name', 'merge,retainKeys'],
  },
  'io.k8s.api.core.v1.Container': {
    env: ['name', 'merge'],
    ports: ['containerPort', 'merge'],
    volumeMounts: ['mountPath', 'merge'],
    volumeDevices: ['devicePath', 'merge'],
  },
  'io.k8s.api.core.v1.EphemeralContainer': {
    env: ['name', 'merge'],
    ports: ['containerPort', 'merge'],
    volumeMounts: ['mountPath', 'merge'],
    volumeDevices: ['devicePath', 'merge'],
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': { finalizers: [undefined, 'merge'], ownerReferences: ['uid', 'merge'] },
  'io.k8s.api.core.v1.PodStatus': { conditions: ['type', 'merge'], podIPs: ['ip', 'merge'], hostIPs: ['ip', 'merge'] },
  'io.k8s.api.core.v1.ServiceSpec': { ports: ['port', 'merge'] },
  'io.k8s.api.core.v1.ServiceAccount': { secrets: ['name', 'merge'] },
  'io.k8s.api.core.v1.NodeStatus': { conditions: ['type', 'merge'], addresses: ['type', 'merge'] },
  'io.k8s.api.core.v1.NodeSpec': { podCIDRs: [undefined, 'merge'] },
  'io.k8s.api.apps.v1.DeploymentSpec': { strategy: [undefined, 'retainKeys'] },
  'io.k8s.api.apps.v1.DeploymentStatus': { conditions: ['type', 'merge'] },
  'io.k8s.api.apps.v1.DaemonSetStatus': { conditions: ['type', 'merge'] },
  'io.k8s.api.apps.v1.StatefulSetStatus': { conditions: ['type', 'merge'] },
  'io.k8s.api.apps.v1.ReplicaSetStatus': { conditions: ['type', 'merge'] },
};

interface Parsed {
  camel: string;
  file: string;
}

class Builder {
  readonly defs: Record<string, Schema> = {};
  private files = new Map<string, Parsed>();

  /** Adds the definition in a kubernetes-models .d.ts file (and everything it references); returns its name. */
  addFile(file: string): string {
    const text = readFileSync(file, 'utf8');
    const alias = /export type \{ I\w+ as I(IoK8s\w+),/.exec(text);
    if (!alias) throw new Error(`openapi: no schema name in ${file}`);
    const camel = alias[1];
    const name = definitionName(camel);
    if (this.defs[name]) return name;
    if (SPECIAL[camel]) {
      this.defs[name] = { ...SPECIAL[camel].schema, description: leadingDoc(text) };
      return name;
    }
    this.defs[name] = {}; // placeholder: breaks reference cycles (JSONSchemaProps-like recursion)
    const imports = new Map<string, string>();
    for (const m of text.matchAll(/^import \{ I(IoK8s\w+) \} from "([^"]+)";$/gm)) imports.set(m[1], this.resolveImport(m[2], file));
    this.defs[name] = this.parseInterface(text, name, imports);
    return name;
  }

  private resolveImport(spec: string, from: string): string {
    if (spec.startsWith('.')) return resolve(dirname(from), spec).replace(/\.js$/, '') + '.d.ts';
    return packageFile(spec, dirname(from));
  }

  private parseInterface(text: string, name: string, imports: Map<string, string>): Schema {
    const m = /(\/\*\*(?:(?!\*\/)[\s\S])*\*\/\n)?export interface I\w+(?: extends [\w, ]+)? \{\n([\s\S]*?)\n\}/.exec(text);
    if (!m) {
      // A type alias (e.g. `export type ITime = string`).
      const t = /^export type I\w+ = ([^;]+);$/m.exec(text);
      return { ...this.parseType(t?.[1] ?? 'object', imports), description: leadingDoc(text) };
    }
    const schema: Schema = { description: docText(m[1]), type: 'object' };
    const props: Record<string, Schema> = {};
    const required: string[] = [];
    const lines = m[2].split('\n');
    let doc: string | undefined;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line.startsWith('    /**')) {
        const start = i;
        while (!lines[i].includes('*/')) i++;
        doc = docText(lines.slice(start, i + 1).join('\n'));
        continue;
      }
      const p = /^ {4}"([^"]+)"(\?)?: (.*)$/.exec(line);
      if (!p) continue;
      let type = p[3];
      // Multi-line types ({ [key: string]: X; } and friends) run until the braces balance.
      while (depth(type) > 0 && i + 1 < lines.length) type += ' ' + lines[++i].trim();
      const prop = this.parseType(type.replace(/;$/, ''), imports);
      if (doc) prop.description = doc;
      doc = undefined;
      props[p[1]] = prop;
      if (!p[2] && p[1] !== 'apiVersion' && p[1] !== 'kind') required.push(p[1]);
    }
    this.applyFormats(name, props);
    for (const [prop, [key, strategy]] of Object.entries(PATCH[name] ?? {})) {
      const s = props[prop];
      if (!s) continue;
      s['x-kubernetes-patch-strategy'] = strategy;
      if (key) {
        s['x-kubernetes-patch-merge-key'] = key;
        s['x-kubernetes-list-type'] = 'map';
        s['x-kubernetes-list-map-keys'] = [key];
      }
    }
    if (Object.keys(props).length) schema.properties = props;
    if (required.length) schema.required = required;
    return schema;
  }

  private parseType(raw: string, imports: Map<string, string>): Schema {
    const t = raw.trim();
    const arr = /^Array<([\s\S]*)>$/.exec(t);
    if (arr) return { type: 'array', items: this.parseType(arr[1], imports) };
    const map = /^\{\s*\[key: string\]: ([\s\S]*?);?\s*\}$/.exec(t);
    if (map) return { type: 'object', additionalProperties: this.parseType(map[1], imports) };
    if (/^"[^"]*"(\s*\|\s*"[^"]*")+$/.test(t)) return { type: 'string', enum: [...t.matchAll(/"([^"]*)"/g)].map(x => x[1]) };
    if (/^"[^"]*"$/.test(t) || t === 'string') return { type: 'string' };
    if (t === 'number') return { type: 'number' };
    if (t === 'boolean') return { type: 'boolean' };
    const ref = /^I(IoK8s\w+)$/.exec(t);
    if (ref) {
      const file = imports.get(ref[1]);
      if (!file) throw new Error(`openapi: unresolved type ${t}`);
      return { $ref: V2_REF + this.addFile(file) };
    }
    return { type: 'object' };
  }

  /** number → integer with int32/int64 where the client-node model says so. */
  private applyFormats(name: string, props: Record<string, Schema>): void {
    const formats = clientNodeFormats(name);
    for (const [prop, s] of Object.entries(props)) {
      const target = s.type === 'array' && s.items ? s.items : s.type === 'object' && s.additionalProperties ? s.additionalProperties : s;
      if (target.type !== 'number') continue;
      const f = formats.get(prop);
      if (f === 'double' || f === 'float') target.format = f;
      else {
        target.type = 'integer';
        target.format = f || 'int32';
      }
    }
  }
}

function depth(s: string): number {
  let d = 0;
  for (const ch of s) {
    if (ch === '{' || ch === '<') d++;
    else if (ch === '}' || ch === '>') d--;
  }
  return d;
}

function docText(block: string | undefined): string | undefined {
  if (!block) return undefined;
  const text = block
    .split('\n')
    .map(l =>
      l
        .trim()
        .replace(/^\/\*\*|\*\/$/g, '')
        .replace(/^\* ?|^\*$/, '')
        .trimEnd(),
    )
    .join('\n')
    .trim();
  return text || undefined;
}

function leadingDoc(text: string): string | undefined {
  return docText(/\/\*\*(?:(?!\*\/)[\s\S])*\*\//.exec(text)?.[0]);
}

/** Formats (int32, int64, double) of the @kubernetes/client-node model of a definition. */
function clientNodeFormats(name: string): Map<string, string> {
  const parts = name.split('.');
  const kind = parts.at(-1)!,
    version = parts.at(-2)!,
    group = parts.at(-3)!;
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const models = k8s as unknown as Record<string, { attributeTypeMap?: { name: string; format: string }[] } | undefined>;
  const model = models[cap(group) + cap(version) + kind] ?? models[cap(version) + kind];
  return new Map((model?.attributeTypeMap ?? []).map(a => [a.name, a.format]));
}

/**
 * The .d.ts of a package subpath ("@kubernetes-models/apimachinery/apis/meta/v1/Status"), found
 * by walking up node_modules as Node does. (The packages export only "import" conditions and
 * import.meta.resolve is not available in every loader, so resolve the files directly.)
 */
function packageFile(spec: string, fromDir: string): string {
  const parts = spec.split('/');
  const n = spec.startsWith('@') ? 2 : 1;
  const pkg = parts.slice(0, n).join('/');
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const root = join(dir, 'node_modules', pkg);
    if (existsSync(join(root, 'package.json'))) return join(root, ...parts.slice(n)) + '.d.ts';
    if (dirname(dir) === dir) throw new Error(`openapi: cannot find package ${pkg}`);
  }
}

const HERE = dirname(fileURLToPath(import.meta.url));

function modelFile(r: Pick<ResourceType, 'group' | 'version'>, kind: string): string | undefined {
  const file = packageFile(r.group ? `kubernetes-models/${r.group}/${r.version}/${kind}` : `kubernetes-models/${r.version}/${kind}`, HERE);
  return existsSync(file) ? file : undefined;
}

const META = ['Status', 'DeleteOptions', 'Patch', 'WatchEvent', 'APIResourceList'];

export interface Definitions {
  defs: Record<string, Schema>;
  /** Definition name of each served kind (and its List), keyed "group/version/Kind". */
  kinds: Map<string, string>;
}

let built: Definitions | undefined;

/** All definitions, built on first use. */
export function definitions(): Definitions {
  if (built) return built;
  const b = new Builder();
  const kinds = new Map<string, string>();
  for (const r of RESOURCES) {
    for (const kind of [r.kind, r.listKind]) {
      const file = modelFile(r, kind);
      if (!file) continue;
      let name: string;
      try {
        name = b.addFile(file);
      } catch {
        continue;
      }
      kinds.set(`${r.group}/${r.version}/${kind}`, name);
      const gvk: GVK = { group: r.group, kind, version: r.version };
      const def = b.defs[name];
      if (!(def['x-kubernetes-group-version-kind'] ?? []).some(g => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind))
        def['x-kubernetes-group-version-kind'] = [...(def['x-kubernetes-group-version-kind'] ?? []), gvk];
    }
  }
  for (const m of META) {
    const file = packageFile(`@kubernetes-models/apimachinery/apis/meta/v1/${m}`, dirname(packageFile('kubernetes-models/index', HERE)));
    const name = b.addFile(file);
    if (m === 'Status') b.defs[name]['x-kubernetes-group-version-kind'] = [{ group: '', kind: 'Status', version: 'v1' }];
  }
  built = { defs: b.defs, kinds };
  return built;
}

/** The names a set of definitions reference, transitively (themselves included). */
export function closure(defs: Record<string, Schema>, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (s: Schema | undefined) => {
    if (!s) return;
    if (s.$ref) add(s.$ref.slice(V2_REF.length));
    visit(s.items);
    visit(s.additionalProperties);
    for (const p of Object.values(s.properties ?? {})) visit(p);
  };
  const add = (name: string) => {
    if (seen.has(name) || !defs[name]) return;
    seen.add(name);
    visit(defs[name]);
  };
  roots.forEach(add);
  return seen;
}
