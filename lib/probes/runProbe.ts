// Runs a typed op over a transport and returns its verdict with evidence. Secret values are
// compared here and never leave: read-env with `secret` keeps only "matches"/"differs".

import type { Redactor } from '../fixtures/secrets.ts';
import { interpret } from './interpret.ts';
import { commandLine, renderProbe } from './render.ts';
import type { ProbeOp, ProbeResult, Transport } from './types.ts';

export async function runProbe(
  transport: Transport,
  op: ProbeOp,
  redactor: Redactor,
  opts: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ProbeResult> {
  const argv = renderProbe(op, transport.os);
  const started = Date.now();
  const result = await transport.run(argv, opts);
  const verdict = interpret(op, transport.os, result);
  const hideValue = op.kind === 'read-env' && op.secret;
  const stdout = hideValue ? `<value not recorded: ${verdict.ok ? 'matches' : 'does not match'} the expected value>` : result.stdout;
  return {
    op: op.kind,
    ok: verdict.ok,
    detail: redactor.redact(verdict.detail),
    evidence: {
      transport: transport.description,
      command: redactor.redact(commandLine(op.kind === 'write-file' && op.content ? argv.map(a => a.split(op.content).join('<content>')) : argv)),
      exitCode: result.exitCode,
      stdout: redactor.redact(stdout),
      stderr: redactor.redact(result.stderr),
      durationMs: Date.now() - started,
    },
  };
}
