// The programs the simulated images can run, and how a name is resolved to one.
// hasBinary (the image's file list) decides what exists; this table decides how
// it behaves. The interpreters call back into it (cmd runs powershell runs cmd...) through
// the `spawn` of their ProgramCtx, so none of them imports this module.

import type { Program, ShellHost, ShellIO, Spawn } from './types.ts';
import { baseName } from './io.ts';
import { splitProgram, splitWindowsCommandLine } from './quote.ts';
import { runCmd } from './cmd.ts';
import { runPowerShell } from './powershell.ts';
import { BUSYBOX_BUILTINS, runApplet, runSh } from './sh.ts';
import { runCurl } from './tools/curl.ts';
import { runNc } from './tools/nc.ts';
import { runNslookup } from './tools/nslookup.ts';
import { runPing } from './tools/ping.ts';
import { runIpconfig } from './tools/ipconfig.ts';
import { runAgnhost } from './tools/agnhost.ts';
import { runHostname } from './tools/hostname.ts';
import { runWhoami } from './tools/whoami.ts';
import { runSc } from './tools/sc.ts';
import { runWget } from './tools/wget.ts';
import { runFindstr } from './tools/findstr.ts';
import { runTimeout } from './tools/timeout.ts';
import { runWhere } from './tools/where.ts';
import { runNetstat } from './tools/netstat.ts';
import { runHnsdiag } from './tools/hnsdiag.ts';
import { runNltest } from './tools/nltest.ts';
import { runNet } from './tools/netLocalgroup.ts';
import { runShutdown } from './tools/shutdown.ts';
import { runDxdiag } from './tools/dxdiag.ts';
import { runTestlimit } from './tools/testlimit.ts';

let table: Record<string, Program> | undefined;
function programs(): Record<string, Program> {
  table ??= {
    cmd: runCmd,
    powershell: runPowerShell,
    pwsh: runPowerShell,
    sh: runSh,
    bash: runSh,
    ash: runSh,
    curl: runCurl,
    nc: runNc,
    nslookup: runNslookup,
    ping: runPing,
    ipconfig: runIpconfig,
    agnhost: runAgnhost,
    hostname: runHostname,
    whoami: runWhoami,
    sc: runSc,
    wget: runWget,
    findstr: runFindstr,
    timeout: runTimeout,
    where: runWhere,
    netstat: runNetstat,
    hnsdiag: runHnsdiag,
    nltest: runNltest,
    net: runNet,
    shutdown: runShutdown,
    dxdiag: runDxdiag,
    testlimit: runTestlimit,
  };
  // busybox applets as programs (ls, cat...): the sh built-in of the same name.
  for (const a of BUSYBOX_BUILTINS) table[a] ??= runApplet;
  return table;
}

/** Resolves a program name on the image: Windows tries "<name>.exe" first, as PATHEXT would. */
export function resolveProgram(host: ShellHost, name: string): { key: string; run: Program } | undefined {
  const base = baseName(name);
  if (!base) return undefined;
  const candidates = host.os === 'windows' ? (base.endsWith('.exe') ? [base] : [`${base}.exe`, base]) : [base];
  for (const c of candidates) {
    if (!host.hasBinary(c)) continue;
    const key = c.replace(/\.exe$/, '');
    const run = programs()[key] as Program | undefined;
    if (run) return { key, run };
    return { key, run: notSimulated(c) };
  }
  return undefined;
}

function notSimulated(name: string): Program {
  return async ({ io }) => {
    io.stderr.write(`sim: ${name} is in the image but not simulated by the shell interpreter\n`);
    return 127;
  };
}

/** Runs a Windows command line (program + tail), as CreateProcess would. Undefined when not found. */
export async function launchWindows(line: string, host: ShellHost, io: ShellIO, env: Record<string, string>): Promise<number | undefined> {
  const { program, rest } = splitProgram(line);
  const found = resolveProgram(host, program);
  if (!found) return undefined;
  return found.run({ host, io, name: found.key, args: splitWindowsCommandLine(rest), cmdline: rest, env, spawn });
}

/** Runs argv on Linux (or busybox on Windows) as execve would. Undefined when not found. */
export async function launchArgv(argv: string[], host: ShellHost, io: ShellIO, env: Record<string, string>): Promise<number | undefined> {
  const found = resolveProgram(host, argv[0] ?? '');
  if (!found) return undefined;
  return found.run({ host, io, name: found.key, args: argv.slice(1), cmdline: argv.slice(1).join(' '), env, spawn });
}

/** What every program is given to start others. */
const spawn: Spawn = { resolve: resolveProgram, windows: launchWindows, argv: launchArgv };
