// Sysinternals Testlimit (testlimit.exe, Testlimit64.exe as /bin/testlimit.exe in upstream's
// resource-consumer image, test/images/resource-consumer/Dockerfile_windows), as upstream's
// test/e2e/windows/eviction.go runs it: `testlimit.exe -accepteula -d 100Mb -e 5 20000s -c 5`.
// -d N: leak and touch N MB of private memory per allocation (default 1), -c N: that many
// allocations (default: until one fails), -e N: read as the seconds to wait between allocations
// (UNCONFIRMED: Sysinternals documents no -e here; a non-flag word such as upstream's "20000s" is
// ignored). Each allocation goes to host.resources.allocateMemory (the container's working set,
// which the kubelet's eviction manager watches); the pauses go through host.resources.pace
// (time-scaled by the profile's evictionScale). Once done it keeps its memory and waits, as
// Testlimit does, until it is stopped. The banner and "Leaked ..." lines are UNCONFIRMED wording.

import type { ProgramCtx } from '../types.ts';

const MB = 2 ** 20;

export async function runTestlimit(ctx: ProgramCtx): Promise<number> {
  const { io, host } = ctx;
  const args = ctx.args.map(a => a.toLowerCase().replace(/^\//, '-'));
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const mb = Number((value('-d') ?? '1').replace(/mb?$/, ''));
  const count = value('-c') === undefined ? Infinity : Number(value('-c'));
  const every = Number(value('-e') ?? '0');
  if (!args.includes('-d') || !Number.isFinite(mb) || mb <= 0 || Number.isNaN(count) || Number.isNaN(every)) {
    io.stderr.write('sim: only testlimit -d MB [-c count] [-e seconds] is simulated\r\n');
    return 1;
  }
  io.stdout.write('\r\nTestlimit v5.24 - test Windows limits\r\nCopyright (C) 2012-2015 Mark Russinovich\r\nSysinternals - www.sysinternals.com\r\n\r\n');
  io.stdout.write(`Leaking private bytes with touch ${mb} MB at a time...\r\n`);
  let leaked = 0;
  for (let i = 0; i < count; i++) {
    if (io.signal.aborted) return 1;
    const r = host.resources?.allocateMemory(mb * MB) ?? { ok: true, oomKilled: false };
    if (r.oomKilled) return 137;
    if (!r.ok) {
      io.stdout.write(`Leaked ${leaked} MB of private memory (${leaked} MB total leaked). Lasterror: 1455\r\n`);
      break;
    }
    leaked += mb;
    io.stdout.write(`Leaked ${leaked} MB of private memory (${leaked} MB total leaked). Lasterror: 0\r\n`);
    if (every > 0 && i + 1 < count && host.resources?.pace && !(await host.resources.pace(every, io.signal))) return 1;
  }
  // Holds what it leaked until it is stopped.
  await new Promise<void>(resolve => {
    if (io.signal.aborted) return resolve();
    io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  return 1;
}
