// /bin/sh (Linux images, and busybox sh on Windows agnhost images): -c, -x (e2e's
// RunHostCmd uses `/bin/sh -x -c`, docs/windows-commands.md §0), lists, pipes, redirections,
// $VAR / ${VAR} / $(cmd) expansion, quotes, if/while/until/for, busybox applets as
// built-ins, other programs through hasBinary. Output uses LF.

import type { ProgramCtx, ShellHost, ShellIO, Spawn } from './types.ts';
import { FsError } from './types.ts';
import { ABORTED_EXIT, Capture, nullSink, readAll, sleep, stdinFrom, withStreams } from './io.ts';
import { isNulDevice, resolvePosix } from './winPaths.ts';
import { runHostname } from './tools/hostname.ts';
import { runWhoami } from './tools/whoami.ts';
import { tokenize, Parser } from './shparse.ts';
import type { ShNode, Word } from './shparse.ts';
import { burnWhile } from './burn.ts';

class ShExit {
  constructor(readonly code: number) {}
}

export async function runSh(ctx: ProgramCtx): Promise<number> {
  let trace = false;
  let errexit = false;
  let script: string | undefined;
  const args = ctx.args;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c') {
      script = args[i + 1];
      break;
    }
    if (/^-[a-z]+$/.test(a)) {
      if (a.includes('x')) trace = true;
      if (a.includes('e')) errexit = true;
      if (a.includes('c')) {
        script = args[i + 1];
        break;
      }
      continue;
    }
    break;
  }
  if (script === undefined) script = (await readAll(ctx.io.stdin, ctx.io.signal)).toString('utf8');
  const session = new ShSession(ctx.host, ctx.env, ctx.spawn, trace, errexit);
  return session.runScript(script, ctx.io);
}

export class ShSession {
  status = 0;
  private cwd: string;
  constructor(
    private host: ShellHost,
    private env: Record<string, string>,
    private spawn: Spawn,
    private trace: boolean,
    private errexit: boolean,
  ) {
    this.cwd = host.cwd ?? (host.os === 'windows' ? 'C:/' : '/');
  }

  async runScript(script: string, io: ShellIO): Promise<number> {
    let ast: ShNode;
    try {
      ast = new Parser(tokenize(script)).parseProgram();
    } catch (e) {
      io.stderr.write(`sh: syntax error: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
    try {
      return await this.exec(ast, io);
    } catch (e) {
      if (e instanceof ShExit) return e.code;
      throw e;
    }
  }

  private async exec(n: ShNode, io: ShellIO): Promise<number> {
    if (io.signal.aborted) throw new ShExit(ABORTED_EXIT);
    switch (n.k) {
      case 'list': {
        let s = 0;
        for (const item of n.items) {
          s = await this.exec(item, io);
          if (this.errexit && s !== 0 && item.k !== 'andor') throw new ShExit(s);
        }
        return s;
      }
      case 'andor': {
        let s = await this.exec(n.first, io);
        for (const [op, node] of n.rest) {
          if ((op === '&&' && s === 0) || (op === '||' && s !== 0)) s = await this.exec(node, io);
        }
        return s;
      }
      case 'pipe': {
        let stdin = io.stdin;
        let s = 0;
        for (const [k, c] of n.cmds.entries()) {
          const last = k === n.cmds.length - 1;
          const cap = last ? undefined : new Capture();
          s = await this.exec(c, withStreams(io, { stdin, stdout: cap ?? io.stdout }));
          if (cap) stdin = stdinFrom(cap.buffer());
        }
        if (n.neg) s = s === 0 ? 1 : 0;
        this.status = s;
        return s;
      }
      case 'if': {
        for (const [cond, body] of n.clauses) {
          if ((await this.exec(cond, io)) === 0) return this.exec(body, io);
        }
        return n.else ? this.exec(n.else, io) : 0;
      }
      case 'while': {
        // An empty busy loop burns CPU through host.resources instead of spinning (see burn.ts).
        if (isNoop(n.body)) {
          const done = await burnWhile(this.host, io.signal, async () => ((await this.exec(n.cond, io)) === 0) !== n.until);
          if (!done) throw new ShExit(ABORTED_EXIT);
          return 0;
        }
        let s = 0;
        while (((await this.exec(n.cond, io)) === 0) !== n.until) {
          s = await this.exec(n.body, io);
          await new Promise(r => setImmediate(r));
          if (io.signal.aborted) throw new ShExit(ABORTED_EXIT);
        }
        return s;
      }
      case 'for': {
        const items: string[] = [];
        for (const w of n.words) items.push(...(await this.expandWord(w, io)));
        let s = 0;
        for (const it of items) {
          this.env[n.name] = it;
          s = await this.exec(n.body, io);
        }
        return s;
      }
      case 'group': {
        if (!n.subshell) return this.exec(n.body, io);
        const saved = { ...this.env };
        const cwd = this.cwd;
        try {
          return await this.exec(n.body, io);
        } catch (e) {
          if (e instanceof ShExit) return e.code;
          throw e;
        } finally {
          this.env = saved;
          this.cwd = cwd;
        }
      }
      case 'simple':
        return this.simple(n, io);
    }
  }

  private getVar(name: string): string | undefined {
    if (name === '?') return String(this.status);
    if (name === '$') return '1';
    if (name === 'PWD') return this.cwd;
    return this.env[name];
  }

  /** Expands a word into fields (unquoted expansions split on blanks). */
  async expandWord(w: Word, io: ShellIO): Promise<string[]> {
    const fields: string[] = [];
    let cur = '';
    let any = false;
    for (const p of w) {
      if (p.kind === 'lit') {
        cur += p.s;
        any = true;
        continue;
      }
      let v: string;
      if (p.kind === 'var') {
        const val = this.getVar(p.name);
        if (p.op === ':-') v = val ? val : (await this.expandWord(p.arg ?? [], io)).join(' ');
        else if (p.op === '-') v = val !== undefined ? val : (await this.expandWord(p.arg ?? [], io)).join(' ');
        else if (p.op === '#') v = String((val ?? '').length);
        else v = val ?? '';
      } else {
        const cap = new Capture();
        const sub = new ShSession(this.host, { ...this.env }, this.spawn, false, false);
        this.status = await sub.runScript(p.src, withStreams(io, { stdout: cap }));
        v = cap.text().replace(/\n+$/, '');
      }
      if (p.quoted) {
        cur += v;
        any = true;
        continue;
      }
      const parts = v.split(/[ \t\n]+/);
      for (const [k, part] of parts.entries()) {
        if (k > 0) {
          if (cur || any) fields.push(cur);
          cur = '';
          any = false;
        }
        if (part) {
          cur += part;
          any = true;
        }
      }
    }
    if (cur || any) fields.push(cur);
    return fields;
  }

  /** busybox-w32 takes drive paths (C:/x, C:\\x) as absolute. */
  private path(p: string): string {
    return this.host.os === 'windows' && /^[a-zA-Z]:/.test(p) ? p : resolvePosix(this.cwd, p);
  }

  private async simple(n: Extract<ShNode, { k: 'simple' }>, io: ShellIO): Promise<number> {
    const argv: string[] = [];
    for (const w of n.words) argv.push(...(await this.expandWord(w, io)));
    const assigns: [string, string][] = [];
    for (const [name, w] of n.assigns) assigns.push([name, (await this.expandWord(w, io)).join(' ')]);
    if (argv.length === 0) {
      for (const [k, v] of assigns) this.env[k] = v;
      this.status = 0;
      return 0;
    }
    if (this.trace) io.stderr.write(`+ ${argv.map(traceQuote).join(' ')}\n`);
    let stdout = io.stdout;
    let stderr = io.stderr;
    let stdin = io.stdin;
    const files: { path: string; cap: Capture }[] = [];
    for (const r of n.redirs) {
      const target = (await this.expandWord(r.target, io)).join(' ');
      if (r.op === '<') {
        try {
          stdin = stdinFrom(this.host.fs.read(this.path(target)));
        } catch {
          io.stderr.write(`sh: can't open ${target}: no such file\n`);
          return (this.status = 1);
        }
        continue;
      }
      let sink;
      if (r.op === '>&') sink = target === '1' ? stdout : stderr;
      else if (isNulDevice(target)) sink = nullSink();
      else {
        const p = this.path(target);
        try {
          this.host.fs.write(p, Buffer.alloc(0), { append: r.append });
        } catch (e) {
          io.stderr.write(`sh: can't create ${target}: ${posixReason(e)}\n`);
          return (this.status = 1);
        }
        const cap = new Capture();
        files.push({ path: p, cap });
        sink = cap;
      }
      if (r.fd === 2) stderr = sink;
      else stdout = sink;
    }
    const env = { ...this.env };
    for (const [k, v] of assigns) env[k] = v;
    const sub = withStreams(io, { stdin, stdout, stderr });
    let code: number;
    try {
      code = await this.command(argv, sub, env);
    } finally {
      for (const f of files) {
        try {
          this.host.fs.write(f.path, f.cap.buffer(), { append: true });
        } catch {
          /* reported at open */
        }
      }
    }
    this.status = code;
    return code;
  }

  private async command(argv: string[], io: ShellIO, env: Record<string, string>): Promise<number> {
    const [name, ...args] = argv as [string, ...string[]];
    const out = (s: string): void => {
      io.stdout.write(s);
    };
    const err = (s: string): void => {
      io.stderr.write(s);
    };
    const fs = this.host.fs;
    switch (name) {
      case ':':
      case 'true':
        return 0;
      case 'false':
        return 1;
      case 'exit':
        throw new ShExit(args[0] !== undefined ? Number(args[0]) & 255 : this.status);
      case 'echo': {
        let a = args;
        let nl = true;
        let esc = false;
        while (a[0] && /^-[ne]+$/.test(a[0])) {
          if (a[0].includes('n')) nl = false;
          if (a[0].includes('e')) esc = true;
          a = a.slice(1);
        }
        let text = a.join(' ');
        if (esc) text = text.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
        out(text + (nl ? '\n' : ''));
        return 0;
      }
      case 'printf': {
        const fmt = (args[0] ?? '').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
        let k = 1;
        out(fmt.replace(/%[sd]/g, () => args[k++] ?? ''));
        return 0;
      }
      case 'cd': {
        const p = this.path(args[0] ?? '/');
        if (!fs.isDir(p)) {
          err(`sh: cd: can't cd to ${args[0]}: No such file or directory\n`);
          return 2;
        }
        this.cwd = p;
        return 0;
      }
      case 'pwd':
        out(`${this.cwd}\n`);
        return 0;
      case 'export':
        for (const a of args) {
          const i = a.indexOf('=');
          if (i > 0) this.env[a.slice(0, i)] = a.slice(i + 1);
        }
        return 0;
      case 'unset':
        for (const a of args) delete this.env[a];
        return 0;
      case 'env':
      case 'printenv': {
        if (name === 'printenv' && args[0]) {
          const v = env[args[0]];
          if (v === undefined) return 1;
          out(`${v}\n`);
          return 0;
        }
        out(
          Object.entries(env)
            .map(([k, v]) => `${k}=${v}\n`)
            .join(''),
        );
        return 0;
      }
      case 'cat':
        return this.cat(args, io);
      case 'ls':
        return this.ls(args, io);
      case 'test':
      case '[': {
        const a = name === '[' ? args.slice(0, args[args.length - 1] === ']' ? -1 : undefined) : args;
        return testExpr(a, p => this.path(p), this.host) ? 0 : 1;
      }
      case 'sleep': {
        const sec = args[0] === 'infinity' ? Number.POSITIVE_INFINITY : Number(args[0] ?? 0);
        const ok = await sleep(Number.isFinite(sec) ? sec * 1000 : Number.MAX_SAFE_INTEGER, io.signal);
        if (!ok) throw new ShExit(ABORTED_EXIT);
        return 0;
      }
      case 'mkdir': {
        const p = args.includes('-p');
        for (const d of args.filter(x => !x.startsWith('-'))) {
          const path = this.path(d);
          if (fs.exists(path)) {
            if (p) continue;
            err(`mkdir: can't create directory '${d}': File exists\n`);
            return 1;
          }
          try {
            fs.mkdir(path);
          } catch (e) {
            err(`mkdir: can't create directory '${d}': ${posixReason(e)}\n`);
            return 1;
          }
        }
        return 0;
      }
      case 'rm': {
        const force = args.some(x => /^-\w*f/.test(x));
        for (const f of args.filter(x => !x.startsWith('-'))) {
          const path = this.path(f);
          if (!fs.exists(path)) {
            if (force) continue;
            err(`rm: can't remove '${f}': No such file or directory\n`);
            return 1;
          }
          try {
            fs.remove(path);
          } catch (e) {
            err(`rm: can't remove '${f}': ${posixReason(e)}\n`);
            return 1;
          }
        }
        return 0;
      }
      case 'touch': {
        for (const f of args.filter(x => !x.startsWith('-'))) {
          const path = this.path(f);
          try {
            if (!fs.exists(path)) fs.write(path, Buffer.alloc(0));
          } catch (e) {
            err(`touch: ${f}: ${posixReason(e)}\n`);
            return 1;
          }
        }
        return 0;
      }
      case 'uname': {
        // busybox-w32 names the system Windows_NT and the operating system MS/Windows.
        const win = this.host.os === 'windows';
        const o = win ? 'MS/Windows' : 'GNU/Linux';
        const sys = win ? 'Windows_NT' : 'Linux';
        out(`${args.includes('-o') ? o : args.includes('-a') ? `${sys} ${this.host.hostname} ${o}` : sys}\n`);
        return 0;
      }
      case 'id': {
        const root = this.host.user === 'root';
        const uid = root ? 0 : 1000;
        out(`uid=${uid}(${this.host.user}) gid=${uid}(${root ? 'root' : this.host.user}) groups=${uid}(${root ? 'root' : this.host.user})\n`);
        return 0;
      }
      case 'whoami':
        return runWhoami({ host: this.host, io, name, args, cmdline: args.join(' '), env, spawn: this.spawn });
      case 'hostname':
        return runHostname({ host: this.host, io, name, args, cmdline: args.join(' '), env, spawn: this.spawn });
      case 'grep':
        return this.grep(args, io);
      case 'head':
      case 'tail': {
        const nArg = args.find(a => /^-n?\d+$/.test(a));
        const k = nArg ? Number(nArg.replace(/^-n?/, '')) : 10;
        const lines = (await readAll(io.stdin, io.signal)).toString('utf8').split('\n');
        if (lines[lines.length - 1] === '') lines.pop();
        const sel = name === 'head' ? lines.slice(0, k) : lines.slice(-k);
        out(sel.map(l => `${l}\n`).join(''));
        return 0;
      }
      case 'wc': {
        const text = (await readAll(io.stdin, io.signal)).toString('utf8');
        out(`${args.includes('-l') ? (text.match(/\n/g) ?? []).length : text.length}\n`);
        return 0;
      }
      case 'ip':
        return this.ip(args, io);
      case 'yes':
        // `yes > /dev/null` is a CPU burner (see burn.ts).
        await burnWhile(this.host, io.signal, async () => true);
        throw new ShExit(ABORTED_EXIT);
      case 'dd': {
        const opt = (k: string): string | undefined => args.find(a => a.startsWith(`${k}=`))?.slice(k.length + 1);
        const count = opt('count');
        // Unbounded `dd if=/dev/zero of=/dev/null` is a CPU burner; a bounded one writes zeros.
        if (count === undefined) {
          await burnWhile(this.host, io.signal, async () => true);
          throw new ShExit(ABORTED_EXIT);
        }
        const bs = sizeArg(opt('bs') ?? '512');
        const total = bs * Number(count);
        const of = opt('of');
        if (of && !isNulDevice(of)) {
          try {
            fs.write(this.path(of), Buffer.alloc(total));
          } catch (e) {
            err(`dd: can't open '${of}': ${posixReason(e)}\n`);
            return 1;
          }
        }
        err(`${count}+0 records in\n${count}+0 records out\n${total} bytes copied\n`);
        return 0;
      }
      default: {
        const code = await this.spawn.argv(argv, this.host, io, env);
        if (code === undefined) {
          err(`sh: ${name}: not found\n`);
          return 127;
        }
        return code;
      }
    }
  }

  private async cat(args: string[], io: ShellIO): Promise<number> {
    const files = args.filter(a => a !== '-' && !a.startsWith('-'));
    if (files.length === 0) {
      io.stdout.write(await readAll(io.stdin, io.signal));
      return 0;
    }
    let code = 0;
    for (const f of files) {
      const p = this.path(f);
      try {
        io.stdout.write(this.host.fs.read(p));
      } catch (e) {
        // The runtime may not write /etc/resolv.conf; generate it from host.dns then.
        if (p === '/etc/resolv.conf' && this.host.os === 'linux') {
          io.stdout.write(resolvConf(this.host));
          continue;
        }
        io.stderr.write(`cat: can't open '${f}': ${posixReason(e)}\n`);
        code = 1;
      }
    }
    return code;
  }

  /**
   * busybox ls. `-l` lines are busybox's: mode, links (%4), owner and group (%-8.8s, so
   * cut to 8 characters), size (%9), "Mon dd HH:MM", name; a directory listing starts with
   * "total N" (1K blocks). Modes come from the file system where it has them (Linux:
   * defaultMode shows as set). On Windows busybox-w32 makes a mode up from the file's
   * attributes (win32/mingw.c file_attr_to_st_mode): r--r--r-- plus w for the owner
   * unless read-only (umask 022), directories rwxr-xr-x, x for .exe/.com/.bat/.cmd; the
   * owner is the current user. Older busybox-w32 builds gave rw------- / r-------- (owner
   * bits only); which build the e2e image's busybox.exe is is UNCONFIRMED.
   */
  private async ls(args: string[], io: ShellIO): Promise<number> {
    const long = args.some(a => /^-\w*l/.test(a));
    const all = args.some(a => /^-\w*a/.test(a));
    const targets = args.filter(a => !a.startsWith('-'));
    const line = (path: string, e: { name: string; dir: boolean; size: number; mtime: Date }): string => {
      if (!long) return `${e.name}\n`;
      const owner = (this.host.os === 'windows' ? this.host.user.replace(/^.*\\/, '') : 'root').slice(0, 8);
      return `${this.modeString(path, e.dir)} ${'1'.padStart(4)} ${owner.padEnd(8)} ${owner.padEnd(8)} ${String(e.size).padStart(9)} ${lsDate(e.mtime)} ${e.name}\n`;
    };
    const join = (dir: string, name: string): string => `${dir.replace(/[\\/]+$/, '')}/${name}`;
    let code = 0;
    for (const t of targets.length ? targets : ['.']) {
      const p = this.path(t);
      if (!this.host.fs.exists(p)) {
        io.stderr.write(`ls: ${t}: No such file or directory\n`);
        code = 1;
        continue;
      }
      if (!this.host.fs.isDir(p)) {
        let size = 0;
        try {
          size = this.host.fs.read(p).length;
        } catch {
          /* unreadable: size 0 */
        }
        io.stdout.write(line(p, { name: t, dir: false, size, mtime: new Date() }));
        continue;
      }
      if (targets.length > 1) io.stdout.write(`${t}:\n`);
      const entries = this.host.fs
        .list(p)
        .filter(e => all || !e.name.startsWith('.'))
        .sort((a, b) => (a.name < b.name ? -1 : 1));
      if (long) io.stdout.write(`total ${entries.reduce((n, e) => n + Math.ceil(e.size / 4096) * 4, 0)}\n`);
      for (const e of entries) io.stdout.write(line(join(p, e.name), e));
    }
    return code;
  }

  /** The ls mode column of one entry (see ls). */
  private modeString(path: string, dir: boolean): string {
    const fs = this.host.fs;
    let mode = fs.mode?.(path);
    if (mode === undefined) {
      if (dir) mode = 0o755;
      else {
        mode = fs.readOnlyAttribute?.(path) ? 0o444 : 0o644;
        if (/\.(exe|com|bat|cmd)$/i.test(path)) mode |= 0o111;
      }
    }
    const bits = 'rwxrwxrwx'
      .split('')
      .map((ch, i) => (mode! & (0o400 >> i) ? ch : '-'))
      .join('');
    return `${dir ? 'd' : '-'}${bits}`;
  }

  /** Runs one busybox applet (argv[0] one of BUSYBOX_BUILTINS) as its own program. */
  async applet(argv: string[], io: ShellIO, env: Record<string, string>): Promise<number> {
    try {
      return await this.command(argv, io, env);
    } catch (e) {
      if (e instanceof ShExit) return e.code;
      throw e;
    }
  }

  private async grep(args: string[], io: ShellIO): Promise<number> {
    let quiet = false;
    let ci = false;
    let inv = false;
    let count = false;
    const rest: string[] = [];
    for (const a of args) {
      if (/^-[qivcE]+$/.test(a)) {
        quiet ||= a.includes('q');
        ci ||= a.includes('i');
        inv ||= a.includes('v');
        count ||= a.includes('c');
      } else rest.push(a);
    }
    const [pat, ...files] = rest;
    if (pat === undefined) {
      io.stderr.write('BusyBox grep: usage\n');
      return 2;
    }
    let text: string;
    try {
      text = files.length ? files.map(f => this.host.fs.read(this.path(f)).toString('utf8')).join('\n') : (await readAll(io.stdin, io.signal)).toString('utf8');
    } catch {
      io.stderr.write(`grep: ${files[0]}: No such file or directory\n`);
      return 2;
    }
    let re: RegExp;
    try {
      re = new RegExp(pat, ci ? 'i' : '');
    } catch {
      re = new RegExp(pat.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), ci ? 'i' : '');
    }
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const hits = lines.filter(l => re.test(l) !== inv);
    if (!quiet) io.stdout.write(count ? `${hits.length}\n` : hits.map(l => `${l}\n`).join(''));
    return hits.length ? 0 : 1;
  }

  private ip(args: string[], io: ShellIO): number {
    if (!['addr', 'a', 'address'].includes(args[0] ?? '')) {
      io.stderr.write('Usage: ip [OPTIONS] address\n');
      return 1;
    }
    let out =
      '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN qlen 1000\n    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00\n    inet 127.0.0.1/8 scope host lo\n       valid_lft forever preferred_lft forever\n';
    for (const [i, itf] of this.host.interfaces.entries()) {
      out += `${i + 2}: ${itf.name}@if${i + 10}: <BROADCAST,MULTICAST,UP,LOWER_UP,M-DOWN> mtu 1450 qdisc noqueue state UP\n`;
      out += `    link/ether 0a:58:0a:f4:00:${(i + 2).toString(16).padStart(2, '0')} brd ff:ff:ff:ff:ff:ff\n`;
      out += `    inet ${itf.address}/${itf.prefixLength} brd ${itf.address} scope global ${itf.name}\n       valid_lft forever preferred_lft forever\n`;
    }
    io.stdout.write(out);
    return 0;
  }
}

/** busybox ls -l time: "Nov 30 04:13" within six months, else "Nov 30  2025" (ls.c). */
function lsDate(d: Date): string {
  const mon = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getUTCMonth()]!;
  const day = String(d.getUTCDate()).padStart(2, ' ');
  const recent = Math.abs(Date.now() - d.getTime()) < 182 * 24 * 3600 * 1000;
  const p = (n: number): string => String(n).padStart(2, '0');
  return recent ? `${mon} ${day} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}` : `${mon} ${day}  ${d.getUTCFullYear()}`;
}

/**
 * Applets that sh runs as built-ins and that the images also ship as programs (busybox
 * links in C:\bin on the Windows e2e images, §0; /bin on Linux), so an exec of argv
 * ["ls", ...] runs the same code. Only applets command() handles itself: anything else
 * would loop back through launchArgv.
 */
export const BUSYBOX_BUILTINS = [
  'ls',
  'cat',
  'echo',
  'printf',
  'mkdir',
  'rm',
  'touch',
  'test',
  'true',
  'false',
  'id',
  'head',
  'tail',
  'wc',
  'env',
  'printenv',
  'grep',
  'sleep',
  'dd',
  'yes',
  'ip',
  'uname',
] as const;

/** A busybox applet run directly (not through sh). */
export async function runApplet(ctx: ProgramCtx): Promise<number> {
  const session = new ShSession(ctx.host, { ...ctx.env }, ctx.spawn, false, false);
  return session.applet([ctx.name, ...ctx.args], ctx.io, ctx.env);
}

/** dd's bs= sizes: 512, 1k, 1M, 1G. */
function sizeArg(v: string): number {
  const m = /^(\d+)([kKmMgG]?)$/.exec(v);
  if (!m) return 512;
  const mult = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2]!.toLowerCase()] ?? 1;
  return Number(m[1]) * mult;
}

/** /etc/resolv.conf as the kubelet writes it for a pod. */
export function resolvConf(host: ShellHost): string {
  const lines = host.dns.nameservers.map(n => `nameserver ${n}`);
  if (host.dns.searches.length) lines.unshift(`search ${host.dns.searches.join(' ')}`);
  lines.push(`options ndots:${host.dns.ndots}`);
  return `${lines.join('\n')}\n`;
}

function isNoop(n: ShNode): boolean {
  if (n.k === 'list') return n.items.every(isNoop);
  if (n.k === 'andor') return n.rest.length === 0 && isNoop(n.first);
  if (n.k === 'pipe') return n.cmds.length === 1 && !n.neg && isNoop(n.cmds[0]!);
  if (n.k === 'simple') {
    const w = n.words[0];
    return (
      n.words.length === 1 && n.redirs.length === 0 && w !== undefined && w.length === 1 && w[0]!.kind === 'lit' && (w[0]!.s === ':' || w[0]!.s === 'true')
    );
  }
  return false;
}

function traceQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function posixReason(e: unknown): string {
  if (e instanceof FsError) {
    if (e.code === 'EROFS') return 'Read-only file system';
    if (e.code === 'EACCES') return 'Permission denied';
    if (e.code === 'EISDIR') return 'Is a directory';
    if (e.code === 'ENOTDIR') return 'Not a directory';
    return 'No such file or directory';
  }
  throw e;
}

function testExpr(a: string[], path: (p: string) => string, host: ShellHost): boolean {
  if (a[0] === '!') return !testExpr(a.slice(1), path, host);
  if (a.length === 0) return false;
  if (a.length === 1) return a[0] !== '';
  if (a.length === 2) {
    const [op, v] = a as [string, string];
    switch (op) {
      case '-z':
        return v === '';
      case '-n':
        return v !== '';
      case '-e':
        return host.fs.exists(path(v));
      case '-f':
        return host.fs.exists(path(v)) && !host.fs.isDir(path(v));
      case '-d':
        return host.fs.isDir(path(v));
      case '-s':
        try {
          return host.fs.read(path(v)).length > 0;
        } catch {
          return false;
        }
      case '-r':
        return host.fs.exists(path(v));
      case '-w':
      case '-x':
        return host.fs.exists(path(v));
      default:
        return false;
    }
  }
  const [l, op, r] = a as [string, string, string];
  switch (op) {
    case '=':
    case '==':
      return l === r;
    case '!=':
      return l !== r;
    case '-eq':
      return Number(l) === Number(r);
    case '-ne':
      return Number(l) !== Number(r);
    case '-gt':
      return Number(l) > Number(r);
    case '-ge':
      return Number(l) >= Number(r);
    case '-lt':
      return Number(l) < Number(r);
    case '-le':
      return Number(l) <= Number(r);
    default:
      return false;
  }
}
