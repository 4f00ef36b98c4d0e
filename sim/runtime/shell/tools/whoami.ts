// whoami. Windows prints "domain\user" in lower case, e.g. "user manager\containeradministrator"
// (docs/windows-commands.md §1; container users live in the "User Manager" domain). Linux prints the user.

import type { ProgramCtx } from '../types.ts';

export function windowsAccount(user: string): string {
  return user.includes('\\') ? user : `User Manager\\${user}`;
}

export async function runWhoami(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  if (host.os === 'windows') io.stdout.write(`${windowsAccount(host.user).toLowerCase()}\r\n`);
  else io.stdout.write(`${host.user}\n`);
  return 0;
}
