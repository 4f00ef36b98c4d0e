// Several native-program probes on one Windows node in one exec session: a PowerShell script runs
// them one after another and prints, after each, a marker line with its exit code
// ($LASTEXITCODE), so each op still gets its own output, exit code, verdict and evidence. On 100
// nodes three `sc.exe queryex` per node were 300 exec requests; batched they are 100. Anything the
// script cannot tell apart (a missing marker) is run again on its own.

import { interpret } from '../../probes/interpret.ts';
import { commandLine, renderProbe } from '../../probes/render.ts';
import type { ProbeOp, ProbeResult, Transport } from '../../probes/types.ts';
import type { CheckContext } from '../types.ts';

const MARK = '@@wincheck-end';
/** Arguments that need no quoting in PowerShell or cmd. */
const PLAIN = /^[\w.:\\/-]+$/;

/** The PowerShell script running the ops' argvs in turn, each followed by its marker; undefined when one cannot be batched. */
export function batchScript(argvs: string[][]): string | undefined {
  if (!argvs.every(a => a.length > 0 && /\.exe$/i.test(a[0]) && a.every(x => PLAIN.test(x)))) return undefined;
  return argvs.map((a, i) => `${a.join(' ')}; "${MARK} ${i} $LASTEXITCODE"`).join('; ');
}

/** The script's stdout cut at its markers: each op's stdout and exit code, in order (fewer when a marker is missing). */
export function splitBatch(stdout: string, count: number): { stdout: string; exitCode: number }[] {
  const out: { stdout: string; exitCode: number }[] = [];
  let rest = stdout;
  for (let i = 0; i < count; i++) {
    const m = new RegExp(`^${MARK} ${i} (-?\\d+)\\r?$`, 'm').exec(rest);
    if (!m) break;
    out.push({ stdout: rest.slice(0, m.index), exitCode: Number(m[1]) });
    rest = rest.slice(m.index + m[0].length).replace(/^\r?\n/, '');
  }
  return out;
}

/** Runs the ops on the node's transport: in one session where they batch, else one by one; results in the ops' order. */
export async function probeBatch(ctx: CheckContext, t: Transport, ops: ProbeOp[]): Promise<ProbeResult[]> {
  const argvs = ops.map(op => renderProbe(op, t.os));
  const script = t.os === 'windows' && ops.length > 1 ? batchScript(argvs) : undefined;
  if (!script) return Promise.all(ops.map(op => ctx.probe(t, op)));
  const whole = await ctx.probe(t, { kind: 'raw', argv: ['powershell', '-NoProfile', '-Command', script] });
  const parts = splitBatch(whole.evidence.stdout, ops.length);
  const results = parts.map((p, i): ProbeResult => {
    // stderr cannot be told apart per op: each keeps the whole (sc.exe writes its errors to stdout).
    const r = { stdout: p.stdout, stderr: whole.evidence.stderr, exitCode: p.exitCode };
    const verdict = interpret(ops[i], t.os, r);
    return { op: ops[i].kind, ok: verdict.ok, detail: verdict.detail, evidence: { ...whole.evidence, command: commandLine(argvs[i]), ...r } };
  });
  for (const op of ops.slice(parts.length)) results.push(await ctx.probe(t, op));
  return results;
}
