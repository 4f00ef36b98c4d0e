// The cmdlets of the subset, their parameter binding, and the command aliases.
// Each cmdlet returns its output objects; non-terminating errors go through
// call.error (which honours -ErrorAction), statement-terminating ones are thrown.

import type { ShellHost } from '../types.ts';
import { FsError } from '../types.ts';
import type { Element } from './ast.ts';
import { NativeOutput, PSObject, ScriptBlock, collapse, enumerate, isArray, scalarCmp, scalarEq, toNum, toStr, truthy, wildcard } from './values.ts';
import type { PSValue } from './values.ts';
import { StatementError } from './errors.ts';
import type { ArgToken, Bound, CmdletCall, CmdletSpec } from './cmdletSpec.ts';
import type { PsSession } from './session.ts';
import { render, viewFor } from './format.ts';
import type { View } from './format.ts';
import { computerName, fmtDate, getMember } from './members.ts';
import { ABORTED_EXIT, sleep } from '../io.ts';
import { resolveWin } from '../winPaths.ts';
import { ExitSignal } from './errors.ts';
import { netCommands } from './netcmdlets.ts';

const COMMON = ['ErrorAction|ea', 'WarningAction|wa', 'ErrorVariable|ev', 'OutVariable|ov', 'InformationAction|infa'];
const COMMON_SWITCHES = ['Verbose|vb', 'Debug|db', 'WhatIf', 'Confirm'];

function canon(names: string[], want: string): string | undefined {
  const w = want.toLowerCase();
  for (const n of names) if (n.toLowerCase().split('|').includes(w)) return n.split('|')[0];
  const hits = names.filter(n => n.toLowerCase().split('|')[0]!.startsWith(w));
  return hits.length === 1 ? hits[0]!.split('|')[0] : undefined;
}

export function bindArgs(spec: CmdletSpec, tokens: ArgToken[], el: Extract<Element, { k: 'command' }>): Bound {
  const bound: Bound = {};
  const params = [...(spec.params ?? []), ...COMMON];
  const switches = [...(spec.switches ?? []), ...COMMON_SWITCHES];
  const fq = `Microsoft.PowerShell.Commands.${spec.name.replace('-', '')}Command`;
  const bindErr = (message: string, fqid: string): StatementError =>
    new StatementError({
      message,
      command: spec.name,
      category: 'InvalidArgument',
      target: '',
      targetType: '',
      reason: 'ParameterBindingException',
      fqid: `${fqid},${fq}`,
      start: el.start,
      end: el.end,
    });
  const positional: PSValue[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'pos') {
      positional.push(t.value);
      continue;
    }
    const sw = canon(switches, t.name);
    const p = sw ? undefined : canon(params, t.name);
    if (sw) {
      bound[sw] = t.attached ? truthy(t.value ?? null) : true;
      continue;
    }
    if (!p) throw bindErr(`A parameter cannot be found that matches parameter name '${t.name}'.`, 'NamedParameterNotFound');
    if (t.attached) {
      bound[p] = t.value ?? null;
      continue;
    }
    const next = tokens[i + 1];
    if (!next || next.kind !== 'pos')
      throw bindErr(`Missing an argument for parameter '${p}'. Specify a parameter of type 'System.Object' and try again.`, 'MissingArgument');
    bound[p] = next.value;
    i++;
  }
  const free = (spec.positional ?? []).filter(n => !(n in bound));
  const rest: PSValue[] = [];
  for (const v of positional) {
    const n = free.shift();
    if (n) bound[n] = v;
    else if (spec.rest) rest.push(v);
    else throw bindErr(`A positional parameter cannot be found that accepts argument '${toStr(v)}'.`, 'PositionalParameterNotFound');
  }
  if (spec.rest) bound['__rest'] = rest;
  return bound;
}

const ALIASES: Record<string, string> = {
  echo: 'Write-Output',
  write: 'Write-Output',
  where: 'Where-Object',
  '?': 'Where-Object',
  select: 'Select-Object',
  foreach: 'ForEach-Object',
  '%': 'ForEach-Object',
  gc: 'Get-Content',
  cat: 'Get-Content',
  type: 'Get-Content',
  ls: 'Get-ChildItem',
  dir: 'Get-ChildItem',
  gci: 'Get-ChildItem',
  rm: 'Remove-Item',
  del: 'Remove-Item',
  ri: 'Remove-Item',
  rmdir: 'Remove-Item',
  erase: 'Remove-Item',
  rd: 'Remove-Item',
  ni: 'New-Item',
  sleep: 'Start-Sleep',
  measure: 'Measure-Object',
  gsv: 'Get-Service',
  iwr: 'Invoke-WebRequest',
  irm: 'Invoke-RestMethod',
  sort: 'Sort-Object',
  ft: 'Format-Table',
  fl: 'Format-List',
  pwd: 'Get-Location',
  gl: 'Get-Location',
  cd: 'Set-Location',
  sl: 'Set-Location',
  chdir: 'Set-Location',
  md: 'mkdir',
  tnc: 'Test-NetConnection',
  gi: 'Get-Item',
  gcm: 'Get-Command',
  ac: 'Add-Content',
  cls: 'Clear-Host',
  clear: 'Clear-Host',
  sls: 'Select-String',
  gp: 'Get-ItemProperty',
  gwmi: 'Get-WmiObject',
  gcim: 'Get-CimInstance',
};
/** Windows PowerShell 5.1 only: curl/wget call Invoke-WebRequest, sc is Set-Content (§2). */
const DESKTOP_ALIASES: Record<string, string> = { curl: 'Invoke-WebRequest', wget: 'Invoke-WebRequest', sc: 'Set-Content' };

let table: Map<string, CmdletSpec> | undefined;
function cmdlets(): Map<string, CmdletSpec> {
  if (!table) {
    table = new Map();
    for (const c of [...coreCommands, ...netCommands]) table.set(c.name.toLowerCase(), c);
  }
  return table;
}

export function findCmdlet(name: string, interp: PsSession): CmdletSpec | undefined {
  let l = name.toLowerCase().replace(/^microsoft\.powershell\.\w+\\/, '');
  if (interp.edition === 'desktop' && DESKTOP_ALIASES[l]) l = DESKTOP_ALIASES[l]!.toLowerCase();
  else if (ALIASES[l]) l = ALIASES[l]!.toLowerCase();
  const spec = cmdlets().get(l);
  if (!spec) return undefined;
  if (spec.available && !spec.available(interp.host)) return undefined;
  return spec;
}

// ---- helpers ----
function str(v: PSValue | undefined): string | undefined {
  return v === undefined || v === null ? undefined : toStr(v);
}
function flag(b: Bound, n: string): boolean {
  return truthy(b[n] ?? null);
}

function decode(buf: Buffer): string {
  if (buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString('utf16le');
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return buf.subarray(3).toString('utf8');
  return buf.toString('utf8');
}

export function encode(text: string, enc: string | undefined, edition: PsSession['edition'], outFile: boolean): Buffer {
  const e = (enc ?? (outFile && edition === 'desktop' ? 'unicode' : 'default')).toLowerCase();
  if (e === 'unicode' || e === 'utf16' || e === 'utf-16') return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  // Windows PowerShell's "UTF8" writes a BOM; pwsh's does not.
  if ((e === 'utf8' && edition === 'desktop') || e === 'utf8bom') return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
  return Buffer.from(text);
}

function pathError(c: CmdletCall, path: string, e: unknown, verb: 'read' | 'write'): void {
  const cmd = c.name.replace('-', '');
  if (e instanceof FsError && (e.code === 'EACCES' || e.code === 'EROFS')) {
    c.error({
      message: `Access to the path '${path}' is denied.`,
      category: 'PermissionDenied',
      target: path,
      reason: 'UnauthorizedAccessException',
      fqid: `${verb === 'read' ? 'GetContentReaderUnauthorizedAccessError' : 'GetContentWriterUnauthorizedAccessError'},Microsoft.PowerShell.Commands.${cmd}Command`,
    });
    return;
  }
  c.error({
    message: `Cannot find path '${path}' because it does not exist.`,
    category: 'ObjectNotFound',
    target: path,
    reason: 'ItemNotFoundException',
    fqid: `PathNotFound,Microsoft.PowerShell.Commands.${cmd}Command`,
  });
}

function fileInfo(host: ShellHost, path: string, e?: { name: string; dir: boolean; size: number; mtime: Date }): PSObject {
  const norm = path.replace(/\//g, '\\').replace(/\\+$/, '') || path;
  const name = e?.name ?? norm.split('\\').pop() ?? norm;
  const dir = e ? e.dir : host.fs.isDir(path);
  const parent = norm.includes('\\') ? norm.slice(0, norm.lastIndexOf('\\')) || norm : norm;
  let size = e?.size ?? 0;
  if (!e && !dir) {
    try {
      size = host.fs.read(path).length;
    } catch {
      size = 0;
    }
  }
  // The read-only attribute is the one permission bit a Windows file keeps (fs.ts readOnlyAttribute):
  // Mode "-ar---", FileInfo.IsReadOnly and Attributes "ReadOnly, Archive".
  const ro = !dir && (host.fs.readOnlyAttribute?.(path) ?? false);
  return new PSObject(
    'FileSystemInfo',
    {
      Mode: dir ? 'd-----' : ro ? '-ar---' : '-a----',
      LastWriteTime: e?.mtime ?? new Date(),
      Length: dir ? null : size,
      Name: name,
      ...(dir ? { Attributes: 'Directory' } : { IsReadOnly: ro, Attributes: ro ? 'ReadOnly, Archive' : 'Archive' }),
      FullName: norm,
      PSIsContainer: dir,
      DirectoryName: /^[a-zA-Z]:$/.test(parent) ? `${parent}\\` : parent,
    },
    norm,
  );
}

function compareWith(c: CmdletCall, b: Bound): (x: PSValue) => Promise<boolean> {
  const filter = b['FilterScript'];
  if (filter instanceof ScriptBlock) return async x => truthy(collapse(await c.interp.invokeBlock(filter, x)));
  const prop = str(b['Property']) ?? '';
  const value = b['Value'] ?? null;
  const ops = ['EQ', 'NE', 'GT', 'GE', 'LT', 'LE', 'Like', 'NotLike', 'Match', 'NotMatch', 'Contains', 'NotContains', 'In', 'NotIn', 'CEQ', 'CNE'];
  const op = ops.find(o => flag(b, o));
  return async x => {
    const v = getMember(x, prop);
    if (!op) return truthy(v);
    const r = await c.interp.binary(op.toLowerCase(), v, value);
    return truthy(r);
  };
}

function asLines(vs: PSValue[]): string[] {
  return vs.map(toStr);
}

const coreCommands: CmdletSpec[] = [
  {
    name: 'Write-Output',
    params: ['InputObject'],
    switches: ['NoEnumerate'],
    positional: ['InputObject'],
    rest: true,
    async run(c) {
      const vals = 'InputObject' in c.bound ? [c.bound['InputObject'] ?? null, ...((c.bound['__rest'] as PSValue[]) ?? [])] : c.input;
      return vals.flatMap(v => (isArray(v) ? v : [v]));
    },
  },
  {
    name: 'Write-Host',
    params: ['Object', 'ForegroundColor', 'BackgroundColor', 'Separator'],
    switches: ['NoNewline'],
    positional: ['Object'],
    rest: true,
    async run(c) {
      const given = 'Object' in c.bound ? [c.bound['Object'] ?? null, ...((c.bound['__rest'] as PSValue[]) ?? [])] : [];
      const vals = given.length === 0 && c.hadInput ? c.input : given;
      const text = vals
        .flatMap(v => (isArray(v) ? v : [v]))
        .map(toStr)
        .join(str(c.bound['Separator']) ?? ' ');
      c.io.stdout.write(text + (flag(c.bound, 'NoNewline') ? '' : '\r\n'));
      return [];
    },
  },
  {
    name: 'Write-Error',
    params: ['Message', 'Category', 'ErrorId'],
    positional: ['Message'],
    rest: true,
    async run(c) {
      const msg = [str(c.bound['Message']) ?? '', ...((c.bound['__rest'] as PSValue[]) ?? []).map(toStr)].join(' ');
      c.error({
        message: msg,
        category: 'NotSpecified',
        target: '',
        targetType: '',
        reason: 'WriteErrorException',
        fqid: 'Microsoft.PowerShell.Commands.WriteErrorException',
      });
      return [];
    },
  },
  {
    name: 'Write-Warning',
    params: ['Message'],
    positional: ['Message'],
    async run(c) {
      c.io.stdout.write(`WARNING: ${str(c.bound['Message']) ?? ''}\r\n`);
      return [];
    },
  },
  {
    name: 'Write-Verbose',
    params: ['Message'],
    positional: ['Message'],
    async run() {
      return [];
    },
  },
  {
    name: 'Write-Debug',
    params: ['Message'],
    positional: ['Message'],
    async run() {
      return [];
    },
  },
  {
    name: 'Write-Information',
    params: ['MessageData', 'Tags'],
    positional: ['MessageData'],
    async run() {
      return [];
    },
  },
  {
    name: 'Out-Null',
    params: ['InputObject'],
    async run() {
      return [];
    },
  },
  {
    name: 'Out-Host',
    params: ['InputObject'],
    async run(c) {
      c.interp.emit(c.input);
      return [];
    },
  },
  {
    name: 'Clear-Host',
    async run() {
      return [];
    },
  },
  {
    name: 'Out-String',
    params: ['InputObject', 'Width'],
    switches: ['Stream'],
    positional: [],
    async run(c) {
      const text = render(c.input);
      return flag(c.bound, 'Stream') ? text.split('\r\n').slice(0, -1) : [text];
    },
  },
  {
    name: 'Format-Table',
    params: ['Property'],
    switches: ['AutoSize', 'HideTableHeaders', 'Wrap'],
    positional: ['Property'],
    async run(c) {
      return [new NativeOutput(Buffer.from(renderAs(c.input, 'table', c.bound['Property'])))];
    },
  },
  {
    name: 'Format-List',
    params: ['Property'],
    positional: ['Property'],
    async run(c) {
      return [new NativeOutput(Buffer.from(renderAs(c.input, 'list', c.bound['Property'])))];
    },
  },
  {
    name: 'Where-Object',
    params: ['FilterScript', 'Property', 'Value', 'InputObject'],
    switches: [
      'EQ',
      'NE',
      'GT',
      'GE',
      'LT',
      'LE',
      'Like',
      'NotLike',
      'Match',
      'NotMatch',
      'Contains',
      'NotContains',
      'In',
      'NotIn',
      'CEQ',
      'CNE',
      'Is',
      'IsNot',
    ],
    positional: ['__first', 'Value'],
    async run(c) {
      const first = c.bound['__first'];
      if (first instanceof ScriptBlock) c.bound['FilterScript'] = first;
      else if (first !== undefined) c.bound['Property'] = first;
      const test = compareWith(c, c.bound);
      const out: PSValue[] = [];
      for (const x of c.input) if (await test(x)) out.push(x);
      return out;
    },
  },
  {
    name: 'ForEach-Object',
    params: ['Process', 'MemberName', 'Begin', 'End'],
    positional: ['Process'],
    async run(c) {
      const p = c.bound['Process'] ?? c.bound['MemberName'];
      const out: PSValue[] = [];
      if (c.bound['Begin'] instanceof ScriptBlock) out.push(...(await c.interp.invokeBlock(c.bound['Begin'], null)));
      for (const x of c.input) {
        if (p instanceof ScriptBlock) out.push(...(await c.interp.invokeBlock(p, x)));
        else out.push(...enumerate(getMember(x, toStr(p ?? null))));
      }
      if (c.bound['End'] instanceof ScriptBlock) out.push(...(await c.interp.invokeBlock(c.bound['End'], null)));
      return out;
    },
  },
  {
    name: 'Select-Object',
    params: ['Property', 'ExpandProperty', 'First', 'Last', 'Skip', 'Index'],
    switches: ['Unique'],
    positional: ['Property'],
    async run(c) {
      let items = c.input;
      const b = c.bound;
      if (b['Skip'] !== undefined) items = items.slice(toNum(b['Skip'] ?? 0));
      if (b['First'] !== undefined) items = items.slice(0, toNum(b['First'] ?? 0));
      if (b['Last'] !== undefined) items = items.slice(-toNum(b['Last'] ?? 0) || items.length);
      if (flag(b, 'Unique')) items = items.filter((x, i) => items.findIndex(y => scalarEq(y, x, false)) === i);
      const exp = str(b['ExpandProperty']);
      if (exp) {
        const out: PSValue[] = [];
        for (const x of items) {
          const v = getMember(x, exp);
          if (v === null && !(x instanceof PSObject && x.has(exp))) {
            c.error({
              message: `Property "${exp}" cannot be found.`,
              category: 'InvalidArgument',
              target: toStr(x),
              reason: 'PSArgumentException',
              fqid: 'ExpandPropertyNotFound,Microsoft.PowerShell.Commands.SelectObjectCommand',
            });
            continue;
          }
          out.push(...enumerate(v));
        }
        return out;
      }
      if (b['Property'] !== undefined) {
        const names = enumerate(b['Property'] ?? null).map(toStr);
        return items.map(x => {
          if (names.includes('*') && x instanceof PSObject)
            return new PSObject(
              'PSCustomObject',
              x.props.map(([k, v]): [string, PSValue] => [k, v]),
            );
          return new PSObject(
            'PSCustomObject',
            names.map((n): [string, PSValue] => [
              x instanceof PSObject ? (x.props.find(([k]) => k.toLowerCase() === n.toLowerCase())?.[0] ?? n) : n,
              getMember(x, n),
            ]),
          );
        });
      }
      return items;
    },
  },
  {
    name: 'Measure-Object',
    params: ['Property'],
    switches: ['Sum', 'Average', 'Maximum', 'Minimum', 'Line', 'Word', 'Character'],
    positional: ['Property'],
    async run(c) {
      const prop = str(c.bound['Property']);
      const vals = c.input.filter(x => x !== null).map(x => (prop ? getMember(x, prop) : x));
      const nums = (): number[] => vals.map(toNum);
      const b = c.bound;
      return [
        new PSObject('GenericMeasureInfo', {
          Count: vals.length,
          Average: flag(b, 'Average') ? nums().reduce((a, x) => a + x, 0) / Math.max(1, vals.length) : null,
          Sum: flag(b, 'Sum') ? nums().reduce((a, x) => a + x, 0) : null,
          Maximum: flag(b, 'Maximum') ? Math.max(...nums()) : null,
          Minimum: flag(b, 'Minimum') ? Math.min(...nums()) : null,
          Property: prop ?? null,
        }),
      ];
    },
  },
  {
    name: 'Sort-Object',
    params: ['Property'],
    switches: ['Descending', 'Unique'],
    positional: ['Property'],
    async run(c) {
      const prop = str(c.bound['Property']);
      const key = (x: PSValue): PSValue => (prop ? getMember(x, prop) : x);
      let out = [...c.input].sort((a, b) => scalarCmp(key(a), key(b)));
      if (flag(c.bound, 'Descending')) out.reverse();
      if (flag(c.bound, 'Unique')) out = out.filter((x, i) => out.findIndex(y => scalarEq(key(y), key(x))) === i);
      return out;
    },
  },
  {
    name: 'Select-String',
    params: ['Pattern', 'Path', 'InputObject'],
    switches: ['SimpleMatch', 'CaseSensitive', 'Quiet', 'NotMatch'],
    positional: ['Pattern', 'Path'],
    async run(c) {
      const pat = toStr(c.bound['Pattern'] ?? '');
      const re = flag(c.bound, 'SimpleMatch')
        ? new RegExp(pat.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flag(c.bound, 'CaseSensitive') ? '' : 'i')
        : new RegExp(pat, flag(c.bound, 'CaseSensitive') ? '' : 'i');
      let lines = asLines(c.input);
      const path = str(c.bound['Path']);
      if (path) {
        try {
          lines = decode(c.host.fs.read(resolveWin(c.interp.cwd, path))).split(/\r?\n/);
        } catch (e) {
          pathError(c, path, e, 'read');
          return [];
        }
      }
      const hits = lines.filter(l => re.test(l) !== flag(c.bound, 'NotMatch'));
      if (flag(c.bound, 'Quiet')) return [hits.length > 0];
      return hits.map(l => new PSObject('MatchInfo', { Line: l, Pattern: pat }, l));
    },
  },
  {
    name: 'Get-Content',
    params: ['Path|LiteralPath|PSPath', 'TotalCount|Head|First', 'Tail|Last', 'Encoding'],
    switches: ['Raw'],
    positional: ['Path'],
    async run(c) {
      const out: PSValue[] = [];
      for (const p of enumerate(c.bound['Path'] ?? null).map(toStr)) {
        const path = resolveWin(c.interp.cwd, p);
        let text: string;
        try {
          if (c.host.fs.isDir(path)) {
            c.error({
              message: `Access to the path '${path}' is denied.`,
              category: 'PermissionDenied',
              target: path,
              reason: 'UnauthorizedAccessException',
              fqid: 'GetContentReaderUnauthorizedAccessError,Microsoft.PowerShell.Commands.GetContentCommand',
            });
            continue;
          }
          text = decode(c.host.fs.read(path));
        } catch (e) {
          pathError(c, path, e, 'read');
          continue;
        }
        if (flag(c.bound, 'Raw')) {
          out.push(text);
          continue;
        }
        let lines = text.split(/\r?\n/);
        if (lines[lines.length - 1] === '') lines.pop();
        if (c.bound['TotalCount'] !== undefined) lines = lines.slice(0, toNum(c.bound['TotalCount'] ?? 0));
        if (c.bound['Tail'] !== undefined) lines = lines.slice(-toNum(c.bound['Tail'] ?? 0));
        out.push(...lines);
      }
      return out;
    },
  },
  ...['Set-Content', 'Add-Content', 'Out-File'].map((name): CmdletSpec => ({
    name,
    params: ['Path|LiteralPath|FilePath', 'Value', 'Encoding', 'InputObject'],
    switches: ['NoNewline', 'Force', 'Append', 'PassThru', 'NoClobber'],
    positional: name === 'Out-File' ? ['Path', 'Encoding'] : ['Path', 'Value'],
    async run(c) {
      const path = resolveWin(c.interp.cwd, toStr(c.bound['Path'] ?? ''));
      const vals =
        c.bound['Value'] !== undefined
          ? enumerate(c.bound['Value'] ?? null)
          : c.bound['InputObject'] !== undefined
            ? enumerate(c.bound['InputObject'] ?? null)
            : c.input;
      const nl = flag(c.bound, 'NoNewline') ? '' : '\r\n';
      const text = name === 'Out-File' ? render(vals) : vals.map(v => `${toStr(v)}${nl}`).join('');
      const append = name === 'Add-Content' || flag(c.bound, 'Append');
      const exists = c.host.fs.exists(path);
      // Add-Content to an existing file keeps its encoding: no second BOM.
      const data = append && exists ? Buffer.from(text) : encode(text, str(c.bound['Encoding']), c.interp.edition, name === 'Out-File');
      try {
        c.host.fs.write(path, data, { append });
      } catch (e) {
        if (e instanceof FsError && e.code === 'ENOENT') {
          c.error({
            message: `Could not find a part of the path '${path}'.`,
            category: 'ObjectNotFound',
            target: path,
            reason: 'DirectoryNotFoundException',
            fqid: `GetContentWriterDirectoryNotFoundError,Microsoft.PowerShell.Commands.${name.replace('-', '')}Command`,
          });
          return [];
        }
        pathError(c, path, e, 'write');
      }
      return [];
    },
  })),
  {
    name: 'Test-Path',
    params: ['Path|LiteralPath', 'PathType'],
    switches: ['IsValid'],
    positional: ['Path'],
    async run(c) {
      return enumerate(c.bound['Path'] ?? null).map(p => {
        const path = resolveWin(c.interp.cwd, toStr(p));
        if (/^env:/i.test(toStr(p))) return c.interp.getVar(toStr(p)) !== null;
        if (!c.host.fs.exists(path)) return false;
        const t = str(c.bound['PathType'])?.toLowerCase();
        if (t === 'leaf') return !c.host.fs.isDir(path);
        if (t === 'container') return c.host.fs.isDir(path);
        return true;
      });
    },
  },
  {
    name: 'New-Item',
    params: ['Path', 'Name', 'ItemType|Type', 'Value'],
    switches: ['Force'],
    positional: ['Path'],
    async run(c) {
      return newItem(c, str(c.bound['ItemType'])?.toLowerCase() === 'directory');
    },
  },
  {
    name: 'mkdir',
    params: ['Path', 'Name'],
    switches: ['Force'],
    positional: ['Path'],
    async run(c) {
      return newItem(c, true);
    },
  },
  {
    name: 'Remove-Item',
    params: ['Path|LiteralPath'],
    switches: ['Recurse', 'Force'],
    positional: ['Path'],
    async run(c) {
      for (const p of enumerate(c.bound['Path'] ?? null).map(toStr)) {
        const path = resolveWin(c.interp.cwd, p);
        if (!c.host.fs.exists(path)) {
          pathError(c, path, new FsError('ENOENT', p), 'write');
          continue;
        }
        try {
          c.host.fs.remove(path);
        } catch (e) {
          pathError(c, path, e, 'write');
        }
      }
      return [];
    },
  },
  {
    name: 'Get-ChildItem',
    params: ['Path|LiteralPath', 'Filter'],
    switches: ['Recurse', 'Name', 'Force', 'File', 'Directory'],
    positional: ['Path', 'Filter'],
    async run(c) {
      const out: PSValue[] = [];
      for (const p of enumerate(c.bound['Path'] ?? c.interp.cwd).map(toStr)) {
        if (/^env:\\?$/i.test(p)) {
          out.push(
            ...Object.entries(c.interp.env)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, v]) => new PSObject('DictionaryEntry', { Name: k, Value: v })),
          );
          continue;
        }
        const path = resolveWin(c.interp.cwd, p);
        if (!c.host.fs.exists(path)) {
          pathError(c, path, new FsError('ENOENT', p), 'read');
          continue;
        }
        if (!c.host.fs.isDir(path)) {
          out.push(fileInfo(c.host, path));
          continue;
        }
        const filter = str(c.bound['Filter']);
        for (const e of c.host.fs.list(path)) {
          if (filter && !wildcard(filter).test(e.name)) continue;
          if (flag(c.bound, 'File') && e.dir) continue;
          if (flag(c.bound, 'Directory') && !e.dir) continue;
          const full = `${path.replace(/[\\/]+$/, '')}\\${e.name}`;
          out.push(flag(c.bound, 'Name') ? e.name : fileInfo(c.host, full, e));
        }
      }
      return out;
    },
  },
  {
    name: 'Get-Item',
    params: ['Path|LiteralPath'],
    switches: ['Force'],
    positional: ['Path'],
    async run(c) {
      const p = toStr(c.bound['Path'] ?? '.');
      const path = resolveWin(c.interp.cwd, p);
      if (!c.host.fs.exists(path)) {
        pathError(c, path, new FsError('ENOENT', p), 'read');
        return [];
      }
      return [fileInfo(c.host, path)];
    },
  },
  {
    // The file's security descriptor (System.Security.AccessControl.FileSecurity): Owner, Group and
    // Access rules with IdentityReference (an NTAccount: .Value), FileSystemRights (its numeric value,
    // as ConvertTo-Json writes an enum), AccessControlType; AccessToString as Format-List shows it.
    name: 'Get-Acl',
    params: ['Path|LiteralPath'],
    positional: ['Path'],
    async run(c) {
      const p = toStr(c.bound['Path'] ?? '.');
      const path = resolveWin(c.interp.cwd, p);
      const acl = c.host.fs.exists(path) ? c.host.fs.acl?.(path) : undefined;
      if (!acl) {
        pathError(c, path, new FsError('ENOENT', p), 'read');
        return [];
      }
      const norm = path.replace(/\//g, '\\');
      const rightsName = (n: number) => (n === 0x1f01ff ? 'FullControl' : n === 0x1200a9 ? 'ReadAndExecute, Synchronize' : String(n));
      const access = acl.access.map(
        r =>
          new PSObject('System.Security.AccessControl.FileSystemAccessRule', {
            FileSystemRights: r.rights,
            AccessControlType: r.type,
            IdentityReference: new PSObject('System.Security.Principal.NTAccount', { Value: r.identity }, r.identity),
            IsInherited: r.inherited,
            InheritanceFlags: 'None',
            PropagationFlags: 'None',
          }),
      );
      return [
        new PSObject('System.Security.AccessControl.FileSecurity', {
          Path: `Microsoft.PowerShell.Core\\FileSystem::${norm}`,
          Owner: acl.owner,
          Group: acl.group,
          Access: access,
          AccessToString: acl.access.map(r => `${r.identity} ${r.type}  ${rightsName(r.rights)}`).join('\n'),
        }),
      ];
    },
  },
  {
    name: 'Get-ItemProperty',
    params: ['Path|LiteralPath', 'Name'],
    positional: ['Path', 'Name'],
    async run(c) {
      const p = toStr(c.bound['Path'] ?? '');
      if (/^HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\?$/i.test(p) && c.host.os === 'windows') {
        const b = (c.host.windowsBuild ?? '10.0.20348.0').split('.');
        const o = new PSObject('PSCustomObject', {
          CurrentBuild: b[2] ?? '',
          CurrentBuildNumber: b[2] ?? '',
          UBR: Number(b[3] ?? 0),
          CurrentMajorVersionNumber: 10,
          CurrentMinorVersionNumber: 0,
          ProductName: productName(b[2] ?? ''),
          EditionID: 'ServerDatacenter',
          InstallationType: c.host.node ? 'Server Core' : 'Nano Server',
        });
        const n = str(c.bound['Name']);
        return [n ? new PSObject('PSCustomObject', [[o.props.find(([k]) => k.toLowerCase() === n.toLowerCase())?.[0] ?? n, o.get(n) ?? null]]) : o];
      }
      c.error({
        message: `Cannot find path '${p}' because it does not exist.`,
        category: 'ObjectNotFound',
        target: p,
        reason: 'ItemNotFoundException',
        fqid: 'PathNotFound,Microsoft.PowerShell.Commands.GetItemPropertyCommand',
      });
      return [];
    },
  },
  {
    name: 'Join-Path',
    params: ['Path', 'ChildPath'],
    positional: ['Path', 'ChildPath'],
    rest: true,
    async run(c) {
      const parts = [toStr(c.bound['Path'] ?? ''), toStr(c.bound['ChildPath'] ?? ''), ...((c.bound['__rest'] as PSValue[]) ?? []).map(toStr)];
      return [parts.reduce((a, b) => (b ? `${a.replace(/[\\/]+$/, '')}\\${b.replace(/^[\\/]+/, '')}` : a))];
    },
  },
  {
    name: 'Split-Path',
    params: ['Path'],
    switches: ['Leaf', 'Parent', 'Qualifier'],
    positional: ['Path'],
    async run(c) {
      const p = toStr(c.bound['Path'] ?? '').replace(/[\\/]+$/, '');
      const i = Math.max(p.lastIndexOf('\\'), p.lastIndexOf('/'));
      if (flag(c.bound, 'Leaf')) return [p.slice(i + 1)];
      if (flag(c.bound, 'Qualifier')) return [/^[a-zA-Z]:/.exec(p)?.[0] ?? ''];
      const parent = i < 0 ? '' : p.slice(0, i);
      return [/^[a-zA-Z]:$/.test(parent) ? `${parent}\\` : parent];
    },
  },
  {
    name: 'Get-Location',
    async run(c) {
      return [new PSObject('PathInfo', { Path: c.interp.cwd }, c.interp.cwd)];
    },
  },
  {
    name: 'Set-Location',
    params: ['Path|LiteralPath'],
    positional: ['Path'],
    async run(c) {
      const p = resolveWin(c.interp.cwd, toStr(c.bound['Path'] ?? ''));
      if (!c.host.fs.isDir(p)) {
        pathError(c, p, new FsError('ENOENT', p), 'read');
        return [];
      }
      c.interp.cwd = p;
      return [];
    },
  },
  {
    name: 'Start-Sleep',
    params: ['Seconds|s', 'Milliseconds|ms'],
    positional: ['Seconds'],
    async run(c) {
      const ms = c.bound['Milliseconds'] !== undefined ? toNum(c.bound['Milliseconds'] ?? 0) : toNum(c.bound['Seconds'] ?? 0) * 1000;
      if (!(await sleep(ms, c.io.signal))) throw new ExitSignal(ABORTED_EXIT);
      return [];
    },
  },
  {
    name: 'Get-Date',
    params: ['Format', 'UFormat', 'Date'],
    positional: ['Date'],
    async run(c) {
      const d = c.bound['Date'] !== undefined ? new Date(toStr(c.bound['Date'] ?? '')) : new Date();
      const f = str(c.bound['Format']);
      if (f) return [fmtDate(d, f)];
      const u = str(c.bound['UFormat']);
      if (u) return [u.replace(/%s/g, String(Math.floor(d.getTime() / 1000))).replace(/%Y/g, String(d.getUTCFullYear()))];
      return [d];
    },
  },
  {
    name: 'Get-Command',
    params: ['Name'],
    switches: ['All'],
    positional: ['Name'],
    async run(c) {
      const out: PSValue[] = [];
      for (const n of enumerate(c.bound['Name'] ?? null).map(toStr)) {
        const spec = findCmdlet(n, c.interp);
        if (spec) {
          out.push(new PSObject('CommandInfo', { CommandType: 'Cmdlet', Name: spec.name, Version: '3.0.0.0', Source: 'Microsoft.PowerShell.Management' }));
          continue;
        }
        const prog = c.interp.spawn.resolve(c.host, n);
        if (prog) {
          out.push(
            new PSObject('CommandInfo', {
              CommandType: 'Application',
              Name: `${prog.key}.exe`,
              Version: '10.0.0.0',
              Source: `C:\\Windows\\system32\\${prog.key}.exe`,
            }),
          );
          continue;
        }
        c.error({
          message: `The term '${n}' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.`,
          category: 'ObjectNotFound',
          target: n,
          reason: 'CommandNotFoundException',
          fqid: 'CommandNotFoundException,Microsoft.PowerShell.Commands.GetCommandCommand',
        });
      }
      return out;
    },
  },
  {
    name: 'Get-Service',
    params: ['Name|ServiceName', 'DisplayName'],
    positional: ['Name'],
    async run(c) {
      const all = (c.host.node?.services() ?? []).map(
        s =>
          new PSObject(
            'ServiceController',
            {
              Status: s.status,
              Name: s.name,
              DisplayName: s.displayName,
              ServiceName: s.name,
              StartType: 'Automatic',
              CanStop: s.status === 'Running',
            },
            s.name,
          ),
      );
      if (c.bound['Name'] === undefined) return all;
      const out: PSValue[] = [];
      for (const n of enumerate(c.bound['Name'] ?? null).map(toStr)) {
        const re = wildcard(n);
        const hits = all.filter(s => re.test(toStr(s.get('Name') ?? null)));
        if (hits.length === 0 && !/[*?[]/.test(n)) {
          c.error({
            message: `Cannot find any service with service name '${n}'.`,
            category: 'ObjectNotFound',
            target: n,
            reason: 'ServiceCommandException',
            fqid: 'NoServiceFoundForGivenName,Microsoft.PowerShell.Commands.GetServiceCommand',
          });
        }
        out.push(...hits);
      }
      return out;
    },
  },
  // From hns.psm1, which not every provider's nodes import (AKS downloads it): absent, the name is not recognized.
  {
    name: 'Get-HnsNetwork',
    available: h => h.node !== undefined && h.node.hnsModule?.() !== false,
    async run(c) {
      return (c.host.node?.hnsNetworks() ?? []).map(n => {
        const props: [string, PSValue][] = [
          ['ID', n.id],
          ['Name', n.name],
          ['Type', n.type],
        ];
        if (n.managementIP !== undefined) props.push(['ManagementIP', n.managementIP]);
        if (n.subnets !== undefined) props.push(['Subnets', n.subnets.map(s => new PSObject('Subnet', { AddressPrefix: s }, `@{AddressPrefix=${s}}`))]);
        return new PSObject('HnsNetwork', props);
      });
    },
  },
  // hns.psm1 too; Format-List keys as a real node's (acs-engine#1903: ID, IPAddress, MacAddress, Name, Type, VirtualNetwork, VirtualNetworkName).
  {
    name: 'Get-HnsEndpoint',
    available: h => h.node !== undefined && h.node.hnsModule?.() !== false,
    async run(c) {
      return (c.host.node?.hnsEndpoints?.() ?? []).map(
        e =>
          new PSObject('HnsEndpoint', [
            ['ID', e.id],
            ['IPAddress', e.ipAddress],
            ['MacAddress', e.macAddress],
            ['Name', e.name],
            ['State', 1],
            ['Type', e.type],
            ['VirtualNetwork', e.virtualNetwork],
            ['VirtualNetworkName', e.virtualNetworkName],
          ]),
      );
    },
  },
  {
    name: 'Get-ComputeProcess',
    params: ['Type', 'Id', 'Owner'],
    available: h => h.node !== undefined,
    async run(c) {
      const type = str(c.bound['Type'])?.toLowerCase();
      return (c.host.node?.computeProcesses() ?? [])
        .filter(p => !type || p.type.toLowerCase() === type)
        .filter(p => c.bound['Id'] === undefined || p.id === toStr(c.bound['Id'] ?? null))
        .map(p => new PSObject('ComputeProcess', { Id: p.id, Name: p.id, Owner: p.owner, Type: p.type, IsTemplate: p.isTemplate }));
    },
  },
  ...['Get-WmiObject', 'Get-CimInstance'].map((name): CmdletSpec => ({
    name,
    params: ['Class|ClassName', 'Namespace', 'Filter'],
    positional: ['Class'],
    async run(c) {
      const cls = toStr(c.bound['Class'] ?? '').toLowerCase();
      const b = (c.host.windowsBuild ?? '10.0.20348.0').split('.');
      if (cls === 'win32_operatingsystem')
        return [
          new PSObject('Win32_OperatingSystem', {
            Caption: `Microsoft ${productName(b[2] ?? '')} Datacenter`,
            Version: `${b[0]}.${b[1]}.${b[2]}`,
            BuildNumber: b[2] ?? '',
            OSArchitecture: '64-bit',
            CSName: computerName(c.interp),
          }),
        ];
      if (cls === 'win32_computersystem')
        return [
          new PSObject('Win32_ComputerSystem', {
            Name: computerName(c.interp),
            Domain: 'WORKGROUP',
            NumberOfLogicalProcessors: Number(c.interp.env['NUMBER_OF_PROCESSORS'] ?? 2),
          }),
        ];
      throw c.fail({
        message: 'Invalid class ',
        category: 'InvalidType',
        target: '',
        targetType: '',
        reason: 'ManagementException',
        fqid: `GetWMIManagementException,Microsoft.PowerShell.Commands.GetWmiObjectCommand`,
      });
    },
  })),
  {
    name: 'ConvertTo-Json',
    params: ['InputObject', 'Depth'],
    switches: ['Compress'],
    positional: ['InputObject'],
    async run(c) {
      const vals = c.bound['InputObject'] !== undefined ? [c.bound['InputObject'] ?? null] : c.input;
      const v = vals.length === 1 ? vals[0]! : vals;
      const depth = toNum(c.bound['Depth'] ?? 2);
      return [toJson(v, depth, flag(c.bound, 'Compress'), c.interp.edition === 'desktop', 0)];
    },
  },
  {
    name: 'ConvertFrom-Json',
    params: ['InputObject'],
    positional: ['InputObject'],
    async run(c) {
      const text = c.bound['InputObject'] !== undefined ? toStr(c.bound['InputObject'] ?? null) : asLines(c.input).join('\n');
      try {
        return enumerate(fromJson(JSON.parse(text) as unknown));
      } catch {
        throw c.fail({
          message: 'Invalid JSON primitive: .',
          category: 'NotSpecified',
          target: '',
          targetType: '',
          reason: 'ArgumentException',
          fqid: 'System.ArgumentException,Microsoft.PowerShell.Commands.ConvertFromJsonCommand',
        });
      }
    },
  },
];

function productName(build: string): string {
  return build === '17763' ? 'Windows Server 2019' : build === '26100' ? 'Windows Server 2025' : 'Windows Server 2022';
}

async function newItem(c: CmdletCall, dir: boolean): Promise<PSValue[]> {
  const base = toStr(c.bound['Path'] ?? c.interp.cwd);
  const name = str(c.bound['Name']);
  const path = resolveWin(c.interp.cwd, name ? `${base.replace(/[\\/]+$/, '')}\\${name}` : base);
  if (c.host.fs.exists(path)) {
    if (dir && flag(c.bound, 'Force') && c.host.fs.isDir(path)) return [fileInfo(c.host, path)];
    if (!flag(c.bound, 'Force') || dir) {
      c.error({
        message: `An item with the specified name ${path} already exists.`,
        category: 'ResourceExists',
        target: path,
        reason: 'IOException',
        fqid: `${dir ? 'DirectoryExist' : 'NewItemIOError'},Microsoft.PowerShell.Commands.NewItemCommand`,
      });
      return [];
    }
  }
  try {
    if (dir) c.host.fs.mkdir(path);
    else c.host.fs.write(path, Buffer.from(toStr(c.bound['Value'] ?? '')));
  } catch (e) {
    if (e instanceof FsError && (e.code === 'EACCES' || e.code === 'EROFS')) {
      c.error({
        message: `Access to the path '${path}' is denied.`,
        category: 'PermissionDenied',
        target: path,
        reason: 'UnauthorizedAccessException',
        fqid: 'NewItemUnauthorizedAccessError,Microsoft.PowerShell.Commands.NewItemCommand',
      });
      return [];
    }
    c.error({
      message: `Could not find a part of the path '${path}'.`,
      category: 'WriteError',
      target: path,
      reason: 'DirectoryNotFoundException',
      fqid: 'NewItemIOError,Microsoft.PowerShell.Commands.NewItemCommand',
    });
    return [];
  }
  return [fileInfo(c.host, path)];
}

function renderAs(vals: PSValue[], kind: 'table' | 'list', props: PSValue | undefined): string {
  const objs = vals.map(v => (v instanceof PSObject ? v : new PSObject('PSCustomObject', { Value: v })));
  const names = props !== undefined ? enumerate(props).map(toStr) : undefined;
  return render(
    objs.map(o => {
      const base = viewFor(o);
      const cols =
        names && !names.includes('*')
          ? names
          : kind === 'list' && (names?.includes('*') ?? false)
            ? o.props.map(([k]) => k)
            : base.kind === 'table'
              ? base.columns.map(x => x.name)
              : base.props;
      const view: View = kind === 'table' ? { kind: 'table', columns: cols.map(n => ({ name: n })) } : { kind: 'list', props: cols };
      return new PSObject(`__view:${kind}:${cols.join(',')}`, o.props, o.str).withView(view);
    }),
  );
}

function toJson(v: PSValue, depth: number, compress: boolean, desktop: boolean, level: number): string {
  const ind = (n: number): string => (compress ? '' : desktop ? '    '.repeat(n) : '  '.repeat(n));
  const nl = compress ? '' : '\r\n';
  const colon = compress ? ':' : desktop ? ':  ' : ': ';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  if (v instanceof Date) return desktop ? `"\\/Date(${v.getTime()})\\/"` : JSON.stringify(v.toISOString());
  if (isArray(v)) {
    if (level > depth) return JSON.stringify(toStr(v));
    return `[${nl}${v.map(x => ind(level + 1) + toJson(x, depth, compress, desktop, level + 1)).join(`,${nl}`)}${nl}${ind(level)}]`;
  }
  if (v instanceof PSObject) {
    if (level >= depth) return JSON.stringify(toStr(v));
    const props = v.props.filter(([k]) => !k.startsWith('__'));
    return `{${nl}${props.map(([k, x]) => `${ind(level + 1)}${JSON.stringify(k)}${colon}${toJson(x, depth, compress, desktop, level + 1)}`).join(`,${nl}`)}${nl}${ind(level)}}`;
  }
  return JSON.stringify(toStr(v));
}

function fromJson(x: unknown): PSValue {
  if (x === null || typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean') return x;
  if (Array.isArray(x)) return x.map(fromJson);
  if (typeof x === 'object')
    return new PSObject(
      'PSCustomObject',
      Object.entries(x as Record<string, unknown>).map(([k, v]): [string, PSValue] => [k, fromJson(v)]),
    );
  return null;
}
