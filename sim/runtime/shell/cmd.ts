// cmd.exe: /c /k /s switches and quote stripping, %VAR% expansion, &, &&, ||, |,
// redirections, a few built-ins, and launching other programs. Output is CRLF
// (docs/windows-commands.md §0, §1).

import type { ProgramCtx, ShellHost, ShellIO, Spawn } from './types.ts';
import { FsError } from './types.ts';
import { Capture, nullSink, readAll, stdinFrom, withStreams } from './io.ts';
import { isNulDevice, resolveWin } from './winPaths.ts';

class CmdExit {
  constructor(readonly code: number) {}
}

export async function runCmd(ctx: ProgramCtx): Promise<number> {
  const { command, keep } = parseSwitches(ctx.cmdline);
  const session = new CmdSession(ctx.host, ctx.io, ctx.env, ctx.spawn);
  if (command !== undefined) {
    const code = await session.runTop(command);
    if (!keep) return code;
  }
  // Without /c (e.g. an SSH session feeding stdin): run each stdin line, no prompt.
  const input = (await readAll(ctx.io.stdin, ctx.io.signal)).toString('utf8');
  let code = 0;
  for (const line of input.split(/\r?\n/)) {
    if (!line.trim()) continue;
    code = await session.runTop(line);
    if (session.exited) break;
  }
  return code;
}

/** Reads cmd's switches; after /c or /k the rest is the command, with cmd's quote rule applied. */
export function parseSwitches(cmdline: string): { command?: string; keep: boolean } {
  let s = cmdline;
  let strip = false;
  for (;;) {
    s = s.replace(/^[ \t]+/, '');
    const m = /^\/([a-zA-Z])/.exec(s);
    if (!m) return { keep: false, command: s.length ? s : undefined };
    const sw = m[1]!.toLowerCase();
    // A switch other than /c and /k is its whole word (/V:ON, /D; upstream host_process.go's
    // `cmd.exe /ver` starts cmd with no command, which exits 0 at the end of its input).
    s = sw === 'c' || sw === 'k' ? s.slice(2) : s.replace(/^\/\S*/, '');
    if (sw === 's') {
      strip = true;
      continue;
    }
    if (sw === 'c' || sw === 'k') {
      return { command: stripQuotes(s.replace(/^[ \t]+/, ''), strip), keep: sw === 'k' };
    }
  }
}

/**
 * cmd /? rule: quotes are kept only without /S, with exactly two quotes, no special
 * characters between them, whitespace between them, and an executable name inside.
 * Otherwise a leading quote and the last quote on the line are removed.
 */
function stripQuotes(s: string, forceStrip: boolean): string {
  if (!s.startsWith('"')) return s;
  const quotes = (s.match(/"/g) ?? []).length;
  if (!forceStrip && quotes === 2) {
    const inner = s.slice(1, s.indexOf('"', 1));
    if (!/[&<>()@^|]/.test(inner) && /\s/.test(inner) && /\.(exe|com|bat|cmd)$/i.test(inner)) return s;
  }
  const last = s.lastIndexOf('"');
  return last > 0 ? s.slice(1, last) + s.slice(last + 1) : s.slice(1);
}

type Op = '&' | '&&' | '||' | '|';
interface Segment {
  text: string;
  op: Op | null;
}

/** Splits a line on &, &&, ||, | outside quotes and parentheses; ^ escapes the next character. */
export function splitChain(line: string): Segment[] {
  const segs: Segment[] = [];
  let cur = '';
  let op: Op | null = null;
  let inQuote = false;
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === '"') {
      inQuote = !inQuote;
      cur += ch;
      continue;
    }
    if (inQuote) {
      cur += ch;
      continue;
    }
    if (ch === '^' && i + 1 < line.length) {
      cur += `^${line[++i]}`;
      continue;
    }
    if (ch === '(') depth++;
    if (ch === ')' && depth > 0) depth--;
    if (depth === 0 && (ch === '&' || ch === '|')) {
      // "2>&1" / ">&2" are redirections, not separators.
      if (ch === '&' && /[<>]$/.test(cur)) {
        cur += ch;
        continue;
      }
      const two = line[i + 1] === ch;
      segs.push({ text: cur, op });
      op = (two ? ch + ch : ch) as Op;
      cur = '';
      if (two) i++;
      continue;
    }
    cur += ch;
  }
  segs.push({ text: cur, op });
  return segs;
}

interface Redirect {
  fd: 1 | 2;
  target: string;
  append: boolean;
}
interface Parsed {
  text: string;
  out: Redirect[];
  input?: string;
}

/** Pulls redirections out of a command, leaving the rest (and its spacing) as cmd does. */
export function extractRedirects(text: string): Parsed {
  let rest = '';
  const out: Redirect[] = [];
  let input: string | undefined;
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"') {
      inQuote = !inQuote;
      rest += ch;
      continue;
    }
    if (ch === '^' && !inQuote && i + 1 < text.length) {
      rest += text[++i];
      continue;
    }
    if (inQuote || (ch !== '>' && ch !== '<')) {
      rest += ch;
      continue;
    }
    let fd: 1 | 2 = 1;
    if (ch === '>' && /(^|\s)[12]$/.test(rest)) {
      fd = rest.endsWith('2') ? 2 : 1;
      rest = rest.slice(0, -1);
    }
    let append = false;
    let j = i + 1;
    if (ch === '>' && text[j] === '>') {
      append = true;
      j++;
    }
    while (text[j] === ' ' || text[j] === '\t') j++;
    let target = '';
    if (text[j] === '&') {
      target = text.slice(j, j + 2);
      j += 2;
    } else if (text[j] === '"') {
      const e = text.indexOf('"', j + 1);
      target = text.slice(j + 1, e < 0 ? undefined : e);
      j = e < 0 ? text.length : e + 1;
    } else {
      while (j < text.length && !/[\s<>|&]/.test(text[j]!)) target += text[j++];
    }
    if (ch === '<') input = target;
    else out.push({ fd, target, append });
    i = j - 1;
  }
  return { text: rest, out, input };
}

const BUILTINS = new Set([
  'echo',
  'set',
  'type',
  'dir',
  'mkdir',
  'md',
  'del',
  'erase',
  'rmdir',
  'rd',
  'exit',
  'cd',
  'chdir',
  'ver',
  'rem',
  'cls',
  'if',
  'echo.',
  'ver',
  'mklink',
]);

class CmdSession {
  errorlevel = 0;
  exited = false;
  private cwd: string;
  constructor(
    private host: ShellHost,
    private io: ShellIO,
    private env: Record<string, string>,
    private spawn: Spawn,
  ) {
    this.cwd = host.cwd ?? 'C:\\';
  }

  /** Runs one line; returns cmd's exit code for it (see lastCode). */
  async runTop(line: string): Promise<number> {
    try {
      const ok = await this.runLine(line, this.io);
      return this.redirectFailed && !ok ? 1 : this.errorlevel;
    } catch (e) {
      if (e instanceof CmdExit) {
        this.exited = true;
        return e.code;
      }
      throw e;
    }
  }

  /** A redirection failed in the last command: ERRORLEVEL untouched, `||` sees failure (§1 quirk). */
  private redirectFailed = false;

  getVar(name: string): string | undefined {
    const up = name.toUpperCase();
    if (up === 'ERRORLEVEL') return String(this.errorlevel);
    if (up === 'CD') return this.cwd;
    const key = Object.keys(this.env).find(k => k.toUpperCase() === up);
    if (key !== undefined) return this.env[key];
    if (up === 'RANDOM') return String(Math.floor(Math.random() * 32768));
    return undefined;
  }

  /** Phase 1: %VAR% expansion. Unset variables stay literal in command-line mode (§1). */
  expand(line: string): string {
    let out = '';
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (ch !== '%') {
        out += ch;
        continue;
      }
      const end = line.indexOf('%', i + 1);
      if (end < 0) {
        out += line.slice(i);
        break;
      }
      const name = line.slice(i + 1, end);
      const v = name ? this.getVar(name) : undefined;
      if (v !== undefined) {
        out += v;
        i = end;
      } else out += ch;
    }
    return out;
  }

  async runLine(line: string, io: ShellIO): Promise<boolean> {
    const segs = splitChain(this.expand(line));
    let ok = true;
    for (let i = 0; i < segs.length; i++) {
      // Collect a pipeline: this segment plus following '|' segments.
      const pipe = [segs[i]!];
      while (segs[i + 1]?.op === '|') pipe.push(segs[++i]!);
      const op = pipe[0]!.op;
      if ((op === '&&' && !ok) || (op === '||' && ok)) continue;
      ok = await this.runPipeline(
        pipe.map(s => s.text),
        io,
      );
      if (io.signal.aborted) return false;
    }
    return ok;
  }

  private async runPipeline(texts: string[], io: ShellIO): Promise<boolean> {
    let stdin = io.stdin;
    let ok = true;
    for (const [k, t] of texts.entries()) {
      const last = k === texts.length - 1;
      const cap = last ? undefined : new Capture();
      ok = await this.runSimple(t, withStreams(io, { stdin, stdout: cap ?? io.stdout }));
      if (cap) stdin = stdinFrom(cap.buffer());
    }
    return ok;
  }

  private write(io: ShellIO, s: string): void {
    io.stdout.write(s);
  }
  private err(io: ShellIO, s: string): void {
    io.stderr.write(`${s}\r\n`);
  }

  private async runSimple(raw: string, io: ShellIO): Promise<boolean> {
    const parsed = extractRedirects(raw);
    this.redirectFailed = false;
    // Open redirection targets first: a failure means the command never runs.
    let stdout = io.stdout;
    let stderr = io.stderr;
    const files: { path: string; cap: Capture; append: boolean }[] = [];
    for (const r of parsed.out) {
      let sink;
      if (r.target === '&1') sink = stdout;
      else if (r.target === '&2') sink = stderr;
      else if (isNulDevice(r.target)) sink = nullSink();
      else {
        const path = resolveWin(this.cwd, r.target);
        try {
          this.host.fs.write(path, Buffer.alloc(0), { append: true });
          if (!r.append) this.host.fs.write(path, Buffer.alloc(0));
        } catch (e) {
          this.err(io, fsMessage(e, 'path'));
          this.redirectFailed = true;
          return false;
        }
        const cap = new Capture();
        files.push({ path, cap, append: true });
        sink = cap;
      }
      if (r.fd === 1) stdout = sink;
      else stderr = sink;
    }
    let stdin = io.stdin;
    if (parsed.input !== undefined) {
      try {
        stdin = stdinFrom(this.host.fs.read(resolveWin(this.cwd, parsed.input)));
      } catch (e) {
        this.err(io, fsMessage(e, 'file'));
        this.redirectFailed = true;
        return false;
      }
    }
    const sub = withStreams(io, { stdin, stdout, stderr });
    let ok: boolean;
    try {
      ok = await this.dispatch(parsed.text, sub);
    } finally {
      for (const f of files) {
        try {
          this.host.fs.write(f.path, f.cap.buffer(), { append: f.append });
        } catch (e) {
          this.err(io, fsMessage(e, 'path'));
        }
      }
    }
    return ok;
  }

  private async dispatch(text: string, io: ShellIO): Promise<boolean> {
    const t = text.replace(/^[ \t@]+/, '');
    if (!t.trim()) return true;
    if (t.startsWith('(')) {
      const close = t.lastIndexOf(')');
      return this.runLine(t.slice(1, close < 0 ? undefined : close), io);
    }
    const m = /^[^\s.(/:;,=+"]+/.exec(t);
    const word = (m?.[0] ?? '').toLowerCase();
    const rest = t.slice(word.length);
    if (BUILTINS.has(word)) return this.builtin(word, rest, io);
    const code = await this.spawn.windows(t, this.host, io, this.env);
    if (code === undefined) {
      const name = /^"([^"]*)"/.exec(t)?.[1] ?? t.split(/\s/)[0]!;
      io.stderr.write(`'${name}' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n`);
      this.errorlevel = 9009;
      return false;
    }
    this.errorlevel = code;
    return code === 0;
  }

  private fail(io: ShellIO, msg: string, level = 1): boolean {
    this.err(io, msg);
    this.errorlevel = level;
    return false;
  }

  private async builtin(word: string, rest: string, io: ShellIO): Promise<boolean> {
    const args = rest.trim();
    const path = (p: string): string => resolveWin(this.cwd, p.replace(/^"|"$/g, ''));
    switch (word) {
      case 'rem':
        return true;
      case 'cls':
        return true;
      case 'echo': {
        // echo with no text (or only blanks) reports the echo state (§1).
        if (!rest.trim() && !/^[.(:;,=+/]/.test(rest)) {
          this.write(io, 'ECHO is on.\r\n');
          return true;
        }
        const body = rest.slice(1);
        if (/^\s*(on|off)\s*$/i.test(rest)) return true;
        this.write(io, `${body}\r\n`);
        return true;
      }
      case 'ver':
        this.write(io, `\r\nMicrosoft Windows [Version ${this.host.windowsBuild ?? '10.0.20348.2582'}]\r\n`);
        return true;
      case 'exit': {
        const m = /^(\/b\s*)?(-?\d+)?/i.exec(args);
        const code = m?.[2] !== undefined ? Number(m[2]) : this.errorlevel;
        this.errorlevel = code;
        throw new CmdExit(code);
      }
      case 'cd':
      case 'chdir': {
        if (!args) {
          this.write(io, `${this.cwd}\r\n`);
          return true;
        }
        const p = path(args.replace(/^\/d\s+/i, ''));
        if (!this.host.fs.isDir(p)) return this.fail(io, 'The system cannot find the path specified.');
        this.cwd = p;
        return true;
      }
      case 'set':
        return this.set(args, io);
      case 'type': {
        if (!args) return this.fail(io, 'The syntax of the command is incorrect.');
        const p = path(args);
        if (this.host.fs.exists(p) && this.host.fs.isDir(p)) return this.fail(io, 'Access is denied.');
        try {
          io.stdout.write(this.host.fs.read(p));
          return true;
        } catch (e) {
          return this.fail(io, fsMessage(e, 'file'));
        }
      }
      case 'mkdir':
      case 'md': {
        const p = path(args);
        if (this.host.fs.exists(p)) return this.fail(io, `A subdirectory or file ${args.replace(/^"|"$/g, '')} already exists.`);
        try {
          this.host.fs.mkdir(p);
          return true;
        } catch (e) {
          return this.fail(io, fsMessage(e, 'path'));
        }
      }
      case 'rmdir':
      case 'rd': {
        const p = path(args.replace(/\/[sq]\s*/gi, '').trim());
        if (!this.host.fs.exists(p)) return this.fail(io, 'The system cannot find the file specified.', 2);
        try {
          this.host.fs.remove(p);
          return true;
        } catch (e) {
          return this.fail(io, fsMessage(e, 'path'));
        }
      }
      case 'del':
      case 'erase': {
        const p = path(args.replace(/\/[fqs]\s*/gi, '').trim());
        // del reports a missing file but leaves ERRORLEVEL at 0.
        if (!this.host.fs.exists(p)) {
          this.err(io, `Could Not Find ${p}`);
          return true;
        }
        try {
          this.host.fs.remove(p);
          return true;
        } catch (e) {
          return this.fail(io, fsMessage(e, 'path'));
        }
      }
      case 'dir':
        return this.dir(args, io);
      case 'if':
        return this.ifCmd(args, io);
      case 'mklink':
        return this.mklink(args, io);
      default:
        return true;
    }
  }

  /**
   * mklink is internal to cmd.exe: `mklink [[/D] | [/H] | [/J]] Link Target`. The link is
   * made even when the target does not exist; success prints one line ("Junction created
   * for L <<===>> T"). Symbolic links (not /J, /H) need SeCreateSymbolicLinkPrivilege,
   * which ContainerUser lacks; the e2e images run mklink as ContainerAdministrator
   * (k8s test/images/windows/busybox-helper/Dockerfile).
   */
  private mklink(args: string, io: ShellIO): boolean {
    const words = (args.match(/"[^"]*"|\S+/g) ?? []).map(w => w.replace(/^"|"$/g, ''));
    const flags = words.filter(w => /^\/[a-z]$/i.test(w)).map(w => w[1]!.toUpperCase());
    const names = words.filter(w => !/^\/[a-z]$/i.test(w));
    if (names.length !== 2 || flags.some(f => !['D', 'H', 'J'].includes(f))) return this.fail(io, 'The syntax of the command is incorrect.');
    const [link, target] = names as [string, string];
    const kind = flags.includes('J') ? 'junction' : flags.includes('H') ? 'hardlink' : 'symlink';
    if (kind === 'symlink' && /(^|\\)ContainerUser$/i.test(this.host.user))
      return this.fail(io, 'You do not have sufficient privilege to perform this operation.');
    // No reparse points on this file system (e.g. FAT): ERROR_INVALID_FUNCTION.
    if (!this.host.fs.link) return this.fail(io, 'Incorrect function.');
    const linkPath = resolveWin(this.cwd, link);
    // A junction stores an absolute target; a relative symlink target is relative to the link's folder.
    const base = kind === 'symlink' ? linkPath.replace(/[\\/][^\\/]*$/, '') : this.cwd;
    try {
      this.host.fs.link(linkPath, resolveWin(base, target));
    } catch (e) {
      return this.fail(io, fsMessage(e, 'path'));
    }
    const what = kind === 'junction' ? 'Junction' : kind === 'hardlink' ? 'Hardlink' : 'symbolic link';
    this.write(io, `${what} created for ${link} <<===>> ${target}\r\n`);
    return true;
  }

  private set(args: string, io: ShellIO): boolean {
    const eq = args.indexOf('=');
    if (eq > 0) {
      const name = args.slice(0, eq).replace(/^"/, '');
      const value = args.slice(eq + 1).replace(/"$/, '');
      const key = Object.keys(this.env).find(k => k.toUpperCase() === name.toUpperCase());
      if (key !== undefined) delete this.env[key];
      if (value !== '') this.env[name] = value;
      return true;
    }
    const prefix = args.toUpperCase();
    const keys = Object.keys(this.env)
      .filter(k => k.toUpperCase().startsWith(prefix))
      .sort((a, b) => (a.toUpperCase() < b.toUpperCase() ? -1 : a.toUpperCase() > b.toUpperCase() ? 1 : 0));
    if (keys.length === 0) return this.fail(io, `Environment variable ${args} not defined`);
    this.write(io, keys.map(k => `${k}=${this.env[k]}\r\n`).join(''));
    return true;
  }

  private dir(args: string, io: ShellIO): boolean {
    const target = resolveWin(this.cwd, args.replace(/\/\w+/g, '').trim().replace(/^"|"$/g, '') || '.');
    const drive = /^([a-zA-Z]):/.exec(target)?.[1]?.toUpperCase() ?? 'C';
    let out = ` Volume in drive ${drive} has no label.\r\n Volume Serial Number is 6C2E-4B1A\r\n\r\n`;
    if (!this.host.fs.exists(target)) {
      this.write(io, `${out} Directory of ${target}\r\n\r\n`);
      return this.fail(io, 'File Not Found');
    }
    // A file: its directory's listing of that file alone.
    const file = !this.host.fs.isDir(target);
    const name = target.replace(/^.*[\\/]/, '');
    const where = file ? target.slice(0, -name.length).replace(/[\\/]+$/, '') || target : target;
    const entries = file ? this.host.fs.list(where).filter(e => e.name.toLowerCase() === name.toLowerCase()) : this.host.fs.list(target);
    // /b: bare names only, no header, no "." / ".."; nothing to list is "File Not Found".
    if (/\/b\b/i.test(args)) {
      if (entries.length === 0) return this.fail(io, 'File Not Found');
      this.write(io, entries.map(e => `${e.name}\r\n`).join(''));
      return true;
    }
    out += ` Directory of ${where}\r\n\r\n`;
    const isRoot = /^[a-zA-Z]:[\\/]?$/.test(target);
    const now = new Date();
    const rows =
      isRoot || file
        ? []
        : [
            { name: '.', dir: true, size: 0, mtime: now },
            { name: '..', dir: true, size: 0, mtime: now },
          ];
    rows.push(...entries);
    let files = 0;
    let bytes = 0;
    let dirs = 0;
    for (const e of rows) {
      const col = e.dir ? '    <DIR>          ' : `${e.size.toLocaleString('en-US').padStart(18)} `;
      out += `${dirDate(e.mtime)}${col}${e.name}\r\n`;
      if (e.dir) dirs++;
      else {
        files++;
        bytes += e.size;
      }
    }
    out += `${String(files).padStart(16)} File(s) ${bytes.toLocaleString('en-US').padStart(14)} bytes\r\n`;
    out += `${String(dirs).padStart(16)} Dir(s)  ${(21474836480).toLocaleString('en-US').padStart(14)} bytes free\r\n`;
    this.write(io, out);
    return true;
  }

  /** if [not] exist P cmd | if [not] defined V cmd | if [not] errorlevel N cmd | if [/i] [not] a==b cmd */
  private async ifCmd(args: string, io: ShellIO): Promise<boolean> {
    let s = args;
    let ci = false;
    let not = false;
    if (/^\/i\s+/i.test(s)) {
      ci = true;
      s = s.replace(/^\/i\s+/i, '');
    }
    if (/^not\s+/i.test(s)) {
      not = true;
      s = s.replace(/^not\s+/i, '');
    }
    let cond: boolean;
    let cmd: string;
    let m: RegExpExecArray | null;
    if ((m = /^exist\s+("[^"]*"|\S+)\s+(.*)$/i.exec(s))) {
      cond = this.host.fs.exists(resolveWin(this.cwd, m[1]!.replace(/^"|"$/g, '')));
      cmd = m[2]!;
    } else if ((m = /^defined\s+(\S+)\s+(.*)$/i.exec(s))) {
      cond = this.getVar(m[1]!) !== undefined;
      cmd = m[2]!;
    } else if ((m = /^errorlevel\s+(\d+)\s+(.*)$/i.exec(s))) {
      cond = this.errorlevel >= Number(m[1]);
      cmd = m[2]!;
    } else if ((m = /^("[^"]*"|\S+?)\s*==\s*("[^"]*"|\S+)\s+(.*)$/.exec(s))) {
      cond = ci ? m[1]!.toLowerCase() === m[2]!.toLowerCase() : m[1] === m[2];
      cmd = m[3]!;
    } else return this.fail(io, 'The syntax of the command is incorrect.', 255);
    if (cond !== not) return this.runLine(cmd, io);
    return true;
  }
}

function dirDate(d: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  const h = d.getUTCHours();
  return `${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()}  ${p(h % 12 === 0 ? 12 : h % 12)}:${p(d.getUTCMinutes())} ${h < 12 ? 'AM' : 'PM'}`;
}

/** The Windows message for a file-system error (§1: read-only mounts give "Access is denied."). */
export function fsMessage(e: unknown, what: 'file' | 'path'): string {
  if (e instanceof FsError) {
    if (e.code === 'EACCES' || e.code === 'EROFS' || e.code === 'EISDIR') return 'Access is denied.';
    if (e.code === 'EEXIST') return 'Cannot create a file when that file already exists.';
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR')
      return what === 'file' ? 'The system cannot find the file specified.' : 'The system cannot find the path specified.';
  }
  throw e;
}
