// PowerShell values as the interpreter models them, and the language's conversion
// rules that probes depend on: case-insensitive string comparison, conversion of the
// right operand to the left operand's type, truthiness, and intrinsic Count/Length.

import type { Stmt } from './ast.ts';

export interface TableView {
  kind: 'table';
  columns: { name: string; width?: number; minWidth?: number; align?: 'left' | 'right' }[];
}
export interface ListView {
  kind: 'list';
  props: string[];
}
export type View = TableView | ListView;

/** A .NET-like object: ordered properties (looked up case-insensitively) and a display type. */
export class PSObject {
  readonly props: [string, PSValue][];
  constructor(
    readonly typeName: string,
    props: [string, PSValue][] | Record<string, PSValue>,
    /** What ToString()/string interpolation gives. */
    readonly str?: string,
  ) {
    this.props = Array.isArray(props) ? props : Object.entries(props);
  }
  /** A forced display (Format-Table / Format-List). */
  view?: View;
  /** .NET methods of simulated objects (TcpClient.ConnectAsync, Task.Wait), by lower-case name. */
  methods?: Record<string, (args: PSValue[]) => Promise<PSValue>>;
  withView(v: View): this {
    this.view = v;
    return this;
  }
  get(name: string): PSValue | undefined {
    const l = name.toLowerCase();
    return this.props.find(([k]) => k.toLowerCase() === l)?.[1];
  }
  has(name: string): boolean {
    const l = name.toLowerCase();
    return this.props.some(([k]) => k.toLowerCase() === l);
  }
  set(name: string, v: PSValue): void {
    const l = name.toLowerCase();
    const i = this.props.findIndex(([k]) => k.toLowerCase() === l);
    if (i >= 0) this.props[i] = [this.props[i]![0], v];
    else this.props.push([name, v]);
  }
}

export class ScriptBlock {
  constructor(
    readonly body: Stmt[],
    readonly src: string,
  ) {}
}
export class PSType {
  constructor(readonly name: string) {}
}
/** Stdout of a native program: written raw at top level, split into lines when captured. */
export class NativeOutput {
  constructor(readonly data: Buffer) {}
}

export type PSValue = null | string | number | boolean | Date | PSValue[] | PSObject | ScriptBlock | PSType | NativeOutput;

export function lines(out: NativeOutput): string[] {
  const t = out.data.toString('utf8').replace(/\r?\n$/, '');
  return t === '' ? [] : t.split(/\r?\n/);
}

export function isArray(v: PSValue | undefined): v is PSValue[] {
  return Array.isArray(v);
}

/** Pipeline results: none -> $null, one -> itself, several -> array (PowerShell unrolling). */
export function collapse(vs: PSValue[]): PSValue {
  if (vs.length === 0) return null;
  if (vs.length === 1) return vs[0]!;
  return vs;
}

/** Enumerates a value into pipeline items (arrays unroll, everything else is one item). */
export function enumerate(v: PSValue | undefined): PSValue[] {
  if (v === undefined || v === null) return [];
  if (Array.isArray(v)) return v;
  return [v];
}

export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** Invariant-culture date text, as string interpolation gives it: 11/30/2026 03:31:27. */
export function dateInvariant(d: Date): string {
  return `${pad2(d.getUTCMonth() + 1)}/${pad2(d.getUTCDate())}/${d.getUTCFullYear()} ${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`;
}

export function toStr(v: PSValue | undefined): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e12) / 1e12);
  if (v instanceof Date) return dateInvariant(v);
  if (Array.isArray(v)) return v.map(toStr).join(' ');
  if (v instanceof PSObject) {
    if (v.str !== undefined) return v.str;
    if (v.typeName === 'PSCustomObject') return `@{${v.props.map(([k, x]) => `${k}=${toStr(x)}`).join('; ')}}`;
    return v.typeName;
  }
  if (v instanceof ScriptBlock) return v.src;
  if (v instanceof PSType) return v.name;
  return lines(v).join(' ');
}

export function truthy(v: PSValue | undefined): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v.length > 0;
  if (typeof v === 'number') return v !== 0;
  if (Array.isArray(v)) return v.length === 0 ? false : v.length === 1 ? truthy(v[0]) : true;
  return true;
}

export function toNum(v: PSValue | undefined): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v === null || v === undefined) return 0;
  if (typeof v === 'string') {
    const t = v.trim();
    if (t === '') return 0;
    const n = /^0x[0-9a-f]+$/i.test(t) ? parseInt(t, 16) : Number(t);
    if (Number.isNaN(n)) throw new TypeError(`Cannot convert value "${v}" to type "System.Int32". Error: "Input string was not in a correct format."`);
    return n;
  }
  if (v instanceof Date) return v.getTime();
  if (Array.isArray(v) && v.length === 1) return toNum(v[0]);
  throw new TypeError(`Cannot convert the "${toStr(v)}" value of type "${typeOf(v)}" to type "System.Int32".`);
}

export function typeOf(v: PSValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return 'System.String';
  if (typeof v === 'number') return Number.isInteger(v) ? 'System.Int32' : 'System.Double';
  if (typeof v === 'boolean') return 'System.Boolean';
  if (v instanceof Date) return 'System.DateTime';
  if (Array.isArray(v)) return 'System.Object[]';
  if (v instanceof PSObject) return v.typeName;
  if (v instanceof ScriptBlock) return 'System.Management.Automation.ScriptBlock';
  return 'System.Object';
}

/** Wildcard (-like) pattern to a RegExp: * ? and [...]. */
export function wildcard(p: string): RegExp {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const e = p.indexOf(']', i);
      if (e > i) {
        re += p.slice(i, e + 1);
        i = e;
      } else re += '\\[';
    } else if (c === '`' && i + 1 < p.length) re += p[++i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'is');
}

/** Scalar equality with the right operand converted to the left's type. */
export function scalarEq(l: PSValue, r: PSValue, ci = true): boolean {
  if (l === null || r === null) return l === r || (l === null && Array.isArray(r) && false);
  if (typeof l === 'number') {
    try {
      return l === toNum(r);
    } catch {
      return false;
    }
  }
  if (typeof l === 'boolean') return l === truthy(r);
  if (typeof l === 'string') {
    const rs = toStr(r);
    return ci ? l.toLowerCase() === rs.toLowerCase() : l === rs;
  }
  if (l instanceof Date && r instanceof Date) return l.getTime() === r.getTime();
  if (l instanceof PSObject && l.str !== undefined) return scalarEq(l.str, r, ci);
  return l === r;
}

/** Ordering with the right operand converted to the left's type (strings case-insensitive). */
export function scalarCmp(l: PSValue, r: PSValue, ci = true): number {
  if (typeof l === 'number' || typeof l === 'boolean') {
    const a = toNum(l);
    const b = toNum(r);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (l instanceof Date) {
    const b = r instanceof Date ? r.getTime() : new Date(toStr(r)).getTime();
    return l.getTime() < b ? -1 : l.getTime() > b ? 1 : 0;
  }
  if (l === null) return r === null ? 0 : -1;
  const a = ci ? toStr(l).toLowerCase() : toStr(l);
  const b = ci ? toStr(r).toLowerCase() : toStr(r);
  return a < b ? -1 : a > b ? 1 : 0;
}
