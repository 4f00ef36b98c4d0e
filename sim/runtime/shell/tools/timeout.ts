// timeout. Windows timeout.exe (the cmd "sleep" idiom `timeout /t 5`): without a
// console, as in a non-TTY exec, it refuses redirected input and exits at once (the
// widely reported container behaviour; docs/windows-commands.md does not cover it, UNCONFIRMED).
// Linux `timeout DURATION cmd...`: runs cmd with a deadline; 143 when it had to stop it
// (busybox reports the child's SIGTERM status).

import type { ProgramCtx } from '../types.ts';
import { ShSession } from '../sh.ts';

export async function runTimeout(ctx: ProgramCtx): Promise<number> {
  const { io, host } = ctx;
  if (host.os === 'windows') {
    io.stderr.write('ERROR: Input redirection is not supported, exiting the process immediately.\r\n');
    return 1;
  }
  const args = [...ctx.args];
  while (args[0]?.startsWith('-')) {
    const a = args.shift()!;
    if (a === '-s' || a === '-k') args.shift();
  }
  const seconds = Number((args.shift() ?? '0').replace(/s$/, ''));
  if (args.length === 0 || Number.isNaN(seconds)) {
    io.stderr.write('Usage: timeout [-s SIG] SECS PROG ARGS\n');
    return 1;
  }
  const ac = new AbortController();
  const onAbort = (): void => ac.abort(io.signal.reason);
  io.signal.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  const t = setTimeout(() => {
    timedOut = true;
    ac.abort('SIGTERM');
  }, seconds * 1000);
  try {
    const quoted = args.map(a => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const code = await new ShSession(host, { ...ctx.env }, ctx.spawn, false, false).runScript(quoted, { ...io, signal: ac.signal });
    return timedOut ? 143 : code;
  } finally {
    clearTimeout(t);
    io.signal.removeEventListener('abort', onAbort);
  }
}
