// Probe rendering per OS, the quirks of each op's verdict, and redaction of what comes back.

import { expect } from 'chai';
import { Redactor } from '../../../lib/fixtures/secrets.ts';
import { interpret } from '../../../lib/probes/interpret.ts';
import { renderProbe } from '../../../lib/probes/render.ts';
import { runProbe } from '../../../lib/probes/runProbe.ts';
import type { ProbeOS, Transport } from '../../../lib/probes/types.ts';
import type { CommandResult } from '../../../lib/cluster/exec.ts';

function fakeTransport(os: ProbeOS, answer: (argv: string[]) => CommandResult): Transport & { seen: string[][] } {
  const seen: string[][] = [];
  return {
    description: `exec ns/pod`,
    os,
    seen,
    async run(command) {
      const argv = typeof command === 'string' ? [command] : command;
      seen.push(argv);
      return answer(argv);
    },
  };
}
const res = (stdout: string, exitCode = 0, stderr = ''): CommandResult => ({ stdout, stderr, exitCode });

describe('probe rendering', () => {
  it('uses upstream curl.exe on Windows and sh + curl/nc on Linux', () => {
    expect(renderProbe({ kind: 'http-get', url: 'http://10.1.2.3:80/' }, 'windows')).to.deep.equal([
      'cmd',
      '/c',
      'curl.exe http://10.1.2.3:80/ --connect-timeout 10 --fail',
    ]);
    expect(renderProbe({ kind: 'http-get', url: 'http://10.1.2.3/' }, 'linux')).to.deep.equal([
      '/bin/sh',
      '-c',
      'curl -sS --fail --connect-timeout 10 http://10.1.2.3/',
    ]);
    expect(renderProbe({ kind: 'tcp-connect', host: '10.1.2.3', port: 80 }, 'linux')).to.deep.equal(['/bin/sh', '-c', 'nc -vz 10.1.2.3 80 -w 10']);
  });

  it('reads env with cmd echo %VAR% on Windows and printenv on Linux', () => {
    expect(renderProbe({ kind: 'read-env', name: 'FOO' }, 'windows')).to.deep.equal(['cmd', '/c', 'echo %FOO%']);
    expect(renderProbe({ kind: 'read-env', name: 'FOO' }, 'linux')).to.deep.equal(['/bin/sh', '-c', 'printenv FOO']);
  });

  it('runs node commands with powershell -NoProfile on Windows', () => {
    expect(renderProbe({ kind: 'node-command', script: 'Get-Service kubelet' }, 'windows')).to.deep.equal([
      'powershell',
      '-NoProfile',
      '-Command',
      'Get-Service kubelet',
    ]);
    expect(renderProbe({ kind: 'ping', host: '8.8.8.8' }, 'windows')).to.deep.equal(['ping', '-n', '1', '8.8.8.8']);
  });

  it('turns curl globbing off for an IPv6 literal, as the features sent it before the typed op', () => {
    const url = 'http://[fd00::1]:8080/hostname';
    expect(renderProbe({ kind: 'http-get', url, connectTimeoutSec: 5 }, 'windows')).to.deep.equal([
      'cmd',
      '/c',
      `curl.exe --globoff ${url} --connect-timeout 5 --fail`,
    ]);
    expect(renderProbe({ kind: 'http-get', url, connectTimeoutSec: 5 }, 'linux')).to.deep.equal([
      '/bin/sh',
      '-c',
      `curl -sS --globoff --fail --connect-timeout 5 '${url}'`,
    ]);
  });

  it('renders the node and container queries as the features sent them (the Windows command lines did not change)', () => {
    const win: [Parameters<typeof renderProbe>[0], string[]][] = [
      [{ kind: 'service-query', name: 'kubelet' }, ['sc.exe', 'queryex', 'kubelet']],
      [{ kind: 'host-networks' }, ['hnsdiag.exe', 'list', 'networks']],
      [{ kind: 'ip-config' }, ['ipconfig']],
      [{ kind: 'ip-config', all: true }, ['cmd', '/c', 'ipconfig /all']],
      [{ kind: 'tcp-connections' }, ['cmd', '/c', 'netstat -an -p TCP']],
      [{ kind: 'os-version' }, ['cmd', '/c', 'ver']],
      [{ kind: 'whoami' }, ['whoami']],
      [{ kind: 'user-name' }, ['cmd', '/S', '/C', 'echo %username%']],
      [{ kind: 'echo', text: 'wincheck-x1' }, ['cmd', '/c', 'echo wincheck-x1']],
      [{ kind: 'list-env', prefix: 'Logging' }, ['cmd', '/c', 'set Logging']],
      [{ kind: 'list-dir', path: 'C:\\var\\lib' }, ['cmd', '/c', 'dir /b C:\\var\\lib']],
      [{ kind: 'file-modes', path: 'C:/etc/secret-mode' }, ['ls', '-lL', 'C:/etc/secret-mode']],
      [
        { kind: 'file-acl', path: 'C:\\etc\\x' },
        [
          'powershell',
          '-NoProfile',
          '-Command',
          "$a = Get-Acl -LiteralPath 'C:\\etc\\x'; [pscustomobject]@{ Owner = $a.Owner; Group = $a.Group; Access = @($a.Access | ForEach-Object { [pscustomobject]@{ Identity = $_.IdentityReference.Value; Rights = [int]$_.FileSystemRights; Type = [string]$_.AccessControlType } }) } | ConvertTo-Json -Depth 3 -Compress",
        ],
      ],
      [{ kind: 'delete-files', paths: ['C:\\a.txt', 'C:\\b.txt'] }, ['cmd', '/c', 'del /q C:\\a.txt C:\\b.txt']],
      [
        { kind: 'make-junction', dir: 'C:\\t', link: 'C:\\h\\mnt', marker: 'm1' },
        ['cmd', '/c', 'mkdir C:\\t & echo m1> C:\\t\\marker.txt & mklink /J C:\\h\\mnt C:\\t'],
      ],
      [{ kind: 'remove-junction', dir: 'C:\\t', link: 'C:\\h\\mnt' }, ['cmd', '/c', 'rmdir C:\\h\\mnt & rmdir /s /q C:\\t']],
    ];
    for (const [op, argv] of win) expect(renderProbe(op, 'windows'), op.kind).to.deep.equal(argv);
    expect(renderProbe({ kind: 'list-env', prefix: 'Log' }, 'linux')).to.deep.equal(['/bin/sh', '-c', "env | grep '^Log'"]);
    expect(renderProbe({ kind: 'delete-files', paths: ['/tmp/a b'] }, 'linux')).to.deep.equal(['/bin/sh', '-c', "rm -f '/tmp/a b'"]);
  });

  it('quotes Linux arguments that need it', () => {
    expect(renderProbe({ kind: 'read-file', path: "/tmp/a b'c" }, 'linux')).to.deep.equal(['/bin/sh', '-c', `cat '/tmp/a b'\\''c'`]);
  });
});

describe('probe verdicts', () => {
  it('treats an unset %VAR% (echoed back) as unset, and strips CRLF', () => {
    expect(interpret({ kind: 'read-env', name: 'FOO' }, 'windows', res('%FOO%\r\n')).ok).to.equal(false);
    expect(interpret({ kind: 'read-env', name: 'FOO', expect: 'bar' }, 'windows', res('bar\r\n')).ok).to.equal(true);
    expect(interpret({ kind: 'read-env', name: 'FOO', expect: 'bar' }, 'windows', res('baz\r\n')).detail).to.equal('FOO differs from the expected value');
    expect(interpret({ kind: 'read-env', name: 'FOO' }, 'linux', res('', 1)).ok).to.equal(false);
  });

  it("does not trust nslookup's exit code", () => {
    expect(interpret({ kind: 'dns-lookup', name: 'x' }, 'windows', res('', 0, "*** UnKnown can't find x: Non-existent domain")).ok).to.equal(false);
    expect(interpret({ kind: 'dns-lookup', name: 'kubernetes' }, 'windows', res('Name: kubernetes.default.svc.cluster.local', 0)).ok).to.equal(true);
  });

  it("reads ping's output, not its exit code", () => {
    expect(interpret({ kind: 'ping', host: 'h' }, 'windows', res('Reply from 1.1.1.1: bytes=32 time=3ms TTL=57', 1)).ok).to.equal(true);
    expect(interpret({ kind: 'ping', host: 'h' }, 'windows', res('Request timed out.', 0)).ok).to.equal(false);
  });

  it('judges other ops by exit code and quotes stderr', () => {
    const r = interpret({ kind: 'http-get', url: 'u' }, 'windows', res('', 7, 'curl: (7) Failed to connect to 10.0.0.1 port 80: Connection refused\n'));
    expect(r).to.deep.equal({ ok: false, detail: 'http-get failed (exit 7: curl: (7) Failed to connect to 10.0.0.1 port 80: Connection refused)' });
  });
});

describe('runProbe', () => {
  const redactor = new Redactor(['hunter2-secret', 'wc-0123456789ab']);

  it('keeps evidence of what ran and what came back', async () => {
    const t = fakeTransport('windows', () => res('<html>IIS</html>'));
    const r = await runProbe(t, { kind: 'http-get', url: 'http://10.0.0.9/' }, redactor);
    expect(r.ok).to.equal(true);
    expect(r.evidence).to.include({
      transport: 'exec ns/pod',
      command: 'cmd /c "curl.exe http://10.0.0.9/ --connect-timeout 10 --fail"',
      exitCode: 0,
      stdout: '<html>IIS</html>',
    });
  });

  it('compares a secret env value inside the probe and never records it', async () => {
    const t = fakeTransport('windows', () => res('hunter2-secret\r\n'));
    const ok = await runProbe(t, { kind: 'read-env', name: 'SECRET_PASSWORD', expect: 'hunter2-secret', secret: true }, redactor);
    expect(ok.ok).to.equal(true);
    expect(JSON.stringify(ok)).to.not.contain('hunter2');
    const wrong = await runProbe(
      fakeTransport('windows', () => res('wc-0123456789ab\r\n')),
      { kind: 'read-env', name: 'SECRET_PASSWORD', expect: 'hunter2-secret', secret: true },
      redactor,
    );
    expect(wrong.ok).to.equal(false);
    expect(JSON.stringify(wrong)).to.not.contain('wc-0123456789ab');
    expect(wrong.evidence.stdout).to.contain('does not match');
  });

  it('redacts secret values anywhere in the streams', async () => {
    const t = fakeTransport('linux', () => res('USER=wc-0123456789ab', 0, 'hunter2-secret leaked'));
    const r = await runProbe(t, { kind: 'raw', argv: ['env'] }, redactor);
    expect(r.evidence.stdout).to.equal('USER=<redacted>');
    expect(r.evidence.stderr).to.equal('<redacted> leaked');
  });

  it('redacts the base64 form of secret values too', () => {
    expect(redactor.redact(`data: {"password":"${Buffer.from('hunter2-secret').toString('base64')}"}`)).to.equal('data: {"password":"<redacted>"}');
  });
});
