// SSH node transport: known_hosts parsing, host-key pinning against a real ssh2 server on
// 127.0.0.1 (a matching key connects and runs a command; a mismatched or unknown key is refused
// with the node's name), and the command lines a cmd.exe default shell receives.

import { createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import ssh2 from 'ssh2';
import type { Connection } from 'ssh2';
import { windowsCommandLine, quoteWindowsArg } from '../../../lib/transports/commandLine.ts';
import { checkHostKey, entryMatches, parseKnownHosts } from '../../../lib/transports/knownHosts.ts';
import { HostKeyError, SshTransport } from '../../../lib/transports/ssh.ts';

const { Server, utils } = ssh2;

const blobOf = (publicKey: string) => publicKey.trim().split(/\s+/).slice(0, 2).join(' ');
const keyBytes = (publicKey: string) => Buffer.from(publicKey.trim().split(/\s+/)[1], 'base64');

function hashed(name: string): string {
  const salt = randomBytes(20);
  return `|1|${salt.toString('base64')}|${createHmac('sha1', salt).update(name).digest('base64')}`;
}

describe('features-risn: known_hosts', () => {
  const a = utils.generateKeyPairSync('ed25519');
  const b = utils.generateKeyPairSync('ed25519');

  it('parses plain, hashed, bracketed-port, marker and comment lines', () => {
    const text = [
      '# a comment',
      `win-1,10.0.0.4 ${blobOf(a.public)} node key`,
      `${hashed('10.0.0.5')} ${blobOf(a.public)}`,
      `[10.0.0.6]:2222 ${blobOf(b.public)}`,
      `@revoked 10.0.0.7 ${blobOf(b.public)}`,
      '',
      'garbage',
    ].join('\n');
    const entries = parseKnownHosts(text);
    expect(entries).to.have.length(4);
    expect(entries[0].keyType).to.equal('ssh-ed25519');
    expect(entries[3].marker).to.equal('@revoked');
    expect(checkHostKey(entries, ['win-1', '10.0.0.4'], 22, keyBytes(a.public))).to.deep.include({ ok: true });
    expect(checkHostKey(entries, ['win-2', '10.0.0.5'], 22, keyBytes(a.public))).to.deep.include({ ok: true });
    expect(checkHostKey(entries, ['n', '10.0.0.6'], 2222, keyBytes(b.public))).to.deep.include({ ok: true });
    expect(checkHostKey(entries, ['n', '10.0.0.6'], 22, keyBytes(b.public))).to.deep.equal({ ok: false, reason: 'unknown' });
    expect(checkHostKey(entries, ['win-1', '10.0.0.4'], 22, keyBytes(b.public))).to.deep.equal({ ok: false, reason: 'mismatch' });
    expect(checkHostKey(entries, ['x', '10.0.0.7'], 22, keyBytes(b.public))).to.deep.equal({ ok: false, reason: 'revoked' });
    expect(checkHostKey(entries, ['x', '10.0.0.9'], 22, keyBytes(a.public))).to.deep.equal({ ok: false, reason: 'unknown' });
  });

  it('wildcards and negation', () => {
    const [e] = parseKnownHosts(`win-*,!win-bad ${blobOf(a.public)}`);
    expect(entryMatches(e, ['win-7'])).to.equal(true);
    expect(entryMatches(e, ['win-bad'])).to.equal(false);
    expect(entryMatches(e, ['linux-1'])).to.equal(false);
  });
});

describe('features-risn: Windows command lines for a cmd.exe default shell', () => {
  it('cmd /c and /S /C run as the line itself', () => {
    expect(windowsCommandLine(['cmd', '/c', 'dir /b "C:\\var\\lib"'])).to.equal('dir /b "C:\\var\\lib"');
    expect(windowsCommandLine(['cmd', '/S', '/C', 'echo %username%'])).to.equal('echo %username%');
  });
  it('powershell -Command "<script>"; scripts with double quotes go encoded', () => {
    expect(windowsCommandLine(['powershell', '-NoProfile', '-Command', "Get-Service kubelet | Where-Object { $_.Status -eq 'Running' }"])).to.equal(
      `powershell -NoProfile -Command "Get-Service kubelet | Where-Object { $_.Status -eq 'Running' }"`,
    );
    const enc = windowsCommandLine(['powershell', '-NoProfile', '-Command', 'Write-Output "a|b"']);
    expect(enc).to.match(/^powershell -NoProfile -EncodedCommand [A-Za-z0-9+/=]+$/);
    expect(Buffer.from(enc.split(' ').pop()!, 'base64').toString('utf16le')).to.equal('Write-Output "a|b"');
  });
  it('other argv: CommandLineToArgvW quoting', () => {
    expect(windowsCommandLine(['sc.exe', 'queryex', 'kubelet'])).to.equal('sc.exe queryex kubelet');
    expect(quoteWindowsArg('C:\\Program Files\\x\\')).to.equal('"C:\\Program Files\\x\\\\"');
    expect(quoteWindowsArg('say "hi"')).to.equal('"say \\"hi\\""');
    expect(quoteWindowsArg('')).to.equal('""');
  });
});

describe('features-risn: SSH transport against an ssh2 server', () => {
  const host = utils.generateKeyPairSync('ed25519');
  const other = utils.generateKeyPairSync('ed25519');
  const client = utils.generateKeyPairSync('ed25519');
  const allowed = utils.parseKey(client.public);
  let server: InstanceType<typeof Server>;
  let port: number;
  const seen: { command: string; pty: boolean }[] = [];
  const conns = new Set<Connection>();

  before(async () => {
    if (allowed instanceof Error) throw allowed;
    server = new Server({ hostKeys: [host.private] }, c => {
      conns.add(c);
      c.on('error', () => {
        /* a client refusing our host key disconnects mid-handshake */
      });
      c.on('close', () => conns.delete(c));
      c.on('authentication', ctx => {
        if (ctx.method === 'publickey' && ctx.username === 'Administrator' && ctx.key.algo === allowed.type && ctx.key.data.equals(allowed.getPublicSSH())) {
          if (!ctx.signature) return ctx.accept();
          return allowed.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) ? ctx.accept() : ctx.reject();
        }
        ctx.reject(['publickey']);
      });
      c.on('ready', () =>
        c.on('session', accept => {
          const session = accept();
          let pty = false;
          session.on('pty', ok => {
            pty = true;
            ok?.();
          });
          session.on('exec', (ok, _rej, info) => {
            seen.push({ command: info.command, pty });
            const ch = ok();
            if (info.command === 'echo %COMPUTERNAME%') {
              ch.write('WIN-1\r\n');
              ch.exit(0);
            } else {
              ch.stderr.write(`'${info.command.split(' ')[0]}' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n`);
              ch.exit(9009);
            }
            ch.end();
          });
        }),
      );
    });
    await new Promise<void>(res => server.listen(0, '127.0.0.1', () => res()));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    for (const c of conns) c.end();
    await new Promise<void>(res => server.close(() => res()));
  });

  const transport = (knownHostsLine: string) =>
    new SshTransport({
      node: 'win-1',
      host: '127.0.0.1',
      port,
      user: 'Administrator',
      privateKey: client.private,
      knownHosts: parseKnownHosts(knownHostsLine),
      knownHostsSource: 'test known_hosts',
      readyTimeoutMs: 5_000,
    });

  it('connects with the pinned key and runs a command without a pty (stdout, stderr, exit status)', async () => {
    const t = transport(`[127.0.0.1]:${port} ${blobOf(host.public)}`);
    try {
      const ok = await t.run(['cmd', '/c', 'echo %COMPUTERNAME%']);
      expect(ok).to.deep.equal({ stdout: 'WIN-1\r\n', stderr: '', exitCode: 0 });
      const bad = await t.run('nosuch.exe');
      expect(bad.exitCode).to.equal(9009);
      expect(bad.stderr).to.contain('is not recognized');
      expect(seen.map(s => s.command)).to.include.members(['echo %COMPUTERNAME%', 'nosuch.exe']);
      expect(seen.every(s => !s.pty)).to.equal(true);
      expect(t.description).to.contain('win-1');
    } finally {
      await t.close();
    }
  });

  it('matches known_hosts by node name too', async () => {
    const t = transport(`[win-1]:${port} ${blobOf(host.public)}`);
    try {
      expect((await t.run('echo %COMPUTERNAME%')).exitCode).to.equal(0);
    } finally {
      await t.close();
    }
  });

  it('refuses a mismatched host key, naming the node', async () => {
    const t = transport(`[127.0.0.1]:${port} ${blobOf(other.public)}`);
    const before = seen.length;
    let err: unknown;
    try {
      await t.run('echo %COMPUTERNAME%');
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(HostKeyError);
    expect((err as Error).message).to.equal('host key of node win-1 (127.0.0.1) does not match known_hosts: refusing to connect');
    expect(seen.length).to.equal(before);
  });

  it('refuses an unknown host key', async () => {
    const t = transport(`[10.9.9.9]:${port} ${blobOf(host.public)}`);
    let err: unknown;
    try {
      await t.connect();
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(HostKeyError);
    expect((err as Error).message).to.equal('host key of node win-1 (127.0.0.1) is not in known_hosts (test known_hosts): refusing to connect');
  });
});
