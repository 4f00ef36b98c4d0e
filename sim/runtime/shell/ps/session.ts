// What cmdlets and .NET members see of the running script: the host, its streams and
// environment, the current directory, and the interpreter's few services they call back into.
// interp.ts implements it; cmdlets.ts and members.ts take it, so neither imports the interpreter.

import type { ShellHost, ShellIO, Spawn } from '../types.ts';
import type { Edition } from './errors.ts';
import type { PSValue, ScriptBlock } from './values.ts';

export interface PsSession {
  readonly host: ShellHost;
  readonly io: ShellIO;
  readonly env: Record<string, string>;
  readonly edition: Edition;
  readonly spawn: Spawn;
  /** Aborted when the script ends (or its caller stops it). */
  readonly signal: AbortSignal;
  cwd: string;
  getVar(name: string): PSValue;
  setVar(name: string, v: PSValue): void;
  /** Writes values to stdout as the host formats them. */
  emit(values: PSValue[]): void;
  /** Runs a script block with $_ bound; returns its output. */
  invokeBlock(sb: ScriptBlock, dollar: PSValue | undefined, input?: PSValue[], args?: PSValue[]): Promise<PSValue[]>;
  /** A binary operator (-eq, -f, -like …) as the interpreter evaluates it. */
  binary(op: string, l: PSValue, r: PSValue): Promise<PSValue>;
}
