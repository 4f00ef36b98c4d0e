// Name resolution and connecting through the network twin, with the endpoint's own
// DNS settings and io.signal honoured. Every tool (curl, nc, agnhost, Test-NetConnection)
// uses these so they fail with the same NetError codes.

import type { Socket } from 'node:net';
import { NetError } from '../../../network/types.ts';
import type { NetErrorCode } from '../../../network/types.ts';
import type { ShellHost } from '../types.ts';
import { isIPv4 } from '../io.ts';

export type NetResult<T> = { ok: true; value: T } | { ok: false; code: NetErrorCode | 'EABORTED'; message: string };

export function netCode(err: unknown): NetErrorCode | 'EABORTED' {
  if (err instanceof NetError) return err.code;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED' || code === 'ETIMEDOUT' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'SERVFAIL') return code;
  if (code === 'ABORT_ERR') return 'EABORTED';
  return 'ECONNREFUSED';
}

function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new NetError('ETIMEDOUT', 'aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(Object.assign(new Error('aborted'), { code: 'ABORT_ERR' }));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      v => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** Resolves a name (or passes an IPv4 literal through) with the host's resolver settings. */
export async function resolveName(host: ShellHost, name: string, signal: AbortSignal): Promise<NetResult<string[]>> {
  if (isIPv4(name)) return { ok: true, value: [name] };
  try {
    const addrs = await abortable(host.net.resolve(host.endpoint, name, host.dns), signal);
    if (addrs.length === 0) return { ok: false, code: 'ENOTFOUND', message: `${name} not found` };
    return { ok: true, value: addrs };
  } catch (e) {
    return { ok: false, code: netCode(e), message: e instanceof Error ? e.message : String(e) };
  }
}

/** Opens a TCP connection to an address through the twin (real socket from the endpoint's address). */
export async function connectTo(host: ShellHost, address: string, port: number, timeoutMs: number, signal: AbortSignal): Promise<NetResult<Socket>> {
  try {
    const sock = await abortable(host.net.connect({ from: host.endpoint, host: address, port, timeoutMs }), signal);
    return { ok: true, value: sock };
  } catch (e) {
    return { ok: false, code: netCode(e), message: e instanceof Error ? e.message : String(e) };
  }
}
