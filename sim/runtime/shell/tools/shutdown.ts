// shutdown.exe -r|-s [-t N]: on a node's host (a HostProcess container, an SSH session) the node
// restarts or powers off after N seconds (default 30, as shutdown.exe's /t); shutdown.exe prints
// nothing and exits 0 once the shutdown is scheduled. An ordinary container holds no shutdown
// privilege over its host: "Access is denied.(5)", exit 5.

import type { ProgramCtx } from '../types.ts';

export async function runShutdown(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  const flags = ctx.args.map(a => a.toLowerCase().replace(/^\//, '-'));
  const reboot = flags.includes('-r') || flags.includes('-g');
  const poweroff = flags.includes('-s') || flags.includes('-p');
  const t = flags.indexOf('-t');
  const delaySeconds = t >= 0 ? Number(flags[t + 1]) : 30;
  if ((!reboot && !poweroff) || !Number.isInteger(delaySeconds) || delaySeconds < 0 || delaySeconds > 315_360_000) {
    io.stderr.write('sim: only shutdown -r|-s [-t N] is simulated\r\n');
    return 87;
  }
  const shutdown = host.node?.shutdown;
  if (!shutdown) {
    io.stderr.write(`${host.hostname}: Access is denied.(5)\r\n`);
    return 5;
  }
  shutdown({ reboot, delaySeconds });
  return 0;
}
