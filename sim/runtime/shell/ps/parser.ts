// A recursive-descent parser for the PowerShell subset probes use. PowerShell is
// parsed in two modes: expression mode (operators, members) and command mode
// (barewords and -Parameters), so the parser reads characters directly.

import type { CmdArg, Element, Expr, Pipeline, Redirection, Stmt } from './ast.ts';

export class PSParseError extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
  }
}

const KEYWORDS = new Set(['switch', 'if', 'while', 'for', 'foreach', 'do', 'try', 'throw', 'exit', 'return', 'break', 'continue', 'function']);
const OPS = [
  'eq',
  'ne',
  'gt',
  'ge',
  'lt',
  'le',
  'like',
  'notlike',
  'match',
  'notmatch',
  'contains',
  'notcontains',
  'in',
  'notin',
  'is',
  'isnot',
  'replace',
  'split',
  'join',
];
const COMPARISON = new Set([...OPS, ...OPS.map(o => `i${o}`), ...OPS.map(o => `c${o}`)]);
const LOGICAL = new Set(['and', 'or', 'xor']);

export function parseScript(src: string): Stmt[] {
  const p = new Parser(src);
  const body = p.statements('');
  p.wsNl();
  if (!p.eof()) throw new PSParseError(`Unexpected token '${src.slice(p.pos, p.pos + 10).split(/\s/)[0]}' in expression or statement.`, p.pos);
  return body;
}

class Parser {
  pos = 0;
  /** Inside method-call arguments a comma separates arguments instead of building an array. */
  private noComma = false;
  constructor(private s: string) {}

  eof(): boolean {
    return this.pos >= this.s.length;
  }
  private ch(o = 0): string {
    return this.s[this.pos + o] ?? '';
  }
  private startsWithCI(w: string): boolean {
    return this.s.slice(this.pos, this.pos + w.length).toLowerCase() === w;
  }
  private err(msg: string): never {
    throw new PSParseError(msg, this.pos);
  }

  /** Skips blanks, line continuations and comments, not newlines. */
  ws(): void {
    for (;;) {
      const c = this.ch();
      if (c === ' ' || c === '\t' || c === '\r') {
        this.pos++;
        continue;
      }
      if (c === '`' && (this.ch(1) === '\n' || (this.ch(1) === '\r' && this.ch(2) === '\n'))) {
        this.pos += this.ch(1) === '\r' ? 3 : 2;
        continue;
      }
      if (c === '<' && this.ch(1) === '#') {
        const e = this.s.indexOf('#>', this.pos);
        this.pos = e < 0 ? this.s.length : e + 2;
        continue;
      }
      if (c === '#') {
        while (!this.eof() && this.ch() !== '\n') this.pos++;
        continue;
      }
      return;
    }
  }
  wsNl(): void {
    for (;;) {
      this.ws();
      if (this.ch() === '\n') {
        this.pos++;
        continue;
      }
      return;
    }
  }

  private word(): string {
    const m = /^[A-Za-z_][\w]*/.exec(this.s.slice(this.pos));
    return m ? m[0] : '';
  }

  private expect(c: string): void {
    this.wsNl();
    if (!this.s.startsWith(c, this.pos)) this.err(`Missing '${c}'.`);
    this.pos += c.length;
  }

  statements(end: string): Stmt[] {
    const out: Stmt[] = [];
    for (;;) {
      this.wsNl();
      while (this.ch() === ';') {
        this.pos++;
        this.wsNl();
      }
      if (this.eof() || (end && this.ch() === end)) return out;
      out.push(this.statement());
      this.ws();
      const c = this.ch();
      if (c === ';' || c === '\n') {
        this.pos++;
        continue;
      }
      if (this.eof() || (end && c === end)) return out;
      this.err(`Unexpected token '${this.s.slice(this.pos).split(/\s/)[0]}' in expression or statement.`);
    }
  }

  private block(): Stmt[] {
    this.expect('{');
    const body = this.statements('}');
    this.expect('}');
    return body;
  }

  private condition(): Pipeline {
    this.expect('(');
    this.wsNl();
    const p = this.pipeline();
    this.expect(')');
    return p;
  }

  private peekKeyword(): string {
    const w = this.word().toLowerCase();
    if (!KEYWORDS.has(w)) return '';
    const after = this.s[this.pos + w.length] ?? '';
    return /[\w-]/.test(after) ? '' : w;
  }

  /** After a keyword like `else`: is the next word kw? (skips newlines, restores when not) */
  private nextWordIs(kw: string): boolean {
    const save = this.pos;
    this.wsNl();
    if (this.word().toLowerCase() === kw) {
      this.pos += kw.length;
      return true;
    }
    this.pos = save;
    return false;
  }

  statement(): Stmt {
    const start = this.pos;
    const kw = this.peekKeyword();
    const fin = <T extends Stmt>(st: T): T => {
      st.end = this.pos;
      return st;
    };
    if (kw) this.pos += kw.length;
    switch (kw) {
      case 'if': {
        const clauses: [Pipeline, Stmt[]][] = [[this.condition(), this.block()]];
        let els: Stmt[] | undefined;
        for (;;) {
          if (this.nextWordIs('elseif')) {
            clauses.push([this.condition(), this.block()]);
            continue;
          }
          if (this.nextWordIs('else')) els = this.block();
          break;
        }
        return fin({ k: 'if', clauses, else: els, start, end: 0 });
      }
      case 'switch': {
        this.ws();
        const flags: string[] = [];
        while (this.ch() === '-') {
          const m = /^-(\w+)/.exec(this.s.slice(this.pos))!;
          flags.push(m[1]!.toLowerCase());
          this.pos += m[0].length;
          this.ws();
        }
        const subject = this.condition();
        this.expect('{');
        const clauses: { test: Expr | 'default'; body: Stmt[] }[] = [];
        for (;;) {
          this.wsNl();
          while (this.ch() === ';') {
            this.pos++;
            this.wsNl();
          }
          if (this.ch() === '}') {
            this.pos++;
            break;
          }
          let test: Expr | 'default';
          if (/^default\b/i.test(this.s.slice(this.pos))) {
            this.pos += 7;
            test = 'default';
          } else if (/[A-Za-z_]/.test(this.ch())) {
            const m = /^[^\s{]+/.exec(this.s.slice(this.pos))!;
            this.pos += m[0].length;
            test = { k: 'str', v: m[0] };
          } else test = this.postfix(this.primary());
          clauses.push({ test, body: this.block() });
        }
        return fin({ k: 'switch', flags, subject, clauses, start, end: 0 });
      }
      case 'while': {
        const cond = this.condition();
        return fin({ k: 'while', cond, body: this.block(), start, end: 0 });
      }
      case 'do': {
        const body = this.block();
        const until = this.nextWordIs('until');
        if (!until && !this.nextWordIs('while')) this.err("Missing 'while' or 'until' in do loop.");
        return fin({ k: 'do', body, cond: this.condition(), until, start, end: 0 });
      }
      case 'for': {
        this.expect('(');
        this.wsNl();
        const init = this.ch() === ';' ? undefined : this.statement();
        this.expect(';');
        this.wsNl();
        const cond = this.ch() === ';' ? undefined : this.pipeline();
        this.expect(';');
        this.wsNl();
        const step = this.ch() === ')' ? undefined : this.statement();
        this.expect(')');
        return fin({ k: 'for', init, cond, step, body: this.block(), start, end: 0 });
      }
      case 'foreach': {
        this.expect('(');
        this.wsNl();
        if (this.ch() !== '$') this.err('Missing variable name after foreach.');
        this.pos++;
        const name = this.word();
        this.pos += name.length;
        this.wsNl();
        if (!this.startsWithCI('in')) this.err("Missing 'in' after variable in foreach loop.");
        this.pos += 2;
        this.wsNl();
        const coll = this.pipeline();
        this.expect(')');
        return fin({ k: 'foreach', name, coll, body: this.block(), start, end: 0 });
      }
      case 'try': {
        const body = this.block();
        let c: Stmt[] | undefined;
        let f: Stmt[] | undefined;
        while (this.nextWordIs('catch')) {
          this.ws();
          while (this.ch() === '[') {
            this.typeName();
            this.ws();
            if (this.ch() === ',') {
              this.pos++;
              this.ws();
            }
          }
          c = this.block();
        }
        if (this.nextWordIs('finally')) f = this.block();
        return fin({ k: 'try', body, catch: c, finally: f, start, end: 0 });
      }
      case 'throw':
      case 'exit':
      case 'return': {
        this.ws();
        const c = this.ch();
        const e = c === '' || c === ';' || c === '\n' || c === '}' || c === ')' ? undefined : this.pipeline();
        return fin({ k: kw, e, start, end: 0 });
      }
      case 'break':
      case 'continue':
        return fin({ k: kw, start, end: 0 });
      case 'function': {
        this.ws();
        const m = /^[\w-]+/.exec(this.s.slice(this.pos));
        if (!m) this.err('Missing function name.');
        this.pos += m[0].length;
        return fin({ k: 'function', name: m[0], body: this.block(), start, end: 0 });
      }
      default:
        break;
    }
    // Assignment: an l-value followed by = += -= *= /= (or ++ / --).
    if (this.ch() === '$' || this.ch() === '[') {
      const save = this.pos;
      try {
        const target = this.postfix(this.ch() === '[' ? this.castOrType() : this.primary());
        this.ws();
        const m = /^([+\-*/]?=)(?!=)|^(\+\+|--)/.exec(this.s.slice(this.pos));
        if (m && (target.k === 'var' || target.k === 'member' || target.k === 'index' || target.k === 'cast')) {
          this.pos += m[0].length;
          if (m[2])
            return fin({
              k: 'assign',
              target,
              op: m[2] === '++' ? '+=' : '-=',
              value: { k: 'pipe', p: { elems: [{ k: 'expr', e: { k: 'num', v: 1 }, start, end: start }], redirs: [], start, end: start }, start, end: start },
              start,
              end: 0,
            });
          this.wsNl();
          const value = this.statement();
          return fin({ k: 'assign', target, op: m[1]!, value, start, end: 0 });
        }
      } catch (e) {
        if (!(e instanceof PSParseError)) throw e;
      }
      this.pos = save;
    }
    const p = this.pipeline();
    return { k: 'pipe', p, start, end: this.pos };
  }

  private isCommandStart(): boolean {
    const c = this.ch();
    if (/[A-Za-z_]/.test(c)) return true;
    if (c === '&' && this.ch(1) !== '&') return true;
    if (c === '.' && (this.ch(1) === '\\' || this.ch(1) === '/')) return true;
    if ((c === '?' || c === '%') && /\s|\{/.test(this.ch(1))) return true;
    return false;
  }

  pipeline(): Pipeline {
    const start = this.pos;
    const elems: Element[] = [];
    const redirs: Redirection[] = [];
    for (;;) {
      this.ws();
      const es = this.pos;
      if (elems.length === 0 && !this.isCommandStart()) {
        const e = this.expression();
        elems.push({ k: 'expr', e, start: es, end: this.pos });
        this.ws();
        this.redirections(redirs);
      } else {
        elems.push(this.command(redirs));
      }
      this.ws();
      if (this.ch() === '|' && this.ch(1) !== '|') {
        this.pos++;
        this.wsNl();
        continue;
      }
      return { elems, redirs, start, end: this.pos };
    }
  }

  private redirections(into: Redirection[]): boolean {
    let any = false;
    for (;;) {
      this.ws();
      const m = /^([12*])?(>>?)(&1)?/.exec(this.s.slice(this.pos));
      if (!m) return any;
      this.pos += m[0].length;
      any = true;
      const stream = (m[1] ?? '1') as '1' | '2' | '*';
      if (m[3]) {
        into.push({ stream, target: '&1', append: false });
        continue;
      }
      this.ws();
      into.push({ stream, target: this.commandArgValue(), append: m[2] === '>>' });
    }
  }

  private command(redirs: Redirection[]): Element {
    const start = this.pos;
    let name: string | Expr;
    if (this.ch() === '&') {
      this.pos++;
      this.ws();
      name = this.postfix(this.primary());
    } else {
      const m = /^[^\s;|(){}<>,"'`]+/.exec(this.s.slice(this.pos));
      name = m ? m[0] : this.err('Missing command name.');
      this.pos += name.length;
    }
    const args: CmdArg[] = [];
    for (;;) {
      this.ws();
      const c = this.ch();
      if (c === '' || c === '\n' || c === ';' || c === ')' || c === '}' || c === '|' || (c === '&' && this.ch(1) === '&')) break;
      if (this.redirections(redirs)) continue;
      if (c === '-' && /[A-Za-z_?]/.test(this.ch(1))) {
        const m = /^-([\w?-]+)(:)?/.exec(this.s.slice(this.pos))!;
        this.pos += m[0].length;
        if (m[2]) {
          this.ws();
          args.push({ k: 'param', name: m[1]!, value: this.commandArgValue() });
        } else args.push({ k: 'param', name: m[1]! });
        continue;
      }
      if (c === '-' && this.ch(1) === '-' && this.ch(2) === '%') {
        this.pos += 3;
        continue;
      }
      args.push({ k: 'arg', e: this.commandArgValue() });
    }
    return { k: 'command', name, args, start, end: this.pos };
  }

  /** One command argument: an expression primary (with members) or a bareword; commas make arrays. */
  private commandArgValue(): Expr {
    const items: Expr[] = [this.singleArg()];
    for (;;) {
      this.ws();
      if (this.ch() !== ',') break;
      this.pos++;
      this.wsNl();
      items.push(this.singleArg());
    }
    return items.length === 1 ? items[0]! : { k: 'array', items };
  }

  private singleArg(): Expr {
    const c = this.ch();
    if (c === '$' || c === '"' || c === "'" || c === '(' || c === '@' || c === '{') return this.postfix(this.primary());
    const m = /^[^\s;|(){},<>]+/.exec(this.s.slice(this.pos));
    if (!m) this.err(`Unexpected token '${c}'.`);
    this.pos += m[0].length;
    const num = /^(-?\d+(?:\.\d+)?)(kb|mb|gb)?$/i.exec(m[0]);
    if (num) return { k: 'num', v: Number(num[1]) * multiplier(num[2]) };
    return { k: 'str', v: m[0] };
  }

  // ---- expressions ----
  expression(): Expr {
    return this.logical();
  }

  private opWord(allowed: Set<string>): string | undefined {
    const save = this.pos;
    this.ws();
    if (this.ch() === '-') {
      const m = /^-([A-Za-z]+)/.exec(this.s.slice(this.pos));
      if (m && allowed.has(m[1]!.toLowerCase())) {
        this.pos += m[0].length;
        this.wsNl();
        return m[1]!.toLowerCase();
      }
    }
    this.pos = save;
    return undefined;
  }

  private logical(): Expr {
    let l = this.comparison();
    for (let op = this.opWord(LOGICAL); op; op = this.opWord(LOGICAL)) l = { k: 'bin', op, l, r: this.comparison() };
    return l;
  }

  private comparison(): Expr {
    let l = this.additive();
    for (let op = this.opWord(COMPARISON); op; op = this.opWord(COMPARISON)) l = { k: 'bin', op, l, r: this.additive() };
    return l;
  }

  private symbolOp(ops: string[]): string | undefined {
    const save = this.pos;
    this.ws();
    for (const o of ops) {
      // "-eq" is an operator word, "+=" an assignment: neither is arithmetic.
      if (this.s.startsWith(o, this.pos) && this.s[this.pos + 1] !== '=' && !(o === '-' && /[A-Za-z]/.test(this.ch(1)))) {
        this.pos += o.length;
        this.wsNl();
        return o;
      }
    }
    this.pos = save;
    return undefined;
  }

  private additive(): Expr {
    let l = this.multiplicative();
    for (let op = this.symbolOp(['+', '-']); op; op = this.symbolOp(['+', '-'])) l = { k: 'bin', op, l, r: this.multiplicative() };
    return l;
  }

  private multiplicative(): Expr {
    let l = this.format();
    for (let op = this.symbolOp(['*', '/', '%']); op; op = this.symbolOp(['*', '/', '%'])) l = { k: 'bin', op, l, r: this.format() };
    return l;
  }

  private format(): Expr {
    let l = this.range();
    for (let op = this.opWord(new Set(['f'])); op; op = this.opWord(new Set(['f']))) l = { k: 'bin', op, l, r: this.range() };
    return l;
  }

  private range(): Expr {
    const l = this.notExpr();
    const save = this.pos;
    this.ws();
    if (this.s.startsWith('..', this.pos)) {
      this.pos += 2;
      this.wsNl();
      return { k: 'bin', op: '..', l, r: this.notExpr() };
    }
    this.pos = save;
    return l;
  }

  private notExpr(): Expr {
    this.ws();
    if (this.ch() === '!') {
      this.pos++;
      this.ws();
      return { k: 'unary', op: 'not', e: this.notExpr() };
    }
    if (/^-not\b/i.test(this.s.slice(this.pos))) {
      this.pos += 4;
      this.ws();
      return { k: 'unary', op: 'not', e: this.notExpr() };
    }
    return this.comma();
  }

  private comma(): Expr {
    const items = [this.unary()];
    if (this.noComma) return items[0]!;
    for (;;) {
      const save = this.pos;
      this.ws();
      if (this.ch() !== ',') {
        this.pos = save;
        break;
      }
      this.pos++;
      this.wsNl();
      items.push(this.unary());
    }
    return items.length === 1 ? items[0]! : { k: 'array', items };
  }

  private unary(): Expr {
    this.ws();
    const c = this.ch();
    if (c === '-' && !/[A-Za-z]/.test(this.ch(1))) {
      this.pos++;
      return { k: 'unary', op: '-', e: this.unary() };
    }
    if (c === '+' && /[\d$(]/.test(this.ch(1))) {
      this.pos++;
      return this.unary();
    }
    if (c === '-' && /^-(split|join)\b/i.test(this.s.slice(this.pos))) {
      const op = this.s.slice(this.pos + 1, this.pos + 5).toLowerCase();
      this.pos += 5;
      this.ws();
      return { k: 'unary', op, e: this.unary() };
    }
    if (c === '[') return this.postfix(this.castOrType());
    return this.postfix(this.primary());
  }

  private typeName(): string {
    // "[System.Net.Dns]", "[byte[]]"
    let depth = 0;
    const start = this.pos;
    do {
      const c = this.ch();
      if (c === '') this.err("Missing ']'.");
      if (c === '[') depth++;
      if (c === ']') depth--;
      this.pos++;
    } while (depth > 0);
    return this.s.slice(start + 1, this.pos - 1).trim();
  }

  private castOrType(): Expr {
    const name = this.typeName();
    if (this.s.startsWith('::', this.pos)) return { k: 'type', name };
    const c = this.ch();
    if (c === '$' || c === '(' || c === '@' || c === '"' || c === "'" || /\d/.test(c) || c === '[') {
      return { k: 'cast', type: name, e: this.unary() };
    }
    return { k: 'type', name };
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      const c = this.ch();
      if (c === '.' && this.ch(1) !== '.' && /[A-Za-z_]/.test(this.ch(1))) {
        this.pos++;
        e = this.member(e, false);
        continue;
      }
      if (c === ':' && this.ch(1) === ':') {
        this.pos += 2;
        e = this.member(e, true);
        continue;
      }
      if (c === '[') {
        this.pos++;
        this.wsNl();
        const idx = this.expression();
        this.expect(']');
        e = { k: 'index', obj: e, idx };
        continue;
      }
      return e;
    }
  }

  private member(obj: Expr, isStatic: boolean): Expr {
    const start = this.pos;
    const name = this.word();
    if (!name) this.err('Missing property name after reference operator.');
    this.pos += name.length;
    if (this.ch() === '(') {
      this.pos++;
      const args: Expr[] = [];
      this.wsNl();
      if (this.ch() !== ')') {
        for (;;) {
          args.push(this.nested(true, () => this.expression()));
          this.wsNl();
          if (this.ch() === ',') {
            this.pos++;
            this.wsNl();
            continue;
          }
          break;
        }
      }
      this.expect(')');
      return { k: 'call', obj, name, args, static: isStatic, start, end: this.pos };
    }
    return { k: 'member', obj, name, static: isStatic };
  }

  /** Parses with the comma rule set (method args) or reset (parentheses, blocks, sub-expressions). */
  private nested<T>(noComma: boolean, f: () => T): T {
    const saved = this.noComma;
    this.noComma = noComma;
    try {
      return f();
    } finally {
      this.noComma = saved;
    }
  }

  private primary(): Expr {
    this.ws();
    const c = this.ch();
    if (c === '$') return this.variableOrSub();
    if (c === "'") return this.singleQuoted();
    if (c === '"') return this.doubleQuoted();
    if (c === '(') {
      this.pos++;
      this.wsNl();
      const pipe = this.nested(false, () => this.pipeline());
      this.expect(')');
      return { k: 'paren', pipe };
    }
    if (c === '@' && this.ch(1) === '(') {
      this.pos += 2;
      const body = this.nested(false, () => this.statements(')'));
      this.expect(')');
      return { k: 'arrayexpr', body };
    }
    if (c === '@' && this.ch(1) === '{') {
      this.pos += 2;
      return this.hash();
    }
    if (c === '{') {
      const start = this.pos + 1;
      const body = this.nested(false, () => this.block());
      return { k: 'block', body, src: this.s.slice(start, this.pos - 1) };
    }
    const num = /^(0x[0-9a-f]+|\d+(?:\.\d+)?)(kb|mb|gb)?(?![\w])/i.exec(this.s.slice(this.pos));
    if (num) {
      this.pos += num[0].length;
      return { k: 'num', v: Number(num[1]) * multiplier(num[2]) };
    }
    return this.err(`Unexpected token '${this.s.slice(this.pos).split(/\s/)[0]}' in expression or statement.`);
  }

  private hash(): Expr {
    const entries: [string, Expr][] = [];
    for (;;) {
      this.wsNl();
      while (this.ch() === ';') {
        this.pos++;
        this.wsNl();
      }
      if (this.ch() === '}') {
        this.pos++;
        return { k: 'hash', entries };
      }
      let key: string;
      if (this.ch() === "'" || this.ch() === '"') {
        const k = this.primary();
        key = k.k === 'str' ? k.v : '';
      } else {
        const m = /^[\w-]+/.exec(this.s.slice(this.pos));
        if (!m) this.err('Missing key in hash literal.');
        key = m[0];
        this.pos += key.length;
      }
      this.expect('=');
      this.wsNl();
      // Hash values are statements: `@{ Ok = Test-Path $p }` runs a command.
      entries.push([key, { k: 'paren', pipe: this.pipeline() }]);
    }
  }

  private variableOrSub(): Expr {
    this.pos++; // $
    const c = this.ch();
    if (c === '(') {
      this.pos++;
      const body = this.nested(false, () => this.statements(')'));
      this.expect(')');
      return { k: 'subexpr', body };
    }
    if (c === '{') {
      const e = this.s.indexOf('}', this.pos);
      const name = this.s.slice(this.pos + 1, e);
      this.pos = e + 1;
      return { k: 'var', name };
    }
    if (c === '?' || (c === '_' && !/\w/.test(this.ch(1))) || c === '$' || c === '^') {
      this.pos++;
      return { k: 'var', name: c };
    }
    const m = /^(?:(env|global|script|local|using):)?[\w]+/i.exec(this.s.slice(this.pos));
    if (!m) return { k: 'str', v: '$' };
    this.pos += m[0].length;
    return { k: 'var', name: m[0] };
  }

  private singleQuoted(): Expr {
    this.pos++;
    let v = '';
    for (;;) {
      const c = this.ch();
      if (c === '') this.err("The string is missing the terminator: '.");
      if (c === "'" && this.ch(1) === "'") {
        v += "'";
        this.pos += 2;
        continue;
      }
      if (c === "'") {
        this.pos++;
        return { k: 'str', v };
      }
      v += c;
      this.pos++;
    }
  }

  private doubleQuoted(): Expr {
    this.pos++;
    const parts: (string | Expr)[] = [];
    let lit = '';
    const esc: Record<string, string> = { n: '\n', r: '\r', t: '\t', '0': '\0', a: '\x07', b: '\b', f: '\f', v: '\v', e: '\x1b' };
    for (;;) {
      const c = this.ch();
      if (c === '') this.err('The string is missing the terminator: ".');
      if (c === '`') {
        const n = this.ch(1);
        lit += esc[n] ?? n;
        this.pos += 2;
        continue;
      }
      if (c === '"' && this.ch(1) === '"') {
        lit += '"';
        this.pos += 2;
        continue;
      }
      if (c === '"') {
        this.pos++;
        break;
      }
      if (c === '$' && /[\w({?_]/.test(this.ch(1))) {
        if (lit) {
          parts.push(lit);
          lit = '';
        }
        // Only $name, ${name}, $env:X and $(...) expand; "$x.Prop" keeps ".Prop" literal.
        parts.push(this.variableOrSub());
        continue;
      }
      lit += c;
      this.pos++;
    }
    if (lit || parts.length === 0) parts.push(lit);
    return parts.length === 1 && typeof parts[0] === 'string' ? { k: 'str', v: parts[0] } : { k: 'xstr', parts };
  }
}

function multiplier(suffix: string | undefined): number {
  switch ((suffix ?? '').toLowerCase()) {
    case 'kb':
      return 1024;
    case 'mb':
      return 1024 ** 2;
    case 'gb':
      return 1024 ** 3;
    default:
      return 1;
  }
}
