// hostname. On Windows e2e images C:\bin\hostname.exe is a Go program printing with
// fmt.Print, so no trailing newline (docs/windows-commands.md §0); the runtime marks such an
// image by listing the pseudo-binary "busybox-hostname" in hasBinary. Otherwise the
// native tool prints the name and CRLF. Linux: name and LF.

import type { ProgramCtx } from '../types.ts';

export async function runHostname(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  const ip = ctx.args.includes('-i');
  const value = ip ? host.endpoint.address : host.hostname;
  if (host.os === 'windows') {
    io.stdout.write(host.hasBinary('busybox-hostname') ? value : `${value}\r\n`);
  } else {
    io.stdout.write(`${value}\n`);
  }
  return 0;
}
