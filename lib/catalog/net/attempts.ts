// One attempt on a network path (an HTTP GET, a TCP connect) as warmupThenSteady counts it.

import { clientIpOf, curlFailureOf } from './parse.ts';
import { type Attempt, timingsOf } from './steady.ts';
import type { CheckContext } from '../types.ts';
import type { ProbeOp, Transport } from '../../probes/types.ts';

/** One HTTP GET through a pod or node transport (curl.exe on Windows, curl on Linux). */
export async function httpAttempt(ctx: CheckContext, t: Transport, url: string): Promise<Attempt> {
  const op: ProbeOp = { kind: 'http-get', url, connectTimeoutSec: timingsOf(ctx.options.timeouts).connectTimeoutSec };
  const r = await ctx.probe(t, op);
  const detail = r.ok
    ? `GET ${url}: ${oneLine(r.evidence.stdout) || 'ok'}`
    : `GET ${url} failed: ${curlFailureOf(r.evidence.exitCode, r.evidence.stderr).message}`;
  return { ok: r.ok, detail, evidence: r.evidence };
}

/** One TCP connect (Linux: nc -vz, the upstream Linux probe). */
export async function tcpAttempt(ctx: CheckContext, t: Transport, host: string, port: number): Promise<Attempt> {
  const r = await ctx.probe(t, { kind: 'tcp-connect', host, port, timeoutSec: timingsOf(ctx.options.timeouts).connectTimeoutSec });
  return { ok: r.ok, detail: `${host}:${port}: ${r.detail}`, evidence: r.evidence };
}

/** One GET /clientip: the source address the netexec server saw. */
export async function clientIpSeen(ctx: CheckContext, t: Transport, url: string): Promise<{ ip?: string; evidence: Attempt['evidence'] }> {
  const a = await httpAttempt(ctx, t, url);
  return { ip: a.ok ? clientIpOf(a.evidence.stdout) : undefined, evidence: a.evidence };
}

export function oneLine(s: string): string {
  return s.trim().split(/\r?\n/)[0]?.slice(0, 120) ?? '';
}
