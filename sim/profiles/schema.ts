// A small declarative checker for profile YAML: each rule knows its shape, so the
// error can name the exact field path. Errors are one line: "<path> must ...".

export type Rule =
  | { kind: 'string'; pattern?: RegExp; shape?: string }
  | { kind: 'boolean' }
  | { kind: 'number'; min?: number; max?: number }
  | { kind: 'enum'; values: readonly string[]; what?: string }
  | { kind: 'object'; fields: Record<string, Rule>; required?: string[]; what?: string }
  | { kind: 'array'; of: Rule }
  | { kind: 'map'; of: Rule };

/** A field path and what is wrong with it; the loader prefixes the file name. */
export class SchemaError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`${path} ${problem}`);
  }
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);
const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'a mapping' : `${typeof v} ${JSON.stringify(v)}`);

export function check(rule: Rule, value: unknown, path: string): void {
  const at = path || '(top level)';
  switch (rule.kind) {
    case 'string':
      if (typeof value !== 'string') throw new SchemaError(at, `must be a string, got ${typeName(value)}`);
      if (rule.pattern && !rule.pattern.test(value)) throw new SchemaError(at, `must look like ${rule.shape ?? rule.pattern.source}, got "${value}"`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') throw new SchemaError(at, `must be true or false, got ${typeName(value)}`);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw new SchemaError(at, `must be a number, got ${typeName(value)}`);
      if (rule.min !== undefined && value < rule.min) throw new SchemaError(at, `must be >= ${rule.min}, got ${value}`);
      if (rule.max !== undefined && value > rule.max) throw new SchemaError(at, `must be <= ${rule.max}, got ${value}`);
      return;
    case 'enum':
      if (typeof value !== 'string' || !rule.values.includes(value))
        throw new SchemaError(
          at,
          `${typeof value === 'string' ? `"${value}" is not a known ${rule.what ?? 'value'}` : `must be a string, got ${typeName(value)}`}; one of: ${rule.values.join(', ')}`,
        );
      return;
    case 'array':
      if (!Array.isArray(value)) throw new SchemaError(at, `must be a list, got ${typeName(value)}`);
      value.forEach((v, i) => check(rule.of, v, `${path}[${i}]`));
      return;
    case 'map':
      if (!isMapping(value)) throw new SchemaError(at, `must be a mapping, got ${typeName(value)}`);
      for (const [k, v] of Object.entries(value)) check(rule.of, v, join(path, k));
      return;
    case 'object': {
      if (!isMapping(value)) throw new SchemaError(at, `must be a mapping, got ${typeName(value)}`);
      for (const [k, v] of Object.entries(value)) {
        const sub = rule.fields[k];
        if (!sub) throw new SchemaError(join(path, k), `is not a known ${rule.what ?? 'field'}; known: ${Object.keys(rule.fields).join(', ')}`);
        check(sub, v, join(path, k));
      }
      for (const k of rule.required ?? []) if (!(k in value)) throw new SchemaError(join(path, k), 'is required');
      return;
    }
  }
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
