// The PowerShell subset's syntax tree. Offsets (start/end) point into the script
// text so error records can show "At line:1 char:N" and the underline.

export type Expr =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 'xstr'; parts: (string | Expr)[] }
  | { k: 'var'; name: string }
  | { k: 'array'; items: Expr[] }
  | { k: 'arrayexpr'; body: Stmt[] }
  | { k: 'subexpr'; body: Stmt[] }
  | { k: 'paren'; pipe: Pipeline }
  | { k: 'hash'; entries: [string, Expr][] }
  | { k: 'block'; body: Stmt[]; src: string }
  | { k: 'type'; name: string }
  | { k: 'bin'; op: string; l: Expr; r: Expr }
  | { k: 'unary'; op: string; e: Expr }
  | { k: 'cast'; type: string; e: Expr }
  | { k: 'member'; obj: Expr; name: string; static: boolean }
  | { k: 'call'; obj: Expr; name: string; args: Expr[]; static: boolean; start: number; end: number }
  | { k: 'index'; obj: Expr; idx: Expr };

export type CmdArg = { k: 'param'; name: string; value?: Expr } | { k: 'arg'; e: Expr };

export interface Redirection {
  stream: '1' | '2' | '*';
  target: Expr | '&1';
  append: boolean;
}

export type Element = { k: 'command'; name: string | Expr; args: CmdArg[]; start: number; end: number } | { k: 'expr'; e: Expr; start: number; end: number };

export interface Pipeline {
  elems: Element[];
  redirs: Redirection[];
  start: number;
  end: number;
}

export type Stmt =
  | { k: 'pipe'; p: Pipeline; start: number; end: number }
  | { k: 'assign'; target: Expr; op: string; value: Stmt; start: number; end: number }
  | { k: 'if'; clauses: [Pipeline, Stmt[]][]; else?: Stmt[]; start: number; end: number }
  | { k: 'switch'; flags: string[]; subject: Pipeline; clauses: { test: Expr | 'default'; body: Stmt[] }[]; start: number; end: number }
  | { k: 'while'; cond: Pipeline; body: Stmt[]; start: number; end: number }
  | { k: 'do'; body: Stmt[]; cond: Pipeline; until: boolean; start: number; end: number }
  | { k: 'for'; init?: Stmt; cond?: Pipeline; step?: Stmt; body: Stmt[]; start: number; end: number }
  | { k: 'foreach'; name: string; coll: Pipeline; body: Stmt[]; start: number; end: number }
  | { k: 'try'; body: Stmt[]; catch?: Stmt[]; finally?: Stmt[]; start: number; end: number }
  | { k: 'throw'; e?: Pipeline; start: number; end: number }
  | { k: 'exit'; e?: Pipeline; start: number; end: number }
  | { k: 'return'; e?: Pipeline; start: number; end: number }
  | { k: 'break'; start: number; end: number }
  | { k: 'continue'; start: number; end: number }
  | { k: 'function'; name: string; body: Stmt[]; start: number; end: number };
