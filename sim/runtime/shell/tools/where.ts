// where.exe <name>: the path of a program on the image, or the INFO line and exit 1.

import type { ProgramCtx } from '../types.ts';

export async function runWhere(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  let missing = false;
  for (const name of ctx.args.filter(a => !a.startsWith('/'))) {
    const found = ctx.spawn.resolve(host, name);
    if (found) io.stdout.write(`C:\\Windows\\System32\\${found.key}.exe\r\n`);
    else missing = true;
  }
  if (missing) {
    io.stderr.write('INFO: Could not find files for the given pattern(s).\r\n');
    return 1;
  }
  return 0;
}
