// Tokenizer and parser for the sh subset (see sh.ts).

export type WordPart =
  | { kind: 'lit'; s: string; quoted: boolean }
  | { kind: 'var'; name: string; quoted: boolean; op?: ':-' | '-' | '#'; arg?: Word }
  | { kind: 'cmdsub'; src: string; quoted: boolean };
export type Word = WordPart[];

export interface Redir {
  fd: 1 | 2 | 0;
  op: '>' | '<' | '>&';
  append: boolean;
  target: Word;
}

export type ShNode =
  | { k: 'list'; items: ShNode[] }
  | { k: 'andor'; first: ShNode; rest: ['&&' | '||', ShNode][] }
  | { k: 'pipe'; cmds: ShNode[]; neg: boolean }
  | { k: 'simple'; words: Word[]; assigns: [string, Word][]; redirs: Redir[] }
  | { k: 'if'; clauses: [ShNode, ShNode][]; else?: ShNode }
  | { k: 'while'; cond: ShNode; body: ShNode; until: boolean }
  | { k: 'for'; name: string; words: Word[]; body: ShNode }
  | { k: 'group'; body: ShNode; subshell: boolean };

export type Token = { t: 'word'; w: Word; raw: string } | { t: 'op'; v: string } | { t: 'redir'; fd: 0 | 1 | 2; op: '>' | '>>' | '<' | '>&' };

function readVar(src: string, i: number, quoted: boolean): { part: WordPart; end: number } | undefined {
  const c = src[i + 1];
  if (c === '{') {
    const close = src.indexOf('}', i + 2);
    if (close < 0) throw new Error('missing }');
    const body = src.slice(i + 2, close);
    if (body.startsWith('#')) return { part: { kind: 'var', name: body.slice(1), quoted, op: '#' }, end: close + 1 };
    const m = /^([A-Za-z_][\w]*|[?$#0-9])(:-|-)?(.*)$/s.exec(body);
    if (!m) throw new Error(`bad substitution`);
    const op = m[2] as ':-' | '-' | undefined;
    return { part: { kind: 'var', name: m[1]!, quoted, op, arg: op ? [{ kind: 'lit', s: m[3]!, quoted: true }] : undefined }, end: close + 1 };
  }
  if (c === '(') {
    let depth = 1;
    let j = i + 2;
    for (; j < src.length && depth > 0; j++) {
      if (src[j] === '(') depth++;
      else if (src[j] === ')') depth--;
    }
    return { part: { kind: 'cmdsub', src: src.slice(i + 2, j - 1), quoted }, end: j };
  }
  const m = /^([A-Za-z_]\w*|[?$#0-9])/.exec(src.slice(i + 1));
  if (!m) return undefined;
  return { part: { kind: 'var', name: m[1]!, quoted }, end: i + 1 + m[1]!.length };
}

export function tokenize(src: string): Token[] {
  const toks: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === ' ' || ch === '\t') {
      i++;
      continue;
    }
    if (ch === '\\' && src[i + 1] === '\n') {
      i += 2;
      continue;
    }
    if (ch === '#') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (ch === '\n' || ch === ';') {
      toks.push({ t: 'op', v: ';' });
      i++;
      continue;
    }
    if (src.startsWith('&&', i) || src.startsWith('||', i)) {
      toks.push({ t: 'op', v: src.slice(i, i + 2) });
      i += 2;
      continue;
    }
    if (ch === '&') {
      toks.push({ t: 'op', v: ';' });
      i++;
      continue;
    }
    if (ch === '|' || ch === '(' || ch === ')') {
      toks.push({ t: 'op', v: ch });
      i++;
      continue;
    }
    if (ch === '>' || ch === '<' || (/[012]/.test(ch) && (src[i + 1] === '>' || src[i + 1] === '<'))) {
      let fd: 0 | 1 | 2 = ch === '<' ? 0 : 1;
      if (/[012]/.test(ch)) {
        fd = Number(ch) as 0 | 1 | 2;
        i++;
      }
      const c = src[i]!;
      if (c === '<') {
        toks.push({ t: 'redir', fd: 0, op: '<' });
        i++;
        continue;
      }
      if (src[i + 1] === '>') {
        toks.push({ t: 'redir', fd, op: '>>' });
        i += 2;
        continue;
      }
      if (src[i + 1] === '&') {
        toks.push({ t: 'redir', fd, op: '>&' });
        i += 2;
        continue;
      }
      toks.push({ t: 'redir', fd, op: '>' });
      i++;
      continue;
    }
    // A word: runs of unquoted, single-quoted and double-quoted text.
    const w: Word = [];
    const start = i;
    let lit = '';
    const flush = (quoted: boolean): void => {
      if (lit) {
        w.push({ kind: 'lit', s: lit, quoted });
        lit = '';
      }
    };
    while (i < src.length && !/[\s;&|()<>]/.test(src[i]!)) {
      const c = src[i]!;
      if (c === "'") {
        flush(false);
        const e = src.indexOf("'", i + 1);
        if (e < 0) throw new Error('unterminated quoted string');
        w.push({ kind: 'lit', s: src.slice(i + 1, e), quoted: true });
        i = e + 1;
        continue;
      }
      if (c === '"') {
        flush(false);
        i++;
        let q = '';
        let closed = false;
        while (i < src.length) {
          const d = src[i]!;
          if (d === '"') {
            closed = true;
            i++;
            break;
          }
          if (d === '\\' && /["\\$`\n]/.test(src[i + 1] ?? '')) {
            q += src[i + 1];
            i += 2;
            continue;
          }
          if (d === '$') {
            const v = readVar(src, i, true);
            if (v) {
              if (q) {
                w.push({ kind: 'lit', s: q, quoted: true });
                q = '';
              }
              w.push(v.part);
              i = v.end;
              continue;
            }
          }
          q += d;
          i++;
        }
        if (!closed) throw new Error('unterminated quoted string');
        w.push({ kind: 'lit', s: q, quoted: true });
        continue;
      }
      if (c === '\\') {
        lit += src[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (c === '$') {
        const v = readVar(src, i, false);
        if (v) {
          flush(false);
          w.push(v.part);
          i = v.end;
          continue;
        }
      }
      lit += c;
      i++;
    }
    flush(false);
    toks.push({ t: 'word', w, raw: src.slice(start, i) });
  }
  return toks;
}

const RESERVED = new Set(['then', 'elif', 'else', 'fi', 'do', 'done', '}']);

export class Parser {
  private i = 0;
  constructor(private toks: Token[]) {}

  parseProgram(): ShNode {
    const n = this.list(new Set());
    if (this.i < this.toks.length) throw new Error(`unexpected ${this.describe()}`);
    return n;
  }

  private describe(): string {
    const t = this.toks[this.i];
    return !t ? 'end of file' : t.t === 'word' ? t.raw : t.t === 'op' ? t.v : 'redirection';
  }

  private peekWord(): string | undefined {
    const t = this.toks[this.i];
    return t?.t === 'word' ? t.raw : undefined;
  }

  private isOp(v: string): boolean {
    const t = this.toks[this.i];
    return t?.t === 'op' && t.v === v;
  }

  private expectWord(w: string): void {
    if (this.peekWord() !== w) throw new Error(`expected ${w}, got ${this.describe()}`);
    this.i++;
  }

  private list(stops: Set<string>): ShNode {
    const items: ShNode[] = [];
    for (;;) {
      while (this.isOp(';')) this.i++;
      if (this.i >= this.toks.length || this.isOp(')')) break;
      const w = this.peekWord();
      if (w !== undefined && (stops.has(w) || RESERVED.has(w))) break;
      items.push(this.andOr());
    }
    return { k: 'list', items };
  }

  private andOr(): ShNode {
    const first = this.pipeline();
    const rest: ['&&' | '||', ShNode][] = [];
    while (this.isOp('&&') || this.isOp('||')) {
      const op = (this.toks[this.i++] as { v: '&&' | '||' }).v;
      while (this.isOp(';')) this.i++;
      rest.push([op, this.pipeline()]);
    }
    return rest.length ? { k: 'andor', first, rest } : first;
  }

  private pipeline(): ShNode {
    let neg = false;
    if (this.peekWord() === '!') {
      neg = true;
      this.i++;
    }
    const cmds = [this.command()];
    while (this.isOp('|')) {
      this.i++;
      cmds.push(this.command());
    }
    return { k: 'pipe', cmds, neg };
  }

  private command(): ShNode {
    const w = this.peekWord();
    if (this.isOp('(')) {
      this.i++;
      const body = this.list(new Set());
      if (!this.isOp(')')) throw new Error('expected )');
      this.i++;
      return { k: 'group', body, subshell: true };
    }
    if (w === '{') {
      this.i++;
      const body = this.list(new Set(['}']));
      this.expectWord('}');
      return { k: 'group', body, subshell: false };
    }
    if (w === 'if') {
      this.i++;
      const clauses: [ShNode, ShNode][] = [];
      let els: ShNode | undefined;
      for (;;) {
        const cond = this.list(new Set(['then']));
        this.expectWord('then');
        const body = this.list(new Set(['elif', 'else', 'fi']));
        clauses.push([cond, body]);
        const next = this.peekWord();
        this.i++;
        if (next === 'elif') continue;
        if (next === 'else') {
          els = this.list(new Set(['fi']));
          this.expectWord('fi');
        } else if (next !== 'fi') throw new Error('expected fi');
        break;
      }
      return { k: 'if', clauses, else: els };
    }
    if (w === 'while' || w === 'until') {
      this.i++;
      const cond = this.list(new Set(['do']));
      this.expectWord('do');
      const body = this.list(new Set(['done']));
      this.expectWord('done');
      return { k: 'while', cond, body, until: w === 'until' };
    }
    if (w === 'for') {
      this.i++;
      const name = this.peekWord();
      if (!name) throw new Error('expected a name after for');
      this.i++;
      const words: Word[] = [];
      if (this.peekWord() === 'in') {
        this.i++;
        while (this.toks[this.i]?.t === 'word' && this.peekWord() !== 'do') words.push((this.toks[this.i++] as { w: Word }).w);
      }
      while (this.isOp(';')) this.i++;
      this.expectWord('do');
      const body = this.list(new Set(['done']));
      this.expectWord('done');
      return { k: 'for', name, words, body };
    }
    return this.simple();
  }

  private simple(): ShNode {
    const words: Word[] = [];
    const assigns: [string, Word][] = [];
    const redirs: Redir[] = [];
    for (;;) {
      const t = this.toks[this.i];
      if (!t || t.t === 'op') break;
      if (t.t === 'redir') {
        this.i++;
        const target = this.toks[this.i++];
        if (!target || target.t !== 'word') throw new Error('missing redirection target');
        redirs.push({ fd: t.fd, op: t.op === '>>' ? '>' : t.op, append: t.op === '>>', target: target.w });
        continue;
      }
      const m = /^([A-Za-z_]\w*)=/.exec(t.raw);
      if (words.length === 0 && m && t.w[0]?.kind === 'lit' && !t.w[0].quoted) {
        const first = t.w[0];
        const rest: Word = [{ kind: 'lit', s: first.s.slice(m[0].length), quoted: false }, ...t.w.slice(1)];
        assigns.push([m[1]!, rest]);
        this.i++;
        continue;
      }
      words.push(t.w);
      this.i++;
    }
    if (words.length === 0 && assigns.length === 0 && redirs.length === 0) throw new Error(`unexpected ${this.describe()}`);
    return { k: 'simple', words, assigns, redirs };
  }
}
