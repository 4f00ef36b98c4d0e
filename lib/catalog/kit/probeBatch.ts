// Several native-program probes on one Windows node in one exec session: a PowerShell script runs
// them one after another and prints, after each, a marker line with its exit code
// ($LASTEXITCODE), so each op still gets its own output, exit code, verdict and evidence. On 100
// nodes three `sc.exe queryex` per node were 300 exec requests; batched they are 100. A PowerShell
// op (`powershell -NoProfile -Command <script>`) goes in as its script, its marker carrying 1 when
// its last statement failed ($? false), as powershell.exe's own exit code would. Anything the
// script cannot tell apart (a missing marker) is run again on its own.

import { interpret } from '../../probes/interpret.ts';
import { commandLine, renderProbe } from '../../probes/render.ts';
import type { ProbeOp, ProbeResult, Transport } from '../../probes/types.ts';
import type { CheckContext } from '../types.ts';

const MARK = '@@wincheck-end';
/** Arguments that need no quoting in PowerShell or cmd. */
const PLAIN = /^[\w.:\\/-]+$/;

/** One op's statement(s) and its marker in the batch; undefined when it cannot be batched. */
function batchPart(a: string[], i: number): string | undefined {
  // A script of ours, run as powershell.exe -Command runs it (its exit code: 1 when the last statement failed).
  if (a.length === 4 && /^powershell(\.exe)?$/i.test(a[0]) && /^-noprofile$/i.test(a[1]) && /^-command$/i.test(a[2]))
    return `${a[3]}; "${MARK} ${i} $([int](-not $?))"`;
  // A native program with plain arguments; a bare name runs as <name>.exe (an alias such as sc = Set-Content must not catch it).
  if (a.length === 0 || !a.every(x => PLAIN.test(x)) || !/^\w+(\.exe)?$/i.test(a[0])) return undefined;
  const exe = /\.exe$/i.test(a[0]) ? a[0] : `${a[0]}.exe`;
  return `${[exe, ...a.slice(1)].join(' ')}; "${MARK} ${i} $LASTEXITCODE"`;
}

/** The PowerShell script running the ops' argvs in turn, each followed by its marker; undefined when one cannot be batched. */
export function batchScript(argvs: string[][]): string | undefined {
  const parts = argvs.map(batchPart);
  return parts.every(p => p !== undefined) ? parts.join('; ') : undefined;
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
    // stderr cannot be told apart per op: each keeps the whole (sc.exe writes its errors to stdout;
    // PowerShell's error records go to stderr, so a reader of one op's stderr must look for its own words).
    const r = { stdout: p.stdout, stderr: whole.evidence.stderr, exitCode: p.exitCode };
    const verdict = interpret(ops[i], t.os, r);
    return { op: ops[i].kind, ok: verdict.ok, detail: verdict.detail, evidence: { ...whole.evidence, command: commandLine(argvs[i]), ...r } };
  });
  for (const op of ops.slice(parts.length)) results.push(await ctx.probe(t, op));
  return results;
}
