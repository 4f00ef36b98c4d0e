// File checks that must not record what they read: a file's content is compared here, in the
// harness, and the evidence keeps only "matches" / "does not match" (Secret volumes, Secret
// files on a node's disk). Same rule as read-env with `expect` in lib/probes/runProbe.ts.

import type { CheckContext } from '../types.ts';
import { commandLine, renderProbe } from '../../probes/render.ts';
import type { ProbeResult, Transport } from '../../probes/types.ts';

/** Reads `path` over `t` and compares its content (one trailing line ending ignored) with `expected`. */
export async function fileMatches(ctx: Pick<CheckContext, 'options' | 'signal'>, t: Transport, path: string, expected: string): Promise<ProbeResult> {
  const argv = renderProbe({ kind: 'read-file', path }, t.os);
  const started = Date.now();
  const r = await t.run(argv, { timeoutMs: ctx.options.timeouts.exec, signal: ctx.signal });
  const content = r.stdout.replace(/\r?\n$/, '');
  const readable = r.exitCode === 0;
  const ok = readable && content === expected;
  const detail = !readable
    ? `${path} could not be read (exit ${r.exitCode}${r.stderr.trim() ? `: ${r.stderr.trim().split(/\r?\n/)[0]}` : ''})`
    : ok
      ? `${path} has the expected content`
      : `${path} differs from the expected content`;
  return {
    op: 'read-file',
    ok,
    detail,
    evidence: {
      transport: t.description,
      command: commandLine(argv),
      exitCode: r.exitCode,
      stdout: readable ? `<content not recorded: ${ok ? 'matches' : 'does not match'} the expected value>` : '',
      stderr: r.stderr,
      durationMs: Date.now() - started,
    },
  };
}

/**
 * A write refused by Windows: `cmd /c echo x> file` on a read-only mount prints exactly
 * "Access is denied." on stderr, and a failed redirection may leave the exit code at 0
 * (docs/windows-commands.md §1), so the message is what counts, not the exit code.
 */
export function accessDenied(r: ProbeResult): boolean {
  return /Access is denied\./i.test(r.evidence.stderr) || /Read-only file system|Permission denied/i.test(r.evidence.stderr);
}
