// Node commands over SSH (ssh2) to a Windows node's OpenSSH server: cmd.exe is its default
// shell, no pty, one exec channel per command. The host key is pinned against known_hosts:
// an unknown or mismatched key is never accepted.

import type { Client, ClientChannel } from 'ssh2';
import { MeansError } from '../cluster/meansError.ts';
import type { Transport } from '../probes/types.ts';
import type { CommandResult } from '../cluster/exec.ts';
import { windowsCommandLine } from './commandLine.ts';
import { checkHostKey, type KnownHostEntry } from './knownHosts.ts';

/** SSH handshake and authentication: a node that does not answer in this time is down. */
const READY_TIMEOUT_MS = 20_000;
/** One command, when the caller gives no deadline. */
const DEFAULT_COMMAND_TIMEOUT_MS = 60_000;

export interface SshTarget {
  /** Node name: in messages, and tried against known_hosts with the address. */
  node: string;
  /** Address to connect to (the node's InternalIP). */
  host: string;
  port?: number;
  user: string;
  privateKey: string | Buffer;
  knownHosts: KnownHostEntry[];
  /** Where known_hosts came from, for messages. */
  knownHostsSource: string;
  readyTimeoutMs?: number;
}

export class HostKeyError extends Error {}

type Conn = InstanceType<typeof Client>;

export class SshTransport implements Transport {
  readonly os = 'windows' as const;
  readonly description: string;
  private _conn?: Promise<Conn>;

  constructor(private readonly _t: SshTarget) {
    this.description = `ssh ${_t.user}@${_t.host}${_t.port && _t.port !== 22 ? `:${_t.port}` : ''} (node ${_t.node})`;
  }

  /** Connects (once; again after a drop) and verifies the host key. */
  connect(): Promise<Conn> {
    this._conn ??= this._open().catch(e => {
      this._conn = undefined;
      throw e;
    });
    return this._conn;
  }

  private async _open(): Promise<Conn> {
    const t = this._t;
    const port = t.port ?? 22;
    // Loaded on first use: ssh2 (and its WebAssembly crypto) costs ~14 MB of RSS, and most runs
    // reach their nodes through HostProcess pods.
    const {
      default: { Client: SshClient },
    } = await import('ssh2');
    return new Promise<Conn>((resolve, reject) => {
      const conn = new SshClient();
      let refused: string | undefined;
      let settled = false;
      conn.on('ready', () => {
        settled = true;
        resolve(conn);
      });
      conn.on('error', (e: Error) => {
        if (settled) return;
        settled = true;
        conn.end();
        reject(refused ? new HostKeyError(refused) : new Error(`ssh to node ${t.node} (${t.host}:${port}) failed: ${e.message}`, { cause: e }));
      });
      conn.on('close', () => {
        this._conn = undefined;
        if (!settled) {
          settled = true;
          reject(new Error(refused ?? `ssh to node ${t.node} (${t.host}:${port}) closed before it was ready`));
        }
      });
      conn.connect({
        host: t.host,
        port,
        username: t.user,
        privateKey: t.privateKey,
        readyTimeout: t.readyTimeoutMs ?? READY_TIMEOUT_MS,
        hostVerifier: (key: Buffer) => {
          const v = checkHostKey(t.knownHosts, [t.node, t.host], port, key);
          if (v.ok) return true;
          refused =
            v.reason === 'mismatch'
              ? `host key of node ${t.node} (${t.host}) does not match known_hosts: refusing to connect`
              : v.reason === 'revoked'
                ? `host key of node ${t.node} (${t.host}) is marked @revoked in known_hosts: refusing to connect`
                : `host key of node ${t.node} (${t.host}) is not in known_hosts (${t.knownHostsSource}): refusing to connect`;
          return false;
        },
      });
    });
  }

  async run(command: string[] | string, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<CommandResult> {
    const conn = await this.connect();
    const line = windowsCommandLine(command);
    const timeoutMs = opts.timeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS;
    const where = `ssh ${this._t.node}`;
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let exitCode: number | undefined;
    let exitSignal: string | undefined;
    // Listeners go on in exec's callback, synchronously: ssh2 may parse the channel's data,
    // exit-status and close from one packet batch before any awaiting code resumes.
    await new Promise<void>((resolve, reject) => {
      let stream: ClientChannel | undefined;
      const timer = setTimeout(() => {
        stream?.close();
        reject(new MeansError('node-access', `${where}: command did not finish within ${Math.round(timeoutMs / 1000)}s`));
      }, timeoutMs);
      const onAbort = () => {
        clearTimeout(timer);
        stream?.close();
        reject(new Error(`${where}: interrupted`));
      };
      if (opts.signal?.aborted) return onAbort();
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      conn.exec(line, { pty: false }, (e, s) => {
        if (e) {
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', onAbort);
          return reject(new MeansError('node-access', `${where}: exec failed: ${e.message}`, { cause: e }));
        }
        stream = s;
        s.on('data', (c: Buffer) => out.push(c));
        s.stderr.on('data', (c: Buffer) => err.push(c));
        s.on('exit', (code: number | null, signal?: string) => {
          if (typeof code === 'number') exitCode = code;
          else exitSignal = signal ?? 'unknown';
        });
        s.on('close', () => {
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', onAbort);
          resolve();
        });
        s.on('error', (x: Error) => {
          clearTimeout(timer);
          reject(new MeansError('node-access', `${where}: ${x.message}`, { cause: x }));
        });
      });
    });
    if (exitCode === undefined)
      throw new MeansError('node-access', `${where}: the channel closed without an exit status${exitSignal ? ` (signal ${exitSignal})` : ''}`);
    return { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), exitCode };
  }

  async close(): Promise<void> {
    const p = this._conn;
    this._conn = undefined;
    if (!p) return;
    const conn = await p.catch(() => undefined);
    conn?.end();
  }
}
