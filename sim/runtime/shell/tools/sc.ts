// sc.exe query / queryex <service> against the node's services (docs/windows-commands.md §5).
// A missing service prints the 1060 text and exits 1060.

import type { ProgramCtx } from '../types.ts';

export async function runSc(ctx: ProgramCtx): Promise<number> {
  const { host, io } = ctx;
  const w = (s: string): boolean => io.stdout.write(s.replace(/\n/g, '\r\n'));
  const [verbRaw, name] = ctx.args;
  const verb = (verbRaw ?? '').toLowerCase();
  if ((verb !== 'query' && verb !== 'queryex') || !name) {
    w(
      'DESCRIPTION:\n        SC is a command line program used for communicating with the\n        Service Control Manager and services.\nUSAGE:\n        sc <server> [command] [service name] <option1> <option2>...\n',
    );
    return verb ? 1639 : 0;
  }
  const svc = (host.node?.services() ?? []).find(s => s.name.toLowerCase() === name.toLowerCase());
  if (!svc) {
    const op = verb === 'queryex' ? 'EnumQueryServicesStatus:OpenService' : 'EnumQueryServicesStatus:OpenService';
    w(`[SC] ${op} FAILED 1060:\n\nThe specified service does not exist as an installed service.\n\n`);
    return 1060;
  }
  const running = svc.status === 'Running';
  let out = `\nSERVICE_NAME: ${svc.name} \n`;
  out += '        TYPE               : 10  WIN32_OWN_PROCESS  \n';
  out += running
    ? '        STATE              : 4  RUNNING \n                                (STOPPABLE, PAUSABLE, ACCEPTS_SHUTDOWN)\n'
    : '        STATE              : 1  STOPPED \n';
  out += '        WIN32_EXIT_CODE    : 0  (0x0)\n        SERVICE_EXIT_CODE  : 0  (0x0)\n        CHECKPOINT         : 0x0\n        WAIT_HINT          : 0x0\n';
  if (verb === 'queryex') out += `        PID                : ${running ? svc.pid : 0}\n        FLAGS              : \n`;
  w(out);
  return 0;
}
