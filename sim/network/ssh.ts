// OpenSSH on Windows nodes (profile `ssh: true`): a real ssh2 server on
// nodeAddress:22 with the node's own ed25519 host key, public-key auth for one user,
// and `exec` requests handed to the runtime (cmd.exe is the default shell there).
// No pty and no interactive shell: probes run one command per channel.

import { createHash } from 'node:crypto';
import { timingSafeEqual } from 'node:crypto';
import ssh2 from 'ssh2';
import type { Connection, ParsedKey, ServerChannel } from 'ssh2';
import type { ExecStreams } from '../api/runtimeContract.ts';
import type { Tracker } from './tracker.ts';

const { Server, utils } = ssh2;

/** Runs a command on a node for an SSH exec request; resolves to the exit code. */
export type NodeExecHandler = (node: string, command: string, streams: ExecStreams, signal: AbortSignal) => Promise<number>;

export interface HostKeyInfo {
  publicKey: string;
  fingerprintSha256: string;
}

export interface SshOptions {
  /** OpenSSH public keys ("ssh-ed25519 AAAA... comment") allowed to log in. */
  authorizedKeys?: string[];
  /** The account name (Windows: case-insensitive). Default "Administrator". */
  user?: string;
  port?: number;
}

interface NodeKey {
  privateKey: string;
  info: HostKeyInfo;
}

export class SshServers {
  private keys = new Map<string, NodeKey>(); // node -> host key
  private addresses = new Map<string, string>(); // node -> address
  private handler: NodeExecHandler | undefined;
  private allowed: ParsedKey[] = [];
  readonly clientKey: { privateKey: string; publicKey: string };
  private user: string;

  constructor(
    private tracker: Tracker,
    private opts: SshOptions = {},
  ) {
    const k = generateEd25519();
    this.clientKey = { privateKey: k.private, publicKey: k.public };
    this.user = opts.user ?? 'Administrator';
    // The sim's own client key is always authorized, so the sim can reach its nodes.
    for (const line of [...(opts.authorizedKeys ?? []), this.clientKey.publicKey]) {
      const parsed = utils.parseKey(line.trim());
      if (parsed instanceof Error) throw new Error(`network: bad authorized SSH key: ${parsed.message}`);
      this.allowed.push(parsed);
    }
  }

  setHandler(fn: NodeExecHandler | undefined): void {
    this.handler = fn;
  }

  async start(node: string, address: string): Promise<void> {
    const k = generateEd25519();
    this.keys.set(node, { privateKey: k.private, info: { publicKey: k.public, fingerprintSha256: fingerprint(k.public) } });
    this.addresses.set(node, address);
    const server = new Server({ hostKeys: [k.private], ident: 'OpenSSH_for_Windows_9.5' }, client => this.onClient(node, client));
    const conns = new Set<Connection>();
    server.on('connection', c => {
      conns.add(c);
      c.on('close', () => conns.delete(c));
    });
    this.tracker.onStop(
      () =>
        new Promise<void>(res => {
          for (const c of conns) c.end();
          server.close(() => res());
        }),
    );
    await new Promise<void>((res, rej) => {
      server.once('error', rej);
      server.listen(this.opts.port ?? 22, address, () => {
        server.off('error', rej);
        res();
      });
    });
  }

  hostKeys(): Record<string, HostKeyInfo> {
    return Object.fromEntries([...this.keys].map(([n, k]) => [n, { ...k.info }]));
  }

  /** known_hosts lines: "<node>,<address> ssh-ed25519 AAAA..." (port 22: no brackets). */
  knownHosts(): string {
    const port = this.opts.port ?? 22;
    return (
      [...this.keys]
        .map(([n, k]) => {
          const addr = this.addresses.get(n) ?? '';
          const hosts = port === 22 ? `${n},${addr}` : `[${n}]:${port},[${addr}]:${port}`;
          return `${hosts} ${k.info.publicKey.split(' ').slice(0, 2).join(' ')}`;
        })
        .join('\n') + '\n'
    );
  }

  private onClient(node: string, client: Connection): void {
    client.on('error', () => undefined);
    client.on('authentication', ctx => {
      if (ctx.username.toLowerCase() !== this.user.toLowerCase() || ctx.method !== 'publickey') return ctx.reject(['publickey']);
      const key = this.allowed.find(a => a.type === ctx.key.algo && safeEqual(a.getPublicSSH(), ctx.key.data));
      if (!key) return ctx.reject(['publickey']);
      // Without a signature the client only asks whether the key would do (RFC 4252 7).
      if (ctx.signature && ctx.blob && key.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true) return ctx.reject(['publickey']);
      ctx.accept();
    });
    client.on('ready', () => {
      client.on('session', accept => {
        const session = accept();
        session.on('pty', (_a, reject) => reject?.());
        session.on('shell', (_a, reject) => reject?.());
        session.on('exec', (acc, _rej, info) => this.exec(node, acc(), info.command));
      });
    });
  }

  private exec(node: string, ch: ServerChannel, command: string): void {
    const ac = new AbortController();
    ch.on('close', () => ac.abort());
    ch.on('error', () => undefined);
    const finish = (code: number) => {
      if (ch.destroyed) return;
      ch.exit(code);
      ch.end();
    };
    if (!this.handler) {
      ch.stderr.write(`'${command.split(' ')[0]}' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n`);
      return finish(1);
    }
    this.handler(node, command, { stdin: ch, stdout: ch, stderr: ch.stderr }, ac.signal).then(finish, e => {
      ch.stderr.write(`${e instanceof Error ? e.message : String(e)}\r\n`);
      finish(1);
    });
  }
}

/**
 * An ed25519 key pair in OpenSSH format. ssh2's generator drops a leading zero byte of
 * the public key now and then (about 1 in 200), giving a key nobody can parse: retry.
 */
export function generateEd25519(): { private: string; public: string } {
  for (;;) {
    const k = utils.generateKeyPairSync('ed25519');
    const pub = utils.parseKey(k.public),
      priv = utils.parseKey(k.private);
    if (!(pub instanceof Error) && !(priv instanceof Error) && pub.getPublicSSH().equals(priv.getPublicSSH())) return k;
  }
}

/** OpenSSH's fingerprint: "SHA256:" + unpadded base64 of the SHA-256 of the key blob. */
export function fingerprint(publicKey: string): string {
  const blob = Buffer.from(publicKey.trim().split(/\s+/)[1], 'base64');
  return 'SHA256:' + createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
}

function safeEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
