// net localgroup <name> [/add | /delete]: local groups of the node (HostProcess containers and SSH
// sessions see the node's), or of the container's own account database otherwise. Messages as
// net.exe prints them: "The command completed successfully." and "System error 1379/1376".

import type { ProgramCtx, ShellHost } from '../types.ts';

/** Groups of hosts that are no node (an ordinary container's own account database). */
const ownGroups = new WeakMap<ShellHost, Set<string>>();

function groupsOf(host: ShellHost): Set<string> {
  const node = host.node?.localGroups?.();
  if (node) return node;
  let own = ownGroups.get(host);
  if (!own) ownGroups.set(host, (own = new Set()));
  return own;
}

export async function runNet(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  const [sub, name, ...flags] = ctx.args;
  const done = () => {
    io.stdout.write('The command completed successfully.\r\n\r\n');
    return 0;
  };
  const systemError = (code: number, text: string) => {
    io.stderr.write(`System error ${code} has occurred.\r\n\r\n${text}\r\n\r\n`);
    return 2;
  };
  if (sub?.toLowerCase() !== 'localgroup' || !name) {
    io.stderr.write('sim: only net localgroup <name> [/add | /delete] is simulated\r\n');
    return 1;
  }
  const groups = groupsOf(host);
  const key = name.toLowerCase();
  const flag = flags.map(f => f.toLowerCase());
  if (flag.includes('/add')) {
    if (groups.has(key)) return systemError(1379, 'The specified local group already exists.');
    groups.add(key);
    return done();
  }
  if (flag.includes('/delete')) {
    if (!groups.delete(key)) return systemError(1376, 'The specified local group does not exist.');
    return done();
  }
  if (!groups.has(key)) return systemError(1376, 'The specified local group does not exist.');
  io.stdout.write(
    `Alias name     ${name}\r\nComment\r\n\r\nMembers\r\n\r\n-------------------------------------------------------------------------------\r\n`,
  );
  return done();
}
