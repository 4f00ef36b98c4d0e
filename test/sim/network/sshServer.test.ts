// SSH on Windows nodes: exec round trip with the host key pinned, a mismatched host
// key refused, and unknown client keys rejected.

import { expect } from 'chai';
import ssh2 from 'ssh2';
import { Cluster } from '../../support/simNetwork.ts';
import { fingerprint, generateEd25519 } from '../../../sim/network/ssh.ts';

const { Client } = ssh2;

interface ExecResult {
  code: number | undefined;
  stdout: string;
  stderr: string;
}

function sshExec(opts: { host: string; privateKey: string; pinned: string; command: string; user?: string }): Promise<ExecResult> {
  const pinnedBlob = Buffer.from(opts.pinned.split(' ')[1], 'base64');
  return new Promise((resolve, reject) => {
    const conn = new Client();
    conn.on('error', reject);
    conn.on('ready', () => {
      conn.exec(opts.command, (err, stream) => {
        if (err) {
          conn.end();
          reject(err);
          return;
        }
        let stdout = '',
          stderr = '',
          code: number | undefined;
        stream.on('data', (d: Buffer) => {
          stdout += d;
        });
        stream.stderr.on('data', (d: Buffer) => {
          stderr += d;
        });
        stream.on('exit', (c: number) => {
          code = c;
        });
        stream.on('close', () => {
          conn.end();
          resolve({ code, stdout, stderr });
        });
      });
    });
    conn.connect({
      host: opts.host,
      port: 22,
      username: opts.user ?? 'Administrator',
      privateKey: opts.privateKey,
      readyTimeout: 3000,
      hostVerifier: (key: Buffer) => key.equals(pinnedBlob),
    });
  });
}

describe('sim network: SSH on Windows nodes', () => {
  let c: Cluster;
  const user = generateEd25519();
  afterEach(async () => {
    await c?.stop();
  });

  it('serves exec with the node host key; exit status comes back', async () => {
    c = await Cluster.start(undefined, { ssh: { authorizedKeys: [user.public] } });
    const seen: string[] = [];
    c.net.setNodeExecHandler(async (node, command, io) => {
      seen.push(`${node}:${command}`);
      io.stdout.write('ContainerAdministrator\r\n');
      io.stderr.write('warn\r\n');
      return 3;
    });
    const keys = c.net.hostKeys();
    expect(Object.keys(keys)).to.deep.equal(['win-2022']); // only the node with ssh: true
    expect(keys['win-2022'].publicKey).to.match(/^ssh-ed25519 AAAA/);
    expect(keys['win-2022'].fingerprintSha256)
      .to.equal(fingerprint(keys['win-2022'].publicKey))
      .and.match(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(c.net.knownHosts()).to.equal(`win-2022,${c.net.nodeAddress('win-2022')} ${keys['win-2022'].publicKey}\n`);
    const r = await sshExec({ host: c.net.nodeAddress('win-2022'), privateKey: user.private, pinned: keys['win-2022'].publicKey, command: 'echo %USERNAME%' });
    expect(r).to.deep.equal({ code: 3, stdout: 'ContainerAdministrator\r\n', stderr: 'warn\r\n' });
    expect(seen).to.deep.equal(['win-2022:echo %USERNAME%']);
    // The sim's own client key is accepted too.
    const own = await sshExec({
      host: c.net.nodeAddress('win-2022'),
      privateKey: c.net.sshClientKey().privateKey,
      pinned: keys['win-2022'].publicKey,
      command: 'hostname',
    });
    expect(own.code).to.equal(3);
  });

  it('a client pinning another host key refuses the connection', async () => {
    c = await Cluster.start(undefined, { ssh: { authorizedKeys: [user.public] } });
    const other = generateEd25519();
    const err = await sshExec({ host: c.net.nodeAddress('win-2022'), privateKey: user.private, pinned: other.public, command: 'whoami' }).catch(e => e);
    expect(err).to.be.instanceOf(Error);
    expect(String(err.message)).to.match(/verif/i);
  });

  it('rejects a key that is not authorized', async () => {
    c = await Cluster.start(undefined, { ssh: { authorizedKeys: [user.public] } });
    const stranger = generateEd25519();
    const pinned = c.net.hostKeys()['win-2022'].publicKey;
    const err = await sshExec({ host: c.net.nodeAddress('win-2022'), privateKey: stranger.private, pinned, command: 'whoami' }).catch(e => e);
    expect(String(err.message)).to.match(/authentication/i);
  });
});
