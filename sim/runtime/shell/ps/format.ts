// Out-Default: how the console host renders pipeline output when it reaches stdout.
// Strings and numbers one per line; objects as a table (up to 4 properties, or a
// type with a table view) or a list, with PowerShell's blank lines around them. CRLF.

import { NativeOutput, PSObject, PSType, ScriptBlock, isArray, toStr } from './values.ts';
import type { PSValue } from './values.ts';

import type { ListView, TableView, View } from './values.ts';
export type { ListView, TableView, View } from './values.ts';

/** Views per type name (what PowerShell's format.ps1xml files provide). */
const VIEWS: Record<string, View> = {
  ServiceController: { kind: 'table', columns: [{ name: 'Status', width: 8 }, { name: 'Name', minWidth: 8 }, { name: 'DisplayName' }] },
  DnsRecord: {
    kind: 'table',
    columns: [{ name: 'Name', minWidth: 40 }, { name: 'Type', width: 6 }, { name: 'TTL', width: 5 }, { name: 'Section', width: 10 }, { name: 'IPAddress' }],
  },
  ComputeProcess: { kind: 'table', columns: [{ name: 'Id' }, { name: 'Name' }, { name: 'Owner' }, { name: 'Type' }] },
  Hashtable: { kind: 'table', columns: [{ name: 'Name' }, { name: 'Value' }] },
  DictionaryEntry: { kind: 'table', columns: [{ name: 'Name', minWidth: 30 }, { name: 'Value' }] },
  HnsNetwork: { kind: 'list', props: ['ID', 'Name', 'Type', 'ManagementIP', 'Subnets'] },
  TestNetConnectionResult: { kind: 'list', props: [] },
  NetAdapter: {
    kind: 'table',
    columns: [
      { name: 'Name', minWidth: 20 },
      { name: 'InterfaceDescription', minWidth: 32 },
      { name: 'ifIndex', align: 'right' },
      { name: 'Status', minWidth: 6 },
      { name: 'MacAddress', minWidth: 17 },
      { name: 'LinkSpeed', align: 'right' },
    ],
  },
  DnsClientServerAddress: {
    kind: 'table',
    columns: [{ name: 'InterfaceAlias', minWidth: 24 }, { name: 'Interface', align: 'right' }, { name: 'Address', minWidth: 7 }, { name: 'ServerAddresses' }],
  },
  CommandInfo: {
    kind: 'table',
    columns: [{ name: 'CommandType', minWidth: 11 }, { name: 'Name', minWidth: 30 }, { name: 'Version', minWidth: 10 }, { name: 'Source' }],
  },
  PathInfo: { kind: 'table', columns: [{ name: 'Path' }] },
  GenericMeasureInfo: { kind: 'list', props: ['Count', 'Average', 'Sum', 'Maximum', 'Minimum', 'Property'] },
};

/** Objects the console shows as their string (Select-String matches, IP addresses in strings). */
const STRINGY = new Set(['MatchInfo']);

export function viewFor(o: PSObject): View {
  if (o.view) return o.view;
  const v = VIEWS[o.typeName];
  if (v && !(v.kind === 'list' && v.props.length === 0)) return v;
  // Views listing only the properties an object has (Test-NetConnection varies by outcome).
  if (v) return { kind: 'list', props: o.props.map(([k]) => k) };
  const shown = o.props.filter(([k]) => !k.startsWith('__'));
  return shown.length <= 4
    ? { kind: 'table', columns: shown.map(([k, x]) => ({ name: k, align: typeof x === 'number' ? 'right' : 'left' })) }
    : { kind: 'list', props: shown.map(([k]) => k) };
}

export function cell(v: PSValue | undefined): string {
  if (isArray(v)) return `{${v.map(toStr).join(', ')}}`;
  if (v instanceof PSObject && v.typeName === 'Hashtable') return '{' + v.props.map(([k]) => k).join(', ') + '}';
  return toStr(v ?? null);
}

function table(objs: PSObject[], view: TableView): string {
  const rows = objs.map(o => view.columns.map(c => cell(o.get(c.name))));
  const widths = view.columns.map((c, i) => c.width ?? Math.max(c.minWidth ?? 0, c.name.length, ...rows.map(r => r[i]!.length)));
  const fmt = (vals: string[]): string =>
    vals
      .map((v, i) => {
        const last = i === vals.length - 1;
        const w = widths[i]!;
        const text = v.length > w && !last ? `${v.slice(0, Math.max(0, w - 3))}...` : v;
        return view.columns[i]!.align === 'right' ? text.padStart(w) : last ? text : text.padEnd(w);
      })
      .join(' ')
      .trimEnd();
  const header = fmt(view.columns.map(c => c.name));
  const dashes = fmt(view.columns.map(c => '-'.repeat(c.name.length)));
  return `\r\n${header}\r\n${dashes}\r\n${rows.map(r => `${fmt(r)}\r\n`).join('')}\r\n\r\n`;
}

function list(objs: PSObject[], view: ListView): string {
  const w = Math.max(...view.props.map(p => p.length));
  const blocks = objs.map(o => view.props.map(p => `${p.padEnd(w)} : ${cell(o.get(p))}`.trimEnd()).join('\r\n'));
  return `\r\n${blocks.map(b => `${b}\r\n`).join('\r\n')}\r\n\r\n`;
}

/** Long date/time as the console shows a [DateTime]: "Monday, November 30, 2026 3:31:27 AM". */
export function longDate(d: Date): string {
  const day = d.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  const month = d.toLocaleDateString('en-US', { month: 'long', timeZone: 'UTC' });
  const h = d.getUTCHours();
  const t = `${h % 12 === 0 ? 12 : h % 12}:${String(d.getUTCMinutes()).padStart(2, '0')}:${String(d.getUTCSeconds()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
  return `${day}, ${month} ${d.getUTCDate()}, ${d.getUTCFullYear()} ${t}`;
}

/** Get-ChildItem's listing, grouped by directory. */
function fileTable(items: PSObject[]): string {
  let out = '';
  let dir: string | undefined;
  for (const f of items) {
    const parent = toStr(f.get('DirectoryName') ?? null);
    if (parent !== dir) {
      if (dir !== undefined) out += '\r\n';
      dir = parent;
      out += `\r\n\r\n    Directory: ${parent}\r\n\r\n\r\nMode                 LastWriteTime         Length Name\r\n----                 -------------         ------ ----\r\n`;
    }
    const d = f.get('LastWriteTime');
    const when = d instanceof Date ? shortDate(d) : '';
    const len = f.get('Length');
    out += `${toStr(f.get('Mode') ?? null).padEnd(6)}        ${when.padStart(20)} ${(len === null || len === undefined ? '' : toStr(len)).padStart(14)} ${toStr(f.get('Name') ?? null)}\r\n`;
  }
  return `${out}\r\n\r\n`;
}

function shortDate(d: Date): string {
  const h = d.getUTCHours();
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} ${String(h % 12 === 0 ? 12 : h % 12).padStart(2)}:${String(d.getUTCMinutes()).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
}

/** Renders a statement's output. NativeOutput is passed through raw by the caller. */
export function render(values: PSValue[]): string {
  let out = '';
  let i = 0;
  while (i < values.length) {
    const v = values[i]!;
    if (v instanceof PSObject && STRINGY.has(v.typeName)) {
      out += `${toStr(v)}\r\n`;
    } else if (v instanceof PSObject && v.typeName === 'FileSystemInfo') {
      const group: PSObject[] = [v];
      while (i + 1 < values.length) {
        const n = values[i + 1];
        if (!(n instanceof PSObject) || n.typeName !== v.typeName) break;
        group.push(n);
        i++;
      }
      out += fileTable(group);
    } else if (v instanceof PSObject && !(v.str !== undefined && VIEWS[v.typeName] === undefined && v.props.length === 0)) {
      const group: PSObject[] = [v];
      while (i + 1 < values.length) {
        const n = values[i + 1];
        if (!(n instanceof PSObject) || n.typeName !== v.typeName) break;
        group.push(n);
        i++;
      }
      const view = viewFor(v);
      out += view.kind === 'table' ? table(group, view) : list(group, view);
    } else if (v instanceof Date) {
      out += `\r\n${longDate(v)}\r\n\r\n\r\n`;
    } else if (v instanceof NativeOutput) {
      out += v.data.toString('utf8');
    } else if (isArray(v)) {
      out += render(v);
    } else if (v instanceof ScriptBlock || v instanceof PSType) {
      out += `${toStr(v)}\r\n`;
    } else if (v !== null) {
      out += `${toStr(v)}\r\n`;
    }
    i++;
  }
  return out;
}
