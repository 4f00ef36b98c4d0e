// The shape of a cmdlet: its parameters, and the call it runs with (bound arguments, the
// pipeline input, the session). Both cmdlet tables (cmdlets.ts, netcmdlets.ts) and the
// interpreter use it.

import type { ShellHost, ShellIO } from '../types.ts';
import type { ErrorInfo, StatementError } from './errors.ts';
import type { PsSession } from './session.ts';
import type { PSValue } from './values.ts';

export type ArgToken = { kind: 'named'; name: string; value: PSValue | undefined; attached: boolean } | { kind: 'pos'; value: PSValue };
export type Bound = Record<string, PSValue | undefined>;
export type ErrorParts = Omit<ErrorInfo, 'start' | 'end'> | (Partial<ErrorInfo> & { message: string; category: string; reason: string; fqid: string });

export interface CmdletCall {
  interp: PsSession;
  host: ShellHost;
  io: ShellIO;
  input: PSValue[];
  hadInput: boolean;
  bound: Bound;
  name: string;
  /** Writes a non-terminating error (sets $? to false). */
  error(info: ErrorParts): void;
  /** Builds a statement-terminating error to throw. */
  fail(info: ErrorParts): StatementError;
  start: number;
  end: number;
}

export interface CmdletSpec {
  name: string;
  /** Value parameters; "Name|Alias|Alias" gives aliases. */
  params?: string[];
  switches?: string[];
  positional?: string[];
  /** Extra positional arguments are collected into bound.__rest instead of failing. */
  rest?: boolean;
  /** Only present when the host has the module (node views). */
  available?: (host: ShellHost) => boolean;
  run(c: CmdletCall): Promise<PSValue[]>;
}
