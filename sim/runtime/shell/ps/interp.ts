// The PowerShell evaluator: statements, pipelines, expressions, variables and the
// exit-code rules of docs/windows-commands.md §5 (last statement's $? decides; an external
// program's nonzero exit makes $? false; `throw` ends the script with 1).

import type { ShellHost, ShellIO, Spawn } from '../types.ts';
import type { CmdArg, Element, Expr, Pipeline, Stmt } from './ast.ts';
import {
  NativeOutput,
  PSObject,
  PSType,
  ScriptBlock,
  collapse,
  enumerate,
  isArray,
  lines,
  scalarCmp,
  scalarEq,
  toNum,
  toStr,
  truthy,
  typeOf,
  wildcard,
} from './values.ts';
import type { PSValue } from './values.ts';
import { ExitSignal, LoopControl, ReturnSignal, ScriptError, StatementError, formatError, notRecognized, thrownInfo } from './errors.ts';
import type { Edition, ErrorInfo } from './errors.ts';
import { render } from './format.ts';
import { findCmdlet, bindArgs } from './cmdlets.ts';
import type { ArgToken, CmdletCall } from './cmdletSpec.ts';
import type { PsSession } from './session.ts';
import { callMethod, getMember, staticCall, staticMember, setStaticMember } from './members.ts';
import { joinWindowsArgv } from '../quote.ts';
import { ABORTED_EXIT, Capture, stdinFrom, withStreams } from '../io.ts';
import { burnWhile } from '../burn.ts';
import { resolveWin } from '../winPaths.ts';
import { FsError } from '../types.ts';

type ErrorSink = 'stderr' | 'null' | 'stdout';

export class Interp implements PsSession {
  readonly vars = new Map<string, PSValue>();
  readonly functions = new Map<string, ScriptBlock>();
  lastOk = true;
  lastExitCode: number | null = null;
  cwd: string;
  /** Set when a command in the current pipeline wrote an error ($? false). */
  private failed = false;
  private errorSink: ErrorSink = 'stderr';
  readonly errors: PSValue[] = [];
  /** Aborted when the script ends, so work a script left running (ConnectAsync) stops with it. */
  private readonly scope = new AbortController();
  readonly signal: AbortSignal;

  constructor(
    readonly host: ShellHost,
    readonly io: ShellIO,
    readonly env: Record<string, string>,
    readonly src: string,
    readonly edition: Edition,
    readonly spawn: Spawn,
  ) {
    this.cwd = host.cwd ?? 'C:\\';
    this.signal = AbortSignal.any([io.signal, this.scope.signal]);
  }

  // ---- script ----
  async run(stmts: Stmt[]): Promise<number> {
    try {
      for (const st of stmts) {
        if (this.io.signal.aborted) return ABORTED_EXIT;
        await this.topStatement(st);
      }
      if (this.io.signal.aborted) return ABORTED_EXIT;
      return this.lastOk ? 0 : 1;
    } catch (e) {
      if (e instanceof ExitSignal) return e.code;
      if (e instanceof ScriptError) {
        this.writeErrorInfo(e.info);
        return 1;
      }
      if (e instanceof ReturnSignal) return this.lastOk ? 0 : 1;
      throw e;
    } finally {
      this.scope.abort();
    }
  }

  private async topStatement(st: Stmt): Promise<void> {
    const out: PSValue[] = [];
    try {
      await this.stmt(st, out, true);
    } catch (e) {
      if (e instanceof StatementError) {
        this.writeErrorInfo(e.info);
        this.lastOk = false;
      } else {
        this.emit(out);
        throw e;
      }
    }
    this.emit(out);
  }

  emit(values: PSValue[]): void {
    const text = render(values);
    if (text) this.io.stdout.write(text);
  }

  writeErrorInfo(info: ErrorInfo): void {
    this.errors.unshift(errorRecord(info));
    if (this.errorSink === 'null') return;
    const text = formatError(info, this.src, this.edition);
    (this.errorSink === 'stdout' ? this.io.stdout : this.io.stderr).write(text);
  }

  /** A non-terminating error from a command, honouring -ErrorAction / $ErrorActionPreference. */
  commandError(info: ErrorInfo, action: string | undefined): void {
    this.failed = true;
    const pref = (action ?? toStr(this.getVar('ErrorActionPreference'))).toLowerCase();
    if (pref === 'stop') throw new ScriptError(info);
    if (pref === 'silentlycontinue' || pref === 'ignore') {
      this.errors.unshift(errorRecord(info));
      return;
    }
    this.writeErrorInfo(info);
  }

  // ---- variables ----
  getVar(name: string): PSValue {
    const n = name.replace(/^(global|script|local|using):/i, '');
    const l = n.toLowerCase();
    if (l.startsWith('env:')) {
      const key = Object.keys(this.env).find(k => k.toLowerCase() === l.slice(4));
      return key !== undefined ? this.env[key]! : null;
    }
    switch (l) {
      case '?':
        return this.lastOk;
      case 'true':
        return true;
      case 'false':
        return false;
      case 'null':
        return null;
      case 'lastexitcode':
        return this.lastExitCode;
      case 'pwd':
        return new PSObject('PathInfo', { Path: this.cwd }, this.cwd);
      case 'error':
        return this.errors;
      case 'pid':
        return 4242;
      case 'home':
        return this.env['USERPROFILE'] ?? 'C:\\Users\\ContainerUser';
      case 'psitem':
        return this.vars.get('_') ?? null;
      case 'erroractionpreference':
        return this.vars.get(l) ?? 'Continue';
      case 'psversiontable':
        return new PSObject('Hashtable', {
          PSVersion: this.edition === 'desktop' ? '5.1.20348.2582' : '7.4.6',
          PSEdition: this.edition === 'desktop' ? 'Desktop' : 'Core',
        });
      default:
        return this.vars.has(l) ? this.vars.get(l)! : null;
    }
  }

  setVar(name: string, v: PSValue): void {
    const n = name.replace(/^(global|script|local):/i, '');
    const l = n.toLowerCase();
    if (l.startsWith('env:')) {
      const want = n.slice(4);
      const key = Object.keys(this.env).find(k => k.toLowerCase() === want.toLowerCase());
      if (key !== undefined) delete this.env[key];
      if (v !== null && toStr(v) !== '') this.env[key ?? want] = toStr(v);
      return;
    }
    if (l === 'lastexitcode') {
      this.lastExitCode = v === null ? null : toNum(v);
      return;
    }
    this.vars.set(l === 'psitem' ? '_' : l, v);
  }

  // ---- statements ----
  async block(body: Stmt[], out: PSValue[]): Promise<void> {
    for (const st of body) {
      try {
        await this.stmt(st, out, false);
      } catch (e) {
        if (e instanceof StatementError) {
          this.writeErrorInfo(e.info);
          this.lastOk = false;
          continue;
        }
        throw e;
      }
    }
  }

  private async loopBody(body: Stmt[], out: PSValue[]): Promise<'break' | 'continue' | undefined> {
    try {
      await this.block(body, out);
    } catch (e) {
      if (e instanceof LoopControl) return e.kind;
      throw e;
    }
    if (this.io.signal.aborted) throw new ExitSignal(ABORTED_EXIT);
    return undefined;
  }

  private async cond(p: Pipeline): Promise<boolean> {
    return truthy(collapse(await this.pipeline(p, false)));
  }

  async stmt(st: Stmt, out: PSValue[], top: boolean): Promise<void> {
    switch (st.k) {
      case 'pipe':
        out.push(...(await this.pipeline(st.p, top)));
        return;
      case 'assign': {
        // `$a = @()` or `$a = @(cmd)`: an array expression on its own is assigned as is (an
        // empty array stays an array whose Count is 0); a pipeline's output is collapsed.
        const lone = st.value.k === 'pipe' && st.value.p.elems.length === 1 && !st.value.p.redirs.length ? st.value.p.elems[0] : undefined;
        let v: PSValue;
        if (lone?.k === 'expr' && lone.e.k === 'arrayexpr') {
          v = await this.eval(lone.e);
          this.lastOk = true;
        } else {
          const vals: PSValue[] = [];
          await this.stmt(st.value, vals, false);
          v = collapse(vals.flatMap(materialize));
        }
        const ok = this.lastOk;
        if (st.op !== '=') v = await this.binary(st.op[0]!, await this.eval(st.target), v);
        await this.assign(st.target, v);
        this.lastOk = ok;
        return;
      }
      case 'if': {
        for (const [c, body] of st.clauses) {
          if (await this.cond(c)) {
            await this.block(body, out);
            return;
          }
        }
        if (st.else) await this.block(st.else, out);
        return;
      }
      case 'switch': {
        const items = (await this.pipeline(st.subject, false)).flatMap(v => enumerate(v));
        const saved = this.vars.get('_');
        try {
          for (const it of items) {
            this.vars.set('_', it);
            let matched = false;
            let stop = false;
            for (const cl of st.clauses) {
              if (cl.test === 'default') continue;
              let hit: boolean;
              if (cl.test.k === 'block') hit = truthy(collapse(await this.invokeBlock(new ScriptBlock(cl.test.body, cl.test.src), it)));
              else {
                const t = toStr(await this.eval(cl.test));
                hit = st.flags.includes('wildcard')
                  ? wildcard(t).test(toStr(it))
                  : st.flags.includes('regex')
                    ? new RegExp(t, 'i').test(toStr(it))
                    : scalarEq(it, t);
              }
              if (!hit) continue;
              matched = true;
              if ((await this.loopBody(cl.body, out)) === 'break') {
                stop = true;
                break;
              }
            }
            if (!matched) {
              const d = st.clauses.find(c => c.test === 'default');
              if (d && (await this.loopBody(d.body, out)) === 'break') stop = true;
            }
            if (stop) break;
          }
        } finally {
          if (saved !== undefined) this.vars.set('_', saved);
          else this.vars.delete('_');
        }
        return;
      }
      case 'while': {
        if (st.body.length === 0) {
          // An empty busy loop is a CPU burner (burn.ts).
          if (!(await burnWhile(this.host, this.io.signal, () => this.cond(st.cond)))) throw new ExitSignal(ABORTED_EXIT);
          return;
        }
        let n = 0;
        while (await this.cond(st.cond)) {
          if ((await this.loopBody(st.body, out)) === 'break') break;
          if (++n % 100 === 0) await new Promise(r => setImmediate(r));
        }
        return;
      }
      case 'do': {
        if (st.body.length === 0) {
          if (!(await burnWhile(this.host, this.io.signal, async () => (await this.cond(st.cond)) !== st.until))) throw new ExitSignal(ABORTED_EXIT);
          return;
        }
        let n = 0;
        do {
          if ((await this.loopBody(st.body, out)) === 'break') break;
          if (++n % 100 === 0) await new Promise(r => setImmediate(r));
        } while ((await this.cond(st.cond)) !== st.until);
        return;
      }
      case 'for': {
        if (st.init) await this.stmt(st.init, [], false);
        let n = 0;
        while (!st.cond || (await this.cond(st.cond))) {
          if (st.body.length === 0 && !st.step) {
            if (!(await burnWhile(this.host, this.io.signal, async () => !st.cond || (await this.cond(st.cond))))) throw new ExitSignal(ABORTED_EXIT);
            return;
          }
          if ((await this.loopBody(st.body, out)) === 'break') break;
          if (st.step) await this.stmt(st.step, [], false);
          if (++n % 100 === 0) await new Promise(r => setImmediate(r));
        }
        return;
      }
      case 'foreach': {
        const items = (await this.pipeline(st.coll, false)).flatMap(v => enumerate(v));
        for (const it of items) {
          this.setVar(st.name, it);
          if ((await this.loopBody(st.body, out)) === 'break') break;
        }
        return;
      }
      case 'try': {
        try {
          await this.block(st.body, out);
        } catch (e) {
          if (!(e instanceof ScriptError) || !st.catch) throw e;
          const saved = this.getVar('_');
          this.setVar('_', errorRecord(e.info));
          try {
            await this.block(st.catch, out);
          } finally {
            this.setVar('_', saved);
          }
        } finally {
          if (st.finally) await this.block(st.finally, out);
        }
        return;
      }
      case 'throw': {
        const v = st.e ? collapse(await this.pipeline(st.e, false)) : 'ScriptHalted';
        if (v instanceof PSErrorRecord) throw new ScriptError({ ...v.info, start: st.start, end: st.end });
        throw new ScriptError(thrownInfo(toStr(v), st.start, st.end));
      }
      case 'exit': {
        const v = st.e ? collapse(await this.pipeline(st.e, false)) : 0;
        throw new ExitSignal(v === null ? 0 : toNum(v) | 0);
      }
      case 'return': {
        const vals = st.e ? await this.pipeline(st.e, false) : [];
        throw new ReturnSignal(vals);
      }
      case 'break':
      case 'continue':
        throw new LoopControl(st.k);
      case 'function':
        this.functions.set(st.name.toLowerCase(), new ScriptBlock(st.body, ''));
        return;
    }
  }

  private async assign(target: Expr, v: PSValue): Promise<void> {
    switch (target.k) {
      case 'var':
        this.setVar(target.name, v);
        return;
      case 'cast':
        return this.assign(target.e, await this.cast(target.type, v));
      case 'member': {
        if (target.static) {
          setStaticMember(target.obj, target.name, v);
          return;
        }
        const o = await this.eval(target.obj);
        if (o instanceof PSObject) o.set(target.name, v);
        return;
      }
      case 'index': {
        const o = await this.eval(target.obj);
        const i = await this.eval(target.idx);
        if (isArray(o)) {
          const n = toNum(i);
          o[n < 0 ? o.length + n : n] = v;
        } else if (o instanceof PSObject) o.set(toStr(i), v);
        return;
      }
      default:
        throw this.stmtError('The assignment expression is not valid.', 'InvalidOperation');
    }
  }

  stmtError(message: string, category: string, fqid = 'InvalidOperation'): StatementError {
    return new StatementError({ message, category, reason: 'RuntimeException', fqid });
  }

  // ---- pipelines ----
  async pipeline(p: Pipeline, top: boolean): Promise<PSValue[]> {
    const savedSink = this.errorSink;
    let fileOut: { path: string; append: boolean } | undefined;
    let nullOut = false;
    for (const r of p.redirs) {
      if (r.target === '&1') {
        if (r.stream === '2') this.errorSink = 'stdout';
        continue;
      }
      const t = r.target.k === 'var' && r.target.name.toLowerCase() === 'null' ? null : toStr(await this.eval(r.target));
      if (r.stream === '2' || r.stream === '*') {
        if (t === null) this.errorSink = 'null';
      }
      if (r.stream === '1' || r.stream === '*') {
        if (t === null) nullOut = true;
        else fileOut = { path: resolveWin(this.cwd, t), append: r.append };
      }
    }
    this.failed = false;
    let input: PSValue[] | undefined;
    try {
      for (const [i, el] of p.elems.entries()) {
        const last = i === p.elems.length - 1;
        let vals: PSValue[];
        if (el.k === 'expr') {
          const v = await this.eval(el.e);
          vals = el.e.k === 'paren' || el.e.k === 'subexpr' || el.e.k === 'arrayexpr' || isArray(v) ? enumerate(v) : [v];
        } else vals = await this.command(el, input);
        input = last && top && !fileOut ? vals : vals.flatMap(materialize);
      }
    } catch (e) {
      if (e instanceof StatementError) this.failed = true;
      this.errorSink = savedSink;
      this.lastOk = !this.failed;
      throw e;
    }
    this.errorSink = savedSink;
    this.lastOk = !this.failed;
    const result = input ?? [];
    if (nullOut) return [];
    if (fileOut) {
      const text = render(result);
      // `>` is Out-File: UTF-16LE with BOM in Windows PowerShell 5.1, UTF-8 in pwsh.
      const data = this.edition === 'desktop' ? Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]) : Buffer.from(text);
      try {
        this.host.fs.write(fileOut.path, data, { append: fileOut.append });
      } catch (e) {
        if (!(e instanceof FsError)) throw e;
        this.lastOk = false;
        throw new StatementError({
          message: `Access to the path '${fileOut.path}' is denied.`,
          category: 'OpenError',
          target: '',
          targetType: '',
          activity: 'Out-File',
          reason: 'UnauthorizedAccessException',
          fqid: 'FileOpenFailure,Microsoft.PowerShell.Commands.OutFileCommand',
          start: p.start,
          end: p.end,
        });
      }
      return [];
    }
    return result;
  }

  /** Evaluates command arguments in order; native programs get them as strings (raw). */
  private async argTokens(args: CmdArg[]): Promise<{ tokens: ArgToken[]; raw: string[] }> {
    const tokens: ArgToken[] = [];
    const raw: string[] = [];
    for (const a of args) {
      if (a.k === 'param') {
        const v = a.value ? await this.eval(a.value) : undefined;
        tokens.push({ kind: 'named', name: a.name, value: v, attached: a.value !== undefined });
        raw.push(a.value ? `-${a.name}:${toStr(v ?? null)}` : `-${a.name}`);
      } else {
        const v = await this.eval(a.e);
        tokens.push({ kind: 'pos', value: v });
        for (const x of enumerate(v)) raw.push(toStr(x));
      }
    }
    return { tokens, raw };
  }

  private async command(el: Extract<Element, { k: 'command' }>, input: PSValue[] | undefined): Promise<PSValue[]> {
    let name: string;
    if (typeof el.name === 'string') name = el.name;
    else {
      const v = await this.eval(el.name);
      if (v instanceof ScriptBlock) return this.invokeBlock(v, undefined, input);
      name = toStr(v);
    }
    const fn = this.functions.get(name.toLowerCase());
    if (fn) {
      const { raw } = await this.argTokens(el.args);
      return this.invokeBlock(fn, undefined, input, raw);
    }
    const cmdlet = findCmdlet(name, this);
    if (cmdlet) {
      const { tokens } = await this.argTokens(el.args);
      const bound = bindArgs(cmdlet, tokens, el);
      const call: CmdletCall = {
        interp: this,
        host: this.host,
        io: this.io,
        input: input ?? [],
        bound,
        name: cmdlet.name,
        hadInput: input !== undefined,
        error: info =>
          this.commandError(
            { command: cmdlet.name, start: el.start, end: el.end, ...info },
            bound['ErrorAction'] === undefined ? undefined : toStr(bound['ErrorAction']),
          ),
        fail: info => new StatementError({ command: cmdlet.name, start: el.start, end: el.end, ...info }),
        start: el.start,
        end: el.end,
      };
      return cmdlet.run(call);
    }
    const prog = this.spawn.resolve(this.host, name);
    if (prog) {
      const { raw } = await this.argTokens(el.args);
      const cap = new Capture();
      const errCap = this.errorSink === 'stderr' ? undefined : new Capture();
      const stdin = input !== undefined ? stdinFrom(Buffer.from(input.map(v => `${toStr(v)}\r\n`).join(''))) : null;
      const code = await prog.run({
        host: this.host,
        io: withStreams(this.io, { stdout: cap, stdin, stderr: errCap ?? this.io.stderr }),
        name: prog.key,
        args: raw,
        cmdline: joinWindowsArgv(raw),
        env: { ...this.env },
        spawn: this.spawn,
      });
      this.lastExitCode = code;
      if (code !== 0) this.failed = true;
      const out: PSValue[] = [new NativeOutput(cap.buffer())];
      const errLines = errCap ? lines(new NativeOutput(errCap.buffer())) : [];
      if (errLines.length > 0 && this.errorSink === 'stdout') out.push(...this.nativeErrorLines(errLines, name, el.start, el.end));
      // Windows PowerShell 5.1 turns redirected native stderr into error records, so $? is false
      // (the NativeCommandError quirk behind actions/runner-images#698, docs/windows-commands.md §3).
      if (errLines.length > 0 && this.edition === 'desktop') this.failed = true;
      return out;
    }
    throw new StatementError(notRecognized(name, el.start, el.start + name.length));
  }

  /** 2>&1 on a native command: the first stderr line is shown as a NativeCommandError record. */
  private nativeErrorLines(errLines: string[], name: string, start: number, end: number): PSValue[] {
    if (this.edition !== 'desktop') return errLines;
    const [first, ...rest] = errLines as [string, ...string[]];
    const record = formatError(
      {
        message: first,
        command: name,
        category: 'NotSpecified',
        target: first,
        reason: 'RemoteException',
        activity: '',
        fqid: 'NativeCommandError',
        start,
        end,
      },
      this.src,
      this.edition,
    );
    return [new NativeOutput(Buffer.from(record)), ...rest];
  }

  /** Runs a script block with $_ bound; returns its output. */
  async invokeBlock(sb: ScriptBlock, dollar: PSValue | undefined, input?: PSValue[], args: PSValue[] = []): Promise<PSValue[]> {
    const out: PSValue[] = [];
    const saved = this.vars.get('_');
    const savedArgs = this.vars.get('args');
    if (dollar !== undefined) this.vars.set('_', dollar);
    this.vars.set('args', args);
    if (input !== undefined) this.vars.set('input', input);
    try {
      await this.block(sb.body, out);
    } catch (e) {
      if (e instanceof ReturnSignal) out.push(...(e.values as PSValue[]));
      else throw e;
    } finally {
      if (saved !== undefined) this.vars.set('_', saved);
      else this.vars.delete('_');
      if (savedArgs !== undefined) this.vars.set('args', savedArgs);
      else this.vars.delete('args');
    }
    return out.flatMap(materialize);
  }

  // ---- expressions ----
  async eval(e: Expr): Promise<PSValue> {
    switch (e.k) {
      case 'num':
        return e.v;
      case 'str':
        return e.v;
      case 'xstr': {
        let s = '';
        for (const p of e.parts) s += typeof p === 'string' ? p : toStr(await this.eval(p));
        return s;
      }
      case 'var':
        return this.getVar(e.name);
      case 'array': {
        const out: PSValue[] = [];
        for (const i of e.items) out.push(await this.eval(i));
        return out;
      }
      case 'arrayexpr': {
        const out: PSValue[] = [];
        await this.block(e.body, out);
        return out.flatMap(materialize).flatMap(v => enumerate(v));
      }
      case 'subexpr': {
        const out: PSValue[] = [];
        await this.block(e.body, out);
        return collapse(out.flatMap(materialize));
      }
      case 'paren':
        return collapse(await this.pipeline(e.pipe, false));
      case 'hash': {
        const o = new PSObject('Hashtable', []);
        for (const [k, x] of e.entries) o.set(k, await this.eval(x));
        return o;
      }
      case 'block':
        return new ScriptBlock(e.body, e.src);
      case 'type':
        return new PSType(e.name);
      case 'unary': {
        const v = await this.eval(e.e);
        if (e.op === 'not') return !truthy(v);
        if (e.op === '-') return -toNum(v);
        if (e.op === 'join') return enumerate(v).map(toStr).join('');
        if (e.op === 'split') return toStr(v).trim().split(/\s+/);
        return v;
      }
      case 'cast':
        return this.cast(e.type, await this.eval(e.e));
      case 'bin': {
        if (e.op === 'and') return truthy(await this.eval(e.l)) && truthy(await this.eval(e.r));
        if (e.op === 'or') return truthy(await this.eval(e.l)) || truthy(await this.eval(e.r));
        return this.binary(e.op, await this.eval(e.l), await this.eval(e.r));
      }
      case 'member':
        return e.static ? staticMember(this, e.obj, e.name) : getMember(await this.eval(e.obj), e.name);
      case 'call': {
        const args: PSValue[] = [];
        for (const a of e.args) args.push(await this.eval(a));
        if (e.static) return staticCall(this, e.obj, e.name, args, e.start, e.end);
        return callMethod(this, await this.eval(e.obj), e.name, args, e.start, e.end);
      }
      case 'index': {
        const o = await this.eval(e.obj);
        const i = await this.eval(e.idx);
        return index(o, i);
      }
    }
  }

  async cast(type: string, v: PSValue): Promise<PSValue> {
    const t = type.toLowerCase().replace(/^system\./, '');
    switch (t) {
      case 'int':
      case 'int32':
      case 'int64':
      case 'long':
      case 'uint32':
      case 'byte':
        return Math.round(toNum(v));
      case 'double':
      case 'float':
      case 'decimal':
        return toNum(v);
      case 'string':
        return toStr(v);
      case 'bool':
      case 'boolean':
        return truthy(v);
      case 'array':
      case 'object[]':
      case 'string[]':
        return t === 'string[]' ? enumerate(v).map(toStr) : enumerate(v);
      case 'int[]':
        return enumerate(v).map(toNum);
      case 'void':
        return null;
      case 'datetime':
        return v instanceof Date ? v : new Date(toStr(v));
      case 'pscustomobject':
        return v instanceof PSObject
          ? new PSObject(
              'PSCustomObject',
              v.props.map(([k, x]): [string, PSValue] => [k, x]),
            )
          : v;
      case 'ipaddress':
      case 'net.ipaddress':
        return new PSObject('IPAddress', { IPAddressToString: toStr(v), AddressFamily: 'InterNetwork' }, toStr(v));
      default:
        return v;
    }
  }

  async binary(op: string, l: PSValue, r: PSValue): Promise<PSValue> {
    const cs = /^c(eq|ne|gt|ge|lt|le|like|notlike|match|notmatch|contains|notcontains|in|notin|replace|split)$/.test(op);
    const base = /^[ci](eq|ne|gt|ge|lt|le|like|notlike|match|notmatch|contains|notcontains|in|notin|replace|split)$/.test(op) ? op.slice(1) : op;
    const ci = !cs;
    const scalar = (a: PSValue): boolean => {
      switch (base) {
        case 'eq':
          return scalarEq(a, r, ci);
        case 'ne':
          return !scalarEq(a, r, ci);
        case 'gt':
          return scalarCmp(a, r, ci) > 0;
        case 'ge':
          return scalarCmp(a, r, ci) >= 0;
        case 'lt':
          return scalarCmp(a, r, ci) < 0;
        case 'le':
          return scalarCmp(a, r, ci) <= 0;
        case 'like':
          return wildcard(toStr(r)).test(toStr(a));
        case 'notlike':
          return !wildcard(toStr(r)).test(toStr(a));
        case 'match':
        case 'notmatch': {
          const m = new RegExp(toStr(r), ci ? 'i' : '').exec(toStr(a));
          if (m && base === 'match')
            this.vars.set(
              'matches',
              new PSObject(
                'Hashtable',
                m.map((x, i) => [String(i), x ?? null] as [string, PSValue]),
              ),
            );
          return base === 'match' ? m !== null : m === null;
        }
        default:
          return false;
      }
    };
    switch (base) {
      case 'eq':
      case 'ne':
      case 'gt':
      case 'ge':
      case 'lt':
      case 'le':
      case 'like':
      case 'notlike':
      case 'match':
      case 'notmatch':
        // A collection on the left filters: ($a -eq 'x') returns the matching items.
        return isArray(l) ? l.filter(x => scalar(x)) : scalar(l);
      case 'contains':
        return enumerate(l).some(x => scalarEq(x, r, ci));
      case 'notcontains':
        return !enumerate(l).some(x => scalarEq(x, r, ci));
      case 'in':
        return enumerate(r).some(x => scalarEq(x, l, ci));
      case 'notin':
        return !enumerate(r).some(x => scalarEq(x, l, ci));
      case 'is':
      case 'isnot': {
        const want = r instanceof PSType ? r.name.toLowerCase().replace(/^system\./, '') : toStr(r).toLowerCase();
        const have = typeOf(l)
          .toLowerCase()
          .replace(/^system\./, '');
        const alias: Record<string, string> = {
          int: 'int32',
          string: 'string',
          bool: 'boolean',
          array: 'object[]',
          datetime: 'datetime',
          pscustomobject: 'pscustomobject',
        };
        const hit = have === (alias[want] ?? want) || (want === 'object' && l !== null) || (want === 'array' && isArray(l));
        return base === 'is' ? hit : !hit;
      }
      case 'replace': {
        const [pat, rep] = isArray(r) ? [toStr(r[0] ?? ''), toStr(r[1] ?? '')] : [toStr(r), ''];
        const re = new RegExp(pat, ci ? 'gi' : 'g');
        return isArray(l) ? l.map(x => toStr(x).replace(re, rep)) : toStr(l).replace(re, rep);
      }
      case 'split':
        return toStr(l).split(new RegExp(toStr(r), ci ? 'i' : ''));
      case 'join':
        return enumerate(l).map(toStr).join(toStr(r));
      case 'xor':
        return truthy(l) !== truthy(r);
      case 'f': {
        const args = enumerate(r);
        return toStr(l).replace(/\{(\d+)(?:,(-?\d+))?(?::([^}]*))?\}/g, (_m, i: string, w?: string, f?: string) => {
          let s = formatValue(args[Number(i)] ?? null, f);
          if (w) {
            const n = Number(w);
            s = n < 0 ? s.padEnd(-n) : s.padStart(n);
          }
          return s;
        });
      }
      case '..': {
        const a = toNum(l);
        const b = toNum(r);
        const out: number[] = [];
        for (let i = a; a <= b ? i <= b : i >= b; i += a <= b ? 1 : -1) out.push(i);
        return out;
      }
      case '+':
        if (isArray(l)) return [...l, ...enumerate(r)];
        if (l === null) return r;
        if (typeof l === 'string') return l + toStr(r);
        if (l instanceof Date) return new Date(l.getTime() + toNum(r) / 10000);
        return toNum(l) + toNum(r);
      case '-':
        if (l instanceof Date && r instanceof Date) return timeSpan(l.getTime() - r.getTime());
        return toNum(l) - toNum(r);
      case '*':
        if (typeof l === 'string') return l.repeat(toNum(r));
        if (isArray(l)) return Array.from({ length: toNum(r) }, () => l).flat();
        return toNum(l) * toNum(r);
      case '/':
        return toNum(l) / toNum(r);
      case '%':
        return toNum(l) % toNum(r);
      default:
        throw this.stmtError(`Unexpected operator '-${op}'.`, 'ParserError');
    }
  }
}

export function timeSpan(ms: number): PSObject {
  return new PSObject('TimeSpan', {
    Days: Math.trunc(ms / 86400000),
    Hours: Math.trunc(ms / 3600000) % 24,
    Minutes: Math.trunc(ms / 60000) % 60,
    Seconds: Math.trunc(ms / 1000) % 60,
    Milliseconds: Math.trunc(ms) % 1000,
    TotalSeconds: ms / 1000,
    TotalMilliseconds: ms,
    TotalMinutes: ms / 60000,
  });
}

function formatValue(v: PSValue, f: string | undefined): string {
  if (!f) return toStr(v);
  const m = /^([NDFX])(\d*)$/i.exec(f);
  if (!m) return toStr(v);
  const n = toNum(v);
  const digits = m[2] ? Number(m[2]) : m[1]!.toUpperCase() === 'D' ? 0 : 2;
  switch (m[1]!.toUpperCase()) {
    case 'N':
      return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    case 'F':
      return n.toFixed(digits);
    case 'D':
      return String(Math.trunc(n)).padStart(digits, '0');
    case 'X':
      return Math.trunc(n).toString(16).toUpperCase().padStart(digits, '0');
    default:
      return toStr(v);
  }
}

function index(o: PSValue, i: PSValue): PSValue {
  if (isArray(i)) return i.map(x => index(o, x));
  if (o === null) return null;
  if (o instanceof PSObject) return o.get(toStr(i)) ?? null;
  if (typeof o === 'string') {
    const n = toNum(i);
    return o[n < 0 ? o.length + n : n] ?? null;
  }
  const arr = enumerate(o);
  const n = toNum(i);
  return arr[n < 0 ? arr.length + n : n] ?? null;
}

export function materialize(v: PSValue): PSValue[] {
  return v instanceof NativeOutput ? lines(v) : [v];
}

/** An ErrorRecord as scripts see it in catch blocks ($_.Exception.Message, "$_"). */
export class PSErrorRecord extends PSObject {
  constructor(readonly info: ErrorInfo) {
    super(
      'ErrorRecord',
      {
        Exception: new PSObject('Exception', { Message: info.message }, info.message),
        CategoryInfo: `${info.category}: (${info.target ?? ''}:${info.targetType ?? 'String'}) [${info.activity ?? info.command ?? ''}], ${info.reason}`,
        FullyQualifiedErrorId: info.fqid,
        TargetObject: info.target ?? null,
      },
      info.message,
    );
  }
}

export function errorRecord(info: ErrorInfo): PSErrorRecord {
  return new PSErrorRecord(info);
}
