// nc (busybox / Linux images): the upstream Linux probe is
// `nc -vz <addr> <port> -w 10` (FEATURES "Facts every probe needs"). Messages
// follow busybox nc, on stderr.

import type { ProgramCtx } from '../types.ts';
import { connectTo, resolveName } from './net.ts';
import { ABORTED_EXIT } from '../io.ts';

export async function runNc(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  let verbose = false;
  let zero = false;
  let waitSec: number | undefined;
  const pos: string[] = [];
  for (let i = 0; i < ctx.args.length; i++) {
    const a = ctx.args[i]!;
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'v') verbose = true;
        else if (c === 'z') zero = true;
        else if (c === 'n' || c === 'u') continue;
        else if (c === 'w') {
          const v = j + 1 < a.length ? a.slice(j + 1) : ctx.args[++i];
          waitSec = Number(v);
          break;
        } else {
          io.stderr.write(`nc: invalid option -- '${c}'\n`);
          return 1;
        }
      }
      continue;
    }
    pos.push(a);
  }
  const [target, portText] = pos;
  if (!target || !portText) {
    io.stderr.write('BusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: nc [OPTIONS] HOST PORT  - connect\n');
    return 1;
  }
  const port = Number(portText);
  const resolved = await resolveName(host, target, io.signal);
  if (!resolved.ok) {
    if (resolved.code === 'EABORTED') return ABORTED_EXIT;
    io.stderr.write(`nc: bad address '${target}'\n`);
    return 1;
  }
  const addr = resolved.value[0]!;
  // Without -w the OS connect timeout applies (about two minutes on Linux).
  const conn = await connectTo(host, addr, port, (waitSec ?? 127) * 1000, io.signal);
  if (!conn.ok) {
    if (conn.code === 'EABORTED') return ABORTED_EXIT;
    const why = conn.code === 'ETIMEDOUT' ? 'Connection timed out' : conn.code === 'EHOSTUNREACH' ? 'No route to host' : 'Connection refused';
    io.stderr.write(`nc: ${target} (${addr}:${port}): ${why}\n`);
    return 1;
  }
  if (verbose) io.stderr.write(`${target} (${addr}:${port}) open\n`);
  if (zero) {
    conn.value.destroy();
    return 0;
  }
  // Without -z: copy stdin to the socket and the socket to stdout until it closes.
  const sock = conn.value;
  return new Promise<number>(resolve => {
    sock.on('data', (d: Buffer) => io.stdout.write(d));
    sock.on('close', () => resolve(0));
    sock.on('error', () => resolve(1));
    io.signal.addEventListener(
      'abort',
      () => {
        sock.destroy();
        resolve(ABORTED_EXIT);
      },
      { once: true },
    );
    if (io.stdin) io.stdin.pipe(sock);
    else sock.end();
  });
}
