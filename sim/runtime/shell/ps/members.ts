// Properties and methods of values ($x.Length, 'a'.ToUpper(), (Get-Date).AddSeconds(5))
// and the static members probes call ([Environment]::UserName,
// [System.Net.Dns]::GetHostAddresses(...)).

import type { Expr } from './ast.ts';
import { NativeOutput, PSObject, PSType, ScriptBlock, collapse, enumerate, isArray, lines, toNum, toStr, truthy, typeOf, scalarEq } from './values.ts';
import type { PSValue } from './values.ts';
import { MethodException, StatementError } from './errors.ts';
import type { PsSession } from './session.ts';
import { windowsAccount } from '../tools/whoami.ts';
import { lookupWithSearch } from '../tools/dnsnames.ts';
import { resolveWin } from '../winPaths.ts';
import { textEncoding } from './udpclient.ts';

export function getMember(v: PSValue, name: string): PSValue {
  const l = name.toLowerCase();
  if (v === null) return null;
  if (v instanceof NativeOutput) return getMember(lines(v), name);
  if (isArray(v)) {
    if (l === 'length' || l === 'count' || l === 'longlength') return v.length;
    // Member enumeration: the property of each element.
    return collapse(v.flatMap(x => enumerate(getMember(x, name))));
  }
  if (typeof v === 'string') {
    if (l === 'length') return v.length;
    if (l === 'count') return 1;
    return null;
  }
  if (v instanceof Date) {
    const map: Record<string, () => PSValue> = {
      year: () => v.getUTCFullYear(),
      month: () => v.getUTCMonth() + 1,
      day: () => v.getUTCDate(),
      hour: () => v.getUTCHours(),
      minute: () => v.getUTCMinutes(),
      second: () => v.getUTCSeconds(),
      millisecond: () => v.getUTCMilliseconds(),
      ticks: () => v.getTime() * 10000 + 621355968000000000,
      dayofweek: () => v.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' }),
      date: () => new Date(Date.UTC(v.getUTCFullYear(), v.getUTCMonth(), v.getUTCDate())),
      kind: () => 'Utc',
      count: () => 1,
    };
    return map[l]?.() ?? null;
  }
  if (v instanceof PSObject) {
    if (v.has(name)) return v.get(name) ?? null;
    if (v.typeName === 'Hashtable') {
      if (l === 'keys') return v.props.map(([k]) => k);
      if (l === 'values') return v.props.map(([, x]) => x);
      if (l === 'count') return v.props.length;
    }
    if (l === 'count' || l === 'length') return 1;
    return null;
  }
  if (l === 'count' || l === 'length') return 1;
  return null;
}

function methodError(name: string, v: PSValue, start: number, end: number): StatementError {
  return new StatementError({
    message: `Method invocation failed because [${typeOf(v)}] does not contain a method named '${name}'.`,
    category: 'InvalidOperation',
    target: '',
    targetType: '',
    activity: '',
    reason: 'RuntimeException',
    fqid: 'MethodNotFound',
    start,
    end,
  });
}

function fmtDate(d: Date, f: string): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  if (f === 'o' || f === 'O') return d.toISOString().replace('Z', '0000Z');
  if (f === 's') return d.toISOString().slice(0, 19);
  if (f === 'u') return `${d.toISOString().slice(0, 19).replace('T', ' ')}Z`;
  return f.replace(/yyyy|MM|dd|HH|hh|mm|ss|fff|tt/g, t => {
    switch (t) {
      case 'yyyy':
        return String(d.getUTCFullYear());
      case 'MM':
        return p(d.getUTCMonth() + 1);
      case 'dd':
        return p(d.getUTCDate());
      case 'HH':
        return p(d.getUTCHours());
      case 'hh':
        return p(d.getUTCHours() % 12 || 12);
      case 'mm':
        return p(d.getUTCMinutes());
      case 'ss':
        return p(d.getUTCSeconds());
      case 'fff':
        return p(d.getUTCMilliseconds(), 3);
      default:
        return d.getUTCHours() < 12 ? 'AM' : 'PM';
    }
  });
}
export { fmtDate };

export async function callMethod(interp: PsSession, v: PSValue, name: string, args: PSValue[], start: number, end: number): Promise<PSValue> {
  const l = name.toLowerCase();
  const a0 = args[0] ?? null;
  const own = v instanceof PSObject ? v.methods?.[l] : undefined;
  if (own) {
    try {
      return await own(args);
    } catch (e) {
      if (!(e instanceof MethodException)) throw e;
      throw new StatementError({
        message: `Exception calling "${name}" with "${args.length}" argument(s): "${e.message}"`,
        category: 'NotSpecified',
        target: '',
        targetType: '',
        activity: '',
        reason: 'MethodInvocationException',
        fqid: e.fqid,
        start,
        end,
      });
    }
  }
  if (l === 'tostring') return v instanceof Date && args.length ? fmtDate(v, toStr(a0)) : toStr(v);
  if (l === 'gettype') return new PSObject('RuntimeType', { Name: typeOf(v).split('.').pop() ?? '', FullName: typeOf(v) }, typeOf(v));
  if (l === 'equals') return scalarEq(v, a0);
  if (typeof v === 'string') {
    switch (l) {
      case 'toupper':
      case 'toupperinvariant':
        return v.toUpperCase();
      case 'tolower':
      case 'tolowerinvariant':
        return v.toLowerCase();
      case 'trim':
        return args.length ? v.replace(new RegExp(`^[${escapeClass(toStr(a0))}]+|[${escapeClass(toStr(a0))}]+$`, 'g'), '') : v.trim();
      case 'trimend':
        return args.length ? v.replace(new RegExp(`[${escapeClass(toStr(a0))}]+$`), '') : v.trimEnd();
      case 'trimstart':
        return args.length ? v.replace(new RegExp(`^[${escapeClass(toStr(a0))}]+`), '') : v.trimStart();
      case 'contains':
        return v.includes(toStr(a0));
      case 'startswith':
        return v.startsWith(toStr(a0));
      case 'endswith':
        return v.endsWith(toStr(a0));
      case 'indexof':
        return v.indexOf(toStr(a0));
      case 'replace':
        return v.split(toStr(a0)).join(toStr(args[1] ?? ''));
      case 'split':
        return v.split(new RegExp(`[${escapeClass(enumerate(a0).map(toStr).join(''))}]`));
      case 'substring':
        return args.length > 1 ? v.substr(toNum(a0), toNum(args[1]!)) : v.slice(toNum(a0));
      case 'padleft':
        return v.padStart(toNum(a0), args[1] !== undefined ? toStr(args[1]) : ' ');
      case 'padright':
        return v.padEnd(toNum(a0), args[1] !== undefined ? toStr(args[1]) : ' ');
      default:
        throw methodError(name, v, start, end);
    }
  }
  if (v instanceof Date) {
    const add = (ms: number): Date => new Date(v.getTime() + ms);
    switch (l) {
      case 'addseconds':
        return add(toNum(a0) * 1000);
      case 'addmilliseconds':
        return add(toNum(a0));
      case 'addminutes':
        return add(toNum(a0) * 60000);
      case 'addhours':
        return add(toNum(a0) * 3600000);
      case 'adddays':
        return add(toNum(a0) * 86400000);
      case 'touniversaltime':
      case 'tolocaltime':
        return v;
      default:
        throw methodError(name, v, start, end);
    }
  }
  if (isArray(v)) {
    switch (l) {
      case 'contains':
        return v.some(x => scalarEq(x, a0, false));
      case 'indexof':
        return v.findIndex(x => scalarEq(x, a0, false));
      case 'where': {
        if (!(a0 instanceof ScriptBlock)) return v;
        const out: PSValue[] = [];
        for (const x of v) if (truthy(collapse(await interp.invokeBlock(a0, x)))) out.push(x);
        return out;
      }
      case 'foreach': {
        if (!(a0 instanceof ScriptBlock)) return v.map(x => getMember(x, toStr(a0)));
        const out: PSValue[] = [];
        for (const x of v) out.push(...(await interp.invokeBlock(a0, x)));
        return out;
      }
      default:
        throw methodError(name, v, start, end);
    }
  }
  if (v instanceof PSObject && v.typeName === 'Hashtable') {
    if (l === 'containskey') return v.has(toStr(a0));
    if (l === 'add') {
      v.set(toStr(a0), args[1] ?? null);
      return null;
    }
  }
  throw methodError(name, v, start, end);
}

function escapeClass(s: string): string {
  return s.replace(/[\]\\^-]/g, '\\$&');
}

function typeKey(e: Expr): string {
  const n = e.k === 'type' ? e.name : '';
  return n.toLowerCase().replace(/^system\./, '');
}

function typeNotFound(e: Expr): StatementError {
  const n = e.k === 'type' ? e.name : '?';
  return new StatementError({
    message: `Unable to find type [${n}].`,
    category: 'InvalidOperation',
    target: n,
    targetType: 'TypeName',
    activity: '',
    reason: 'RuntimeException',
    fqid: 'TypeNotFound',
  });
}

export function osVersion(interp: PsSession): PSObject {
  const b = (interp.host.windowsBuild ?? '10.0.20348.0').split('.').map(Number);
  const version = new PSObject('Version', { Major: b[0] ?? 10, Minor: b[1] ?? 0, Build: b[2] ?? 0, Revision: 0 }, `${b[0]}.${b[1]}.${b[2]}.0`);
  return new PSObject(
    'OperatingSystem',
    { Platform: 'Win32NT', ServicePack: '', Version: version, VersionString: `Microsoft Windows NT ${b[0]}.${b[1]}.${b[2]}.0` },
    `Microsoft Windows NT ${b[0]}.${b[1]}.${b[2]}.0`,
  );
}

/** COMPUTERNAME: upper-case, capped at 15 characters (docs/windows-commands.md §8). */
export function computerName(interp: PsSession): string {
  const key = Object.keys(interp.env).find(k => k.toUpperCase() === 'COMPUTERNAME');
  return key ? interp.env[key]! : interp.host.hostname.toUpperCase().slice(0, 15);
}

export function staticMember(interp: PsSession, type: Expr, name: string): PSValue {
  const t = typeKey(type);
  const l = name.toLowerCase();
  if (t === 'environment') {
    switch (l) {
      case 'username':
        return windowsAccount(interp.host.user).split('\\').pop() ?? interp.host.user;
      case 'userdomainname':
        return windowsAccount(interp.host.user).split('\\')[0] ?? '';
      case 'machinename':
        return computerName(interp);
      case 'osversion':
        return osVersion(interp);
      case 'newline':
        return '\r\n';
      case 'processorcount':
        return Number(interp.env['NUMBER_OF_PROCESSORS'] ?? 2);
      case 'is64bitoperatingsystem':
      case 'is64bitprocess':
        return true;
      case 'currentdirectory':
        return interp.cwd;
      default:
        return null;
    }
  }
  if (t === 'datetime') {
    if (l === 'now' || l === 'utcnow') return new Date();
    if (l === 'today') {
      const d = new Date();
      return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
    }
  }
  if (t === 'string' && l === 'empty') return '';
  if ((t === 'int' || t === 'int32') && l === 'maxvalue') return 2147483647;
  if (t === 'math' && l === 'pi') return Math.PI;
  if (t === 'net.servicepointmanager' && l === 'securityprotocol') return 'Tls12';
  if (t.endsWith('securityprotocoltype')) return name;
  if (t === 'io.path' && l === 'directoryseparatorchar') return '\\';
  if (t === 'text.encoding' && (l === 'ascii' || l === 'utf8')) return textEncoding(l === 'ascii' ? 'ASCII' : 'UTF8');
  if (type.k === 'type' && KNOWN_TYPES.has(t)) return null;
  throw typeNotFound(type);
}

const KNOWN_TYPES = new Set([
  'byte[]',
  'environment',
  'datetime',
  'string',
  'int',
  'int32',
  'math',
  'net.dns',
  'net.servicepointmanager',
  'io.file',
  'io.directory',
  'io.path',
  'convert',
  'text.encoding',
  'guid',
]);

export function setStaticMember(_type: Expr, _name: string, _v: PSValue): void {
  // [Net.ServicePointManager]::SecurityProtocol = ... and similar settings have no effect here.
}

export async function staticCall(interp: PsSession, type: Expr, name: string, args: PSValue[], start: number, end: number): Promise<PSValue> {
  const t = typeKey(type);
  const l = name.toLowerCase();
  const a0 = args[0] ?? null;
  const exception = (msg: string, fqid: string): StatementError =>
    new StatementError({
      message: `Exception calling "${name}" with "${args.length}" argument(s): "${msg}"`,
      category: 'NotSpecified',
      target: '',
      targetType: '',
      activity: '',
      reason: 'MethodInvocationException',
      fqid,
      start,
      end,
    });
  if (t === 'environment') {
    if (l === 'getenvironmentvariable') return interp.getVar(`env:${toStr(a0)}`);
    if (l === 'setenvironmentvariable') {
      interp.setVar(`env:${toStr(a0)}`, args[1] ?? null);
      return null;
    }
    if (l === 'getenvironmentvariables') return new PSObject('Hashtable', Object.entries(interp.env));
  }
  if (t === 'net.dns') {
    if (l === 'gethostname') return interp.host.hostname;
    if (l === 'gethostaddresses' || l === 'gethostentry') {
      const r = await lookupWithSearch(interp.host, toStr(a0), interp.io.signal);
      if (!r.ok)
        throw exception(
          r.code === 'SERVFAIL'
            ? 'This is usually a temporary error during hostname resolution and means that the local server did not receive a response from an authoritative server'
            : 'No such host is known',
          'SocketException',
        );
      const addrs = r.addresses.map(
        a =>
          new PSObject(
            'IPAddress',
            {
              Address: ipToInt(a),
              AddressFamily: 'InterNetwork',
              ScopeId: null,
              IsIPv6Multicast: false,
              IsIPv6LinkLocal: false,
              IsIPv6SiteLocal: false,
              IsIPv6Teredo: false,
              IsIPv4MappedToIPv6: false,
              IPAddressToString: a,
            },
            a,
          ),
      );
      return l === 'gethostentry' ? new PSObject('IPHostEntry', { HostName: r.name, Aliases: [], AddressList: addrs }) : addrs;
    }
  }
  if (t === 'math') {
    const n = args.map(toNum);
    switch (l) {
      case 'round':
        return n.length > 1 ? Number(n[0]!.toFixed(n[1])) : Math.round(n[0]!);
      case 'floor':
        return Math.floor(n[0]!);
      case 'ceiling':
        return Math.ceil(n[0]!);
      case 'max':
        return Math.max(n[0]!, n[1]!);
      case 'min':
        return Math.min(n[0]!, n[1]!);
      case 'abs':
        return Math.abs(n[0]!);
      default:
        break;
    }
  }
  if (t === 'string') {
    if (l === 'isnullorempty') return a0 === null || toStr(a0) === '';
    if (l === 'isnullorwhitespace') return a0 === null || toStr(a0).trim() === '';
    if (l === 'join')
      return enumerate(args.length > 2 ? args.slice(1) : (args[1] ?? null))
        .map(toStr)
        .join(toStr(a0));
    if (l === 'format') return interp.binary('f', a0, args.slice(1));
  }
  if ((t === 'int' || t === 'int32') && l === 'parse') return toNum(a0);
  if (t === 'datetime' && l === 'parse') return new Date(toStr(a0));
  if (t === 'io.file' || t === 'io.directory') {
    const p = resolveWin(interp.cwd, toStr(a0));
    if (l === 'exists') return t === 'io.file' ? interp.host.fs.exists(p) && !interp.host.fs.isDir(p) : interp.host.fs.isDir(p);
    try {
      if (l === 'readalltext') return interp.host.fs.read(p).toString('utf8');
      if (l === 'readalllines')
        return interp.host.fs
          .read(p)
          .toString('utf8')
          .split(/\r?\n/)
          .filter((x, i, all) => i < all.length - 1 || x !== '');
      if (l === 'writealltext') {
        interp.host.fs.write(p, Buffer.from(toStr(args[1] ?? '')));
        return null;
      }
    } catch {
      throw exception(`Could not find file '${p}'.`, 'FileNotFoundException');
    }
  }
  if (t === 'guid' && l === 'newguid') return crypto.randomUUID();
  if (t === 'byte[]' && l === 'new') {
    const { allocate } = await import('./netcmdlets.ts');
    return allocate(interp.host, toNum(a0), m => new StatementError({ ...m, start, end }));
  }
  if (type.k === 'type' && !KNOWN_TYPES.has(t)) throw typeNotFound(type);
  throw new StatementError({
    message: `Method invocation failed because [${type.k === 'type' ? type.name : '?'}] does not contain a method named '${name}'.`,
    category: 'InvalidOperation',
    target: '',
    targetType: '',
    activity: '',
    reason: 'RuntimeException',
    fqid: 'MethodNotFound',
    start,
    end,
  });
}

function ipToInt(a: string): number {
  // .NET's IPAddress.Address is the address in network byte order read as little-endian.
  return a.split('.').reduceRight((acc, o) => acc * 256 + Number(o), 0);
}

export { PSType };
