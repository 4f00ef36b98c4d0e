// A tiny stand-in for the interpreter (sim/runtime/shell), used when the real one
// cannot be loaded or SIM_RUNTIME_STUB_SHELL=1: just the commands these tests run.

import { FsError, type RunCommand, type ShellHost, type ShellIO } from '../../sim/runtime/shell/types.ts';

const untilAborted = (signal: AbortSignal) =>
  new Promise<number>(r => (signal.aborted ? r(130) : signal.addEventListener('abort', () => r(130), { once: true })));

function expandWin(s: string, env: Record<string, string>): string {
  return s.replace(/%([^%]+)%/g, (m, name: string) => {
    const k = Object.keys(env).find(x => x.toLowerCase() === name.toLowerCase());
    return k !== undefined ? env[k] : m;
  });
}

async function cmdLine(line: string, host: ShellHost, io: ShellIO): Promise<number> {
  const l = expandWin(line.trim(), host.env);
  let m = /^exit(?:\s+\/b)?\s+(\d+)$/i.exec(l);
  if (m) return Number(m[1]);
  m = /^echo\s+(.*?)\s*>\s*(\S+)$/i.exec(l);
  if (m) {
    try {
      host.fs.write(m[2], Buffer.from(`${m[1]}\r\n`));
      return 0;
    } catch (e) {
      io.stderr.write(e instanceof FsError && e.code === 'EACCES' ? 'Access is denied.\r\n' : 'The system cannot find the path specified.\r\n');
      return 1;
    }
  }
  m = /^echo\s+(.*)$/i.exec(l);
  if (m) {
    io.stdout.write(`${m[1]}\r\n`);
    return 0;
  }
  m = /^type\s+(.+)$/i.exec(l);
  if (m) {
    try {
      io.stdout.write(host.fs.read(m[1].replace(/^"|"$/g, '')));
      return 0;
    } catch {
      io.stderr.write('The system cannot find the file specified.\r\n');
      return 1;
    }
  }
  if (/^whoami$/i.test(l)) {
    io.stdout.write(`${host.user.includes('\\') ? host.user.toLowerCase() : `user manager\\${host.user.toLowerCase()}`}\r\n`);
    return 0;
  }
  if (/^ping\s+-t\b/i.test(l)) return untilAborted(io.signal);
  if (/^powershell/i.test(l)) return powershell(l.replace(/^powershell(\.exe)?\s+(-NoProfile\s+)?(-Command\s+)?/i, '').replace(/^"|"$/g, ''), host, io);
  io.stderr.write(`'${l.split(/\s+/)[0]}' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n`);
  return 9009;
}

async function powershell(script: string, host: ShellHost, io: ShellIO): Promise<number> {
  let code = 0;
  for (const stmt of script
    .split(';')
    .map(s => s.trim())
    .filter(Boolean)) {
    let m = /^exit\s+(\d+)$/i.exec(stmt);
    if (m) return Number(m[1]);
    if (/^Start-Sleep/i.test(stmt)) return untilAborted(io.signal);
    if (/^while\s*\(\$true\)\s*\{\s*\}$/i.test(stmt)) {
      while (!io.signal.aborted) await host.resources!.burnCpu(1000, 100, io.signal);
      return 130;
    }
    m = /^Write-Output\s+"?([^"]*)"?$/i.exec(stmt);
    if (m) {
      io.stdout.write(`${m[1]}\r\n`);
      code = 0;
      continue;
    }
    m = /^Get-Service\s*(\S*)$/i.exec(stmt);
    if (m) {
      const svcs = host.node?.services().filter(s => !m![1] || s.name.toLowerCase() === m![1].toLowerCase()) ?? [];
      if (!svcs.length) {
        io.stderr.write(`Get-Service : Cannot find any service with service name '${m[1]}'.\r\n`);
        code = 1;
        continue;
      }
      io.stdout.write('\r\nStatus   Name               DisplayName\r\n------   ----               -----------\r\n');
      for (const s of svcs) io.stdout.write(`${s.status.padEnd(9)}${s.name.padEnd(19)}${s.displayName}\r\n`);
      code = 0;
      continue;
    }
    if (/^Get-ComputeProcess/i.test(stmt)) {
      for (const p of host.node?.computeProcesses() ?? []) io.stdout.write(`${p.id} ${p.type} ${p.owner}\r\n`);
      code = 0;
      continue;
    }
    if (/^throw/i.test(stmt)) return 1;
    io.stderr.write(`stub: unsupported statement ${stmt}\r\n`);
    code = 1;
  }
  return code;
}

async function sh(script: string, host: ShellHost, io: ShellIO): Promise<number> {
  for (const stmt of script
    .split(/;|&&/)
    .map(s => s.trim())
    .filter(Boolean)) {
    let m = /^exit\s+(\d+)$/.exec(stmt);
    if (m) return Number(m[1]);
    m = /^sleep\s+(\d+)$/.exec(stmt);
    if (m) {
      await new Promise<void>(r => {
        const t = setTimeout(r, Number(m![1]) * 1000);
        io.signal.addEventListener(
          'abort',
          () => {
            clearTimeout(t);
            r();
          },
          { once: true },
        );
      });
      if (io.signal.aborted) return 143;
      continue;
    }
    m = /^echo\s+(.*?)\s*>\s*(\S+)$/.exec(stmt);
    if (m) {
      try {
        host.fs.write(m[2], Buffer.from(`${m[1]}\n`));
      } catch (e) {
        io.stderr.write(`sh: can't create ${m[2]}: ${(e as Error).message}\n`);
        return 1;
      }
      continue;
    }
    m = /^echo\s+(.*)$/.exec(stmt);
    if (m) {
      io.stdout.write(`${m[1].replace(/\$(\w+)/g, (_x, n: string) => host.env[n] ?? '')}\n`);
      continue;
    }
    m = /^cat\s+(\S+)$/.exec(stmt);
    if (m) {
      try {
        io.stdout.write(host.fs.read(m[1]));
      } catch {
        io.stderr.write(`cat: can't open '${m[1]}': No such file or directory\n`);
        return 1;
      }
      continue;
    }
    io.stderr.write(`sh: ${stmt.split(' ')[0]}: not found\n`);
    return 127;
  }
  return 0;
}

export const stubRunCommand: RunCommand = async (argv, host, io) => {
  const name = (argv[0] ?? '')
    .toLowerCase()
    .replace(/^.*[\\/]/, '')
    .replace(/\.exe$/, '');
  if (name === 'cmd') {
    const i = argv.findIndex(a => /^\/c$/i.test(a));
    return cmdLine(argv.slice(i + 1).join(' '), host, io);
  }
  if (name === 'powershell' || name === 'pwsh') {
    const i = argv.findIndex(a => /^-command$/i.test(a));
    return powershell(argv.slice(i + 1).join(' '), host, io);
  }
  if (name === 'sh') return sh(argv[argv.length - 1] ?? '', host, io);
  if (name === 'sleep') return sh(`sleep ${argv[1]}`, host, io);
  if (name === 'ping') return cmdLine(argv.join(' '), host, io);
  if (name === 'whoami') return cmdLine('whoami', host, io);
  if (name === 'agnhost' && argv[1] === 'pause') {
    io.stdout.write('Paused\n');
    return untilAborted(io.signal);
  }
  if (name === 'agnhost' && argv[1] === 'netexec') {
    await host.startServer?.(argv);
    io.stderr.write('Started HTTP server on port 8080\n');
    return untilAborted(io.signal);
  }
  io.stderr.write(`stub: ${argv[0]}: not found\n`);
  return 127;
};
