// busybox wget (Linux images, and C:\bin on Windows agnhost images): -q, -O file|-,
// -T seconds, --spider. Errors in busybox wording, exit 1.

import type { ProgramCtx } from '../types.ts';
import { httpRequest } from './http.ts';
import { ABORTED_EXIT } from '../io.ts';
import { resolvePosix, resolveWin } from '../winPaths.ts';

export async function runWget(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  let quiet = false;
  let output: string | undefined;
  let timeoutSec = 900;
  let spider = false;
  let url: string | undefined;
  for (let i = 0; i < ctx.args.length; i++) {
    const a = ctx.args[i]!;
    if (a === '--spider') spider = true;
    else if (a.startsWith('-T')) timeoutSec = Number(a.length > 2 ? a.slice(2) : ctx.args[++i]);
    else if (a.startsWith('--timeout=')) timeoutSec = Number(a.slice(10));
    else if (a.startsWith('-') && a.length > 1 && !a.startsWith('--')) {
      for (let j = 1; j < a.length; j++) {
        if (a[j] === 'q') quiet = true;
        else if (a[j] === 'O') {
          output = j + 1 < a.length ? a.slice(j + 1) : ctx.args[++i];
          break;
        }
      }
    } else url = a;
  }
  if (!url) {
    io.stderr.write('wget: missing URL\n');
    return 1;
  }
  let u: URL;
  try {
    u = new URL(/^[a-z]+:\/\//i.test(url) ? url : `http://${url}`);
  } catch {
    io.stderr.write(`wget: bad address '${url}'\n`);
    return 1;
  }
  const r = await httpRequest(host, {
    url: u,
    method: spider ? 'HEAD' : 'GET',
    insecure: false,
    connectTimeoutMs: timeoutSec * 1000,
    maxTimeMs: timeoutSec * 1000,
    headers: [
      ['User-Agent', 'Wget'],
      ['Connection', 'close'],
    ],
    signal: io.signal,
  });
  if (!r.ok) {
    const f = r.failure;
    if (f.kind === 'aborted') return ABORTED_EXIT;
    if (f.kind === 'resolve') io.stderr.write(`wget: bad address '${u.hostname}'\n`);
    else if (f.kind === 'connect' && f.code !== 'ETIMEDOUT')
      io.stderr.write(`wget: can't connect to remote host (${f.address}): ${f.code === 'EHOSTUNREACH' ? 'No route to host' : 'Connection refused'}\n`);
    else if (f.kind === 'connect' || f.kind === 'timeout') io.stderr.write('wget: download timed out\n');
    else io.stderr.write(`wget: error getting response\n`);
    return 1;
  }
  const res = r.res;
  if (!quiet) io.stderr.write(`Connecting to ${u.host} (${res.remoteAddress}:${res.port})\n`);
  if (res.statusCode >= 400) {
    io.stderr.write(`wget: server returned error: HTTP/${res.httpVersion} ${res.statusCode} ${res.statusText}\n`);
    return 1;
  }
  if (spider) return 0;
  const target = output ?? (u.pathname.split('/').pop() || 'index.html');
  if (target === '-') {
    if (!quiet) io.stderr.write('writing to stdout\n');
    io.stdout.write(res.body);
  } else {
    if (!quiet) io.stderr.write(`saving to '${target}'\n`);
    try {
      host.fs.write(host.os === 'windows' ? resolveWin(host.cwd ?? 'C:\\', target) : resolvePosix(host.cwd ?? '/', target), res.body);
    } catch {
      io.stderr.write(`wget: can't open '${target}': Permission denied\n`);
      return 1;
    }
  }
  if (!quiet) io.stderr.write(`${target === '-' ? 'written to stdout' : `'${target}' saved`}\n`);
  return 0;
}
