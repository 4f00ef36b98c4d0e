// Typed probe ops → the command a Windows or Linux container really runs.
// Windows has no sh: cmd /c and powershell (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Facts every probe needs");
// the commands follow upstream test/e2e/windows where it has one.

import type { ProbeOp, ProbeOS } from './types.ts';

export function renderProbe(op: ProbeOp, os: ProbeOS): string[] {
  return os === 'windows' ? renderWindows(op) : renderLinux(op);
}

function renderWindows(op: ProbeOp): string[] {
  switch (op.kind) {
    case 'http-get':
      // upstream hybrid_network.go: cmd /c curl.exe <addr> --connect-timeout 10 --fail (cmd's & | < > ^ caret-escaped: a query's &)
      return ['cmd', '/c', `curl.exe ${globoff(op.url)}${op.url.replace(/[&|<>^]/g, '^$&')} --connect-timeout ${op.connectTimeoutSec ?? 10} --fail`];
    case 'tcp-connect':
      return [
        'powershell',
        '-NoProfile',
        '-Command',
        `$c = New-Object Net.Sockets.TcpClient; $t = $c.ConnectAsync('${psQuote(op.host)}', ${op.port}); if (-not $t.Wait(${(op.timeoutSec ?? 10) * 1000})) { Write-Error 'TIMEOUT'; exit 1 }; if ($t.IsFaulted) { Write-Error $t.Exception.InnerException.Message; exit 1 }; exit 0`,
      ];
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
    // cmd /c lines take no quotes: the joined command line escapes them as \", which cmd keeps.
    case 'echo':
      return ['cmd', '/c', `echo ${op.text}`];
    case 'list-env':
      return ['cmd', '/c', `set ${op.prefix}`];
    case 'whoami':
      return ['whoami'];
    case 'user-name':
      // upstream test/e2e/windows/security_context.go reads the user this way.
      return ['cmd', '/S', '/C', 'echo %username%'];
    case 'os-version':
      return ['cmd', '/c', 'ver'];
    case 'list-dir':
      return ['cmd', '/c', `dir /b ${op.path}`];
    case 'file-modes':
      // The image's ls (busybox in the e2e images): cmd has no view of mode bits.
      return ['ls', '-lL', op.path];
    case 'file-acl':
      // Structured, not Format-List text: each rule's identity, rights as a number, Allow or Deny.
      return [
        'powershell',
        '-NoProfile',
        '-Command',
        `$a = Get-Acl -LiteralPath '${op.path}'; [pscustomobject]@{ Owner = $a.Owner; Group = $a.Group; Access = @($a.Access | ForEach-Object { [pscustomobject]@{ Identity = $_.IdentityReference.Value; Rights = [int]$_.FileSystemRights; Type = [string]$_.AccessControlType } }) } | ConvertTo-Json -Depth 3 -Compress`,
      ];
    case 'delete-files':
      return ['cmd', '/c', `del /q ${op.paths.join(' ')}`];
    case 'make-junction':
      return ['cmd', '/c', `mkdir ${op.dir} & echo ${op.marker}> ${op.dir}\\marker.txt & mklink /J ${op.link} ${op.dir}`];
    case 'remove-junction':
      return ['cmd', '/c', `rmdir ${op.link} & rmdir /s /q ${op.dir}`];
    case 'ip-config':
      return op.all ? ['cmd', '/c', 'ipconfig /all'] : ['ipconfig'];
    case 'tcp-connections':
      return ['cmd', '/c', 'netstat -an -p TCP'];
    case 'service-query':
      return ['sc.exe', 'queryex', op.name];
    case 'host-networks':
      return ['hnsdiag.exe', 'list', 'networks'];
    case 'raw':
      return op.argv;
  }
}

function renderLinux(op: ProbeOp): string[] {
  const sh = (cmd: string) => ['/bin/sh', '-c', cmd];
  switch (op.kind) {
    case 'http-get':
      return sh(`curl -sS ${globoff(op.url)}--fail --connect-timeout ${op.connectTimeoutSec ?? 10} ${shQuote(op.url)}`);
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
    case 'echo':
      return sh(`echo ${shQuote(op.text)}`);
    case 'list-env':
      return sh(`env | grep ${shQuote(`^${op.prefix}`)}`);
    case 'whoami':
      return sh('whoami');
    case 'user-name':
      return sh('id -un');
    case 'os-version':
      return sh('uname -sr');
    case 'list-dir':
      return sh(`ls -1 ${shQuote(op.path)}`);
    case 'file-modes':
      return sh(`ls -lL ${shQuote(op.path)}`);
    case 'file-acl':
      return sh(`stat -c '{"Owner":"%U","Group":"%G","Mode":"%a"}' ${shQuote(op.path)}`);
    case 'delete-files':
      return sh(`rm -f ${op.paths.map(shQuote).join(' ')}`);
    case 'make-junction':
      return sh(
        `mkdir -p ${shQuote(op.dir)} && printf '%s\\n' ${shQuote(op.marker)} > ${shQuote(`${op.dir}/marker.txt`)} && ln -s ${shQuote(op.dir)} ${shQuote(op.link)}`,
      );
    case 'remove-junction':
      return sh(`rm -f ${shQuote(op.link)}; rm -rf ${shQuote(op.dir)}`);
    case 'ip-config':
      return sh('ip addr show');
    case 'tcp-connections':
      return sh('netstat -ant');
    case 'service-query':
      return sh(`systemctl show ${shQuote(op.name)} --property=ActiveState,MainPID`);
    case 'host-networks':
      return sh('ip -o link show');
    case 'raw':
      return op.argv;
  }
}

/** curl reads [ ] in a URL as a glob: an IPv6 literal needs --globoff. */
function globoff(url: string): string {
  return url.includes('[') ? '--globoff ' : '';
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
