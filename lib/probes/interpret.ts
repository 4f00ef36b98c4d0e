// Each op's verdict from what came back. Quirks from docs/windows-commands.md: nslookup can exit 0
// on failure (readers/nslookup.ts); ping's exit code is unreliable on Windows; an unset %VAR% echoes itself.

import type { ProbeOp, ProbeOS } from './types.ts';
import type { CommandResult } from '../cluster/exec.ts';
import { nslookupAnswer } from './readers/nslookup.ts';

export interface Verdict {
  ok: boolean;
  detail: string;
}

export function interpret(op: ProbeOp, os: ProbeOS, r: CommandResult): Verdict {
  const exited = `exit ${r.exitCode}`;
  switch (op.kind) {
    case 'dns-lookup': {
      const a = nslookupAnswer(r.exitCode, r.stdout, r.stderr);
      return a.resolved ? { ok: true, detail: `${op.name} resolved` } : { ok: false, detail: `${op.name} did not resolve (${a.why})` };
    }
    case 'ping': {
      const replied = /TTL=|bytes from/i.test(r.stdout);
      return { ok: replied, detail: replied ? `reply from ${op.host}` : `no reply from ${op.host} (${exited})` };
    }
    case 'read-env': {
      const value = envValue(r.stdout);
      const unset = r.exitCode !== 0 || (os === 'windows' && (value === `%${op.name}%` || value === 'ECHO is on.'));
      if (unset) return { ok: false, detail: `${op.name} is not set (${exited})` };
      if (op.expect === undefined) return { ok: true, detail: `${op.name} is set` };
      return value === op.expect
        ? { ok: true, detail: `${op.name} has the expected value` }
        : { ok: false, detail: `${op.name} differs from the expected value` };
    }
    default:
      return r.exitCode === 0
        ? { ok: true, detail: `${op.kind} succeeded` }
        : { ok: false, detail: `${op.kind} failed (${exited}${r.stderr.trim() ? `: ${firstLine(r.stderr)}` : ''})` };
  }
}

/** echo/printenv output without the line ending (CRLF on Windows). */
export function envValue(stdout: string): string {
  return stdout.replace(/\r?\n$/, '').replace(/\r$/, '');
}

function firstLine(s: string): string {
  return s.trim().split(/\r?\n/)[0].slice(0, 200);
}
