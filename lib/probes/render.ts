// Typed probe ops → the command a Windows or Linux container really runs.
// Windows has no sh: cmd /c and powershell (FEATURES.md "Facts every probe needs");
// the commands follow upstream test/e2e/windows where it has one.

import type { ProbeOp, ProbeOS } from './types.ts';

export function renderProbe(op: ProbeOp, os: ProbeOS): string[] {
  return os === 'windows' ? renderWindows(op) : renderLinux(op);
}

function renderWindows(op: ProbeOp): string[] {
  switch (op.kind) {
    case 'http-get':
      // upstream hybrid_network.go: cmd /c curl.exe <addr> --connect-timeout 10 --fail
      return ['cmd', '/c', `curl.exe ${op.url} --connect-timeout ${op.connectTimeoutSec ?? 10} --fail`];
    case 'tcp-connect':
      return ['powershell', '-NoProfile', '-Command',
        `$c = New-Object Net.Sockets.TcpClient; $t = $c.ConnectAsync('${psQuote(op.host)}', ${op.port}); if (-not $t.Wait(${(op.timeoutSec ?? 10) * 1000})) { Write-Error 'TIMEOUT'; exit 1 }; if ($t.IsFaulted) { Write-Error $t.Exception.InnerException.Message; exit 1 }; exit 0`];
    case 'dns-lookup':
      // nslookup may exit 0 on a failed lookup: the verdict also reads stderr (see interpret).
      return ['cmd', '/c', `nslookup ${op.name}`];
    case 'read-env':
      return ['cmd', '/c', `echo %${op.name}%`];
    case 'read-file':
      return ['cmd', '/c', `type ${op.path}`];
    case 'write-file':
      return ['cmd', '/c', `echo ${op.content}> ${op.path}`];
    case 'ping':
      return ['ping', '-n', String(op.count ?? 1), op.host];
    case 'node-command':
      return ['powershell', '-NoProfile', '-Command', op.script];
    case 'raw':
      return op.argv;
  }
}

function renderLinux(op: ProbeOp): string[] {
  const sh = (cmd: string) => ['/bin/sh', '-c', cmd];
  switch (op.kind) {
    case 'http-get':
      return sh(`curl -sS --fail --connect-timeout ${op.connectTimeoutSec ?? 10} ${shQuote(op.url)}`);
    case 'tcp-connect':
      // upstream: /bin/sh -c "nc -vz <addr> <port> -w 10"
      return sh(`nc -vz ${shQuote(op.host)} ${op.port} -w ${op.timeoutSec ?? 10}`);
    case 'dns-lookup':
      return sh(`nslookup ${shQuote(op.name)}`);
    case 'read-env':
      return sh(`printenv ${shQuote(op.name)}`);
    case 'read-file':
      return sh(`cat ${shQuote(op.path)}`);
    case 'write-file':
      return sh(`printf '%s' ${shQuote(op.content)} > ${shQuote(op.path)}`);
    case 'ping':
      return sh(`ping -c ${op.count ?? 1} -W 5 ${shQuote(op.host)}`);
    case 'node-command':
      return sh(op.script);
    case 'raw':
      return op.argv;
  }
}

export function shQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function psQuote(s: string): string {
  return s.replace(/'/g, "''");
}

/** The argv as one readable line, for evidence. */
export function commandLine(command: string[] | string): string {
  if (typeof command === 'string') return command;
  return command.map(a => (/[\s"]/.test(a) ? JSON.stringify(a) : a)).join(' ');
}
