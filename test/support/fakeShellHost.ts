// A fake ShellHost for the interpreter tests: an in-memory file system with
// read-only mounts, and a fake NetworkTwin whose connect() opens a real socket to a
// server the test started on 127.0.0.1 (mapped from a "pod" address), and rejects
// with NetError for refused / blackholed / unknown addresses.

import * as net from 'node:net';
import * as http from 'node:http';
import { FsError } from '../../sim/runtime/shell/types.ts';
import type { ShellFS, ShellHost, ShellIO, ServiceState, ComputeProcess, HnsNetwork } from '../../sim/runtime/shell/types.ts';
import { NetError } from '../../sim/network/types.ts';
import type { ConnectOptions, DnsConfig, Endpoint, NetworkTwin } from '../../sim/network/types.ts';
import { Capture } from '../../sim/runtime/shell/io.ts';
import { runCommand } from '../../sim/runtime/shell/index.ts';

export class MemFS implements ShellFS {
  private files = new Map<string, Buffer>();
  private dirs = new Set<string>();
  constructor(
    private readonlyPrefixes: string[] = [],
    private caseInsensitive = true,
  ) {}
  key(p: string): string {
    let k = p.replace(/\\/g, '/').replace(/\/+$/, '');
    if (/^[a-zA-Z]:$/.test(k)) k += '/';
    return this.caseInsensitive ? k.toLowerCase() : k;
  }
  private parent(k: string): string {
    const i = k.lastIndexOf('/');
    return i <= 2 && /^[a-z]:/.test(k) ? k.slice(0, 3) : i <= 0 ? '/' : k.slice(0, i);
  }
  private ro(k: string): boolean {
    return this.readonlyPrefixes.some(r => k === this.key(r) || k.startsWith(`${this.key(r)}/`));
  }
  addFile(p: string, data: string | Buffer): this {
    const k = this.key(p);
    this.mkdirp(this.parent(k));
    this.files.set(k, Buffer.from(data));
    return this;
  }
  addDir(p: string): this {
    this.mkdirp(this.key(p));
    return this;
  }
  private mkdirp(k: string): void {
    let cur = k;
    while (cur && !this.dirs.has(cur)) {
      this.dirs.add(cur);
      const p = this.parent(cur);
      if (p === cur) break;
      cur = p;
    }
  }
  read(p: string): Buffer {
    const k = this.key(p);
    const f = this.files.get(k);
    if (f) return f;
    if (this.dirs.has(k)) throw new FsError('EISDIR', p);
    throw new FsError('ENOENT', p);
  }
  write(p: string, data: Buffer, opts?: { append?: boolean }): void {
    const k = this.key(p);
    if (this.ro(k)) throw new FsError('EACCES', p);
    if (!this.dirs.has(this.parent(k))) throw new FsError('ENOENT', p);
    if (this.dirs.has(k)) throw new FsError('EISDIR', p);
    const prev = opts?.append ? (this.files.get(k) ?? Buffer.alloc(0)) : Buffer.alloc(0);
    this.files.set(k, Buffer.concat([prev, data]));
  }
  list(p: string): { name: string; dir: boolean; size: number; mtime: Date }[] {
    const k = this.key(p);
    if (!this.dirs.has(k)) throw new FsError('ENOENT', p);
    const out: { name: string; dir: boolean; size: number; mtime: Date }[] = [];
    const mtime = new Date(Date.UTC(2026, 10, 30, 3, 31));
    for (const d of this.dirs) if (d !== k && this.parent(d) === k) out.push({ name: d.slice(d.lastIndexOf('/') + 1), dir: true, size: 0, mtime });
    for (const [f, b] of this.files) if (this.parent(f) === k) out.push({ name: f.slice(f.lastIndexOf('/') + 1), dir: false, size: b.length, mtime });
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }
  exists(p: string): boolean {
    const k = this.key(p);
    return this.files.has(k) || this.dirs.has(k);
  }
  isDir(p: string): boolean {
    return this.dirs.has(this.key(p));
  }
  mkdir(p: string): void {
    const k = this.key(p);
    if (this.ro(k)) throw new FsError('EACCES', p);
    if (!this.dirs.has(this.parent(k))) throw new FsError('ENOENT', p);
    this.dirs.add(k);
  }
  remove(p: string): void {
    const k = this.key(p);
    if (this.ro(k)) throw new FsError('EACCES', p);
    if (!this.files.delete(k) && !this.dirs.delete(k)) throw new FsError('ENOENT', p);
  }
}

export interface FakeNetOptions {
  /** "ip:port" -> a real port on 127.0.0.1 */
  open?: Record<string, number>;
  /** addresses that never answer (ETIMEDOUT after timeoutMs) */
  blackhole?: string[];
  names?: Record<string, string[]>;
  servfail?: string[];
  pingable?: string[];
}

export class FakeNet implements NetworkTwin {
  connects: ConnectOptions[] = [];
  constructor(private o: FakeNetOptions) {}
  allocatePodIP(): string {
    return '10.244.0.5';
  }
  releasePodIP(): void {}
  nodeAddress(): string {
    return '10.0.0.100';
  }
  dnsServer(): { address: string; port: number } {
    return { address: '10.96.0.10', port: 53 };
  }
  externalHost(): { address: string; name: string } {
    return { address: '10.0.0.200', name: 'outside.example' };
  }
  async connect(opts: ConnectOptions): Promise<net.Socket> {
    this.connects.push(opts);
    const real = this.o.open?.[`${opts.host}:${opts.port}`];
    if (real !== undefined) {
      return new Promise((resolve, reject) => {
        const s = net.connect({ host: '127.0.0.1', port: real });
        s.once('connect', () => resolve(s));
        s.once('error', reject);
      });
    }
    if (this.o.blackhole?.includes(opts.host)) {
      await new Promise(r => setTimeout(r, opts.timeoutMs));
      throw new NetError('ETIMEDOUT', `connect ETIMEDOUT ${opts.host}:${opts.port}`);
    }
    throw new NetError('ECONNREFUSED', `connect ECONNREFUSED ${opts.host}:${opts.port}`);
  }
  /** Like the twin: single-label names get the search suffixes, dotted names are FQDNs (Windows rule). */
  async resolve(_from: Endpoint, name: string, dns: DnsConfig): Promise<string[]> {
    const n = name.toLowerCase().replace(/\.$/, '');
    if (this.o.servfail?.includes(n)) throw new NetError('SERVFAIL', `SERVFAIL ${name}`);
    const candidates = n.includes('.') ? [n] : dns.searches.map(s => `${n}.${s}`);
    const a = candidates.map(c => this.o.names?.[c]).find(x => x !== undefined);
    if (!a) throw new NetError('ENOTFOUND', `ENOTFOUND ${name}`);
    return a;
  }
  async ping(_from: Endpoint, host: string): Promise<boolean> {
    return this.o.pingable?.includes(host) ?? false;
  }
  async listen(): Promise<net.Server> {
    throw new Error('not used');
  }
  async stop(): Promise<void> {}
}

export function winHost(over: Partial<ShellHost> = {}, netOpts: FakeNetOptions = {}): ShellHost {
  const fs = new MemFS(['C:\\ro']).addDir('C:\\ro').addDir('C:\\data').addFile('C:\\data\\hello.txt', 'line1\r\nline2\r\n');
  const bins = [
    'cmd.exe',
    'powershell.exe',
    'pwsh.exe',
    'curl.exe',
    'nslookup.exe',
    'ping.exe',
    'ipconfig.exe',
    'hostname.exe',
    'whoami.exe',
    'sc.exe',
    'agnhost.exe',
    'findstr.exe',
  ];
  return {
    os: 'windows',
    windowsBuild: '10.0.20348.2582',
    hostname: 'iis-7c7757c8bf-24fh4',
    user: 'ContainerUser',
    env: {
      USERNAME: 'ContainerUser',
      USERDOMAIN: 'User Manager',
      COMPUTERNAME: 'IIS-7C7757C8BF-',
      Path: 'C:\\Windows\\system32;C:\\Windows',
      PATHEXT: '.COM;.EXE;.BAT;.CMD',
      OS: 'Windows_NT',
      EMPTY: '',
    },
    fs,
    endpoint: { kind: 'pod', id: 'ns/iis', os: 'windows', node: 'win1', address: '10.244.1.5' },
    dns: { nameservers: ['10.96.0.10'], searches: ['ns.svc.cluster.local', 'svc.cluster.local', 'cluster.local'], ndots: 5 },
    net: new FakeNet(netOpts),
    interfaces: [{ name: 'abc123_eth0', address: '10.244.1.5', prefixLength: 24, gateway: '10.244.1.1' }],
    hasBinary: n => bins.includes(n),
    ...over,
  };
}

export function linuxHost(over: Partial<ShellHost> = {}, netOpts: FakeNetOptions = {}): ShellHost {
  const fs = new MemFS(['/ro'], false).addDir('/ro').addDir('/tmp').addFile('/etc/hostname', 'linux-pod\n');
  const bins = ['sh', 'nc', 'wget', 'nslookup', 'ping', 'curl', 'agnhost'];
  return {
    os: 'linux',
    hostname: 'linux-pod',
    user: 'root',
    env: { HOME: '/root', PATH: '/usr/bin:/bin' },
    fs,
    endpoint: { kind: 'pod', id: 'ns/linux', os: 'linux', node: 'lin1', address: '10.244.2.7' },
    dns: { nameservers: ['10.96.0.10'], searches: ['ns.svc.cluster.local', 'svc.cluster.local', 'cluster.local'], ndots: 5 },
    net: new FakeNet(netOpts),
    interfaces: [{ name: 'eth0', address: '10.244.2.7', prefixLength: 24 }],
    hasBinary: n => bins.includes(n),
    ...over,
  };
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  out: Buffer;
}

export async function run(argv: string[], host: ShellHost, opts: { abortAfterMs?: number; stdin?: string } = {}): Promise<RunResult> {
  const stdout = new Capture();
  const stderr = new Capture();
  const ac = new AbortController();
  const t = opts.abortAfterMs !== undefined ? setTimeout(() => ac.abort('SIGTERM'), opts.abortAfterMs) : undefined;
  const { Readable } = await import('node:stream');
  const io: ShellIO = { stdin: opts.stdin !== undefined ? Readable.from([Buffer.from(opts.stdin)]) : null, stdout, stderr, signal: ac.signal };
  try {
    const code = await runCommand(argv, host, io);
    return { code, stdout: stdout.text(), stderr: stderr.text(), out: stdout.buffer() };
  } finally {
    if (t) clearTimeout(t);
  }
}

/** A tiny HTTP server on 127.0.0.1: / -> 200 "hello", /missing -> 404. */
export async function startHttp(): Promise<{ port: number; close: () => Promise<void> }> {
  const srv = http.createServer((req, res) => {
    if (req.url === '/missing') {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('nope');
      return;
    }
    if (req.url === '/json') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"name":"x","n":2}');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('hello');
  });
  await new Promise<void>(r => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise(r => {
        srv.closeAllConnections();
        srv.close(() => r());
      }),
  };
}

export function nodeViews(vms: ComputeProcess[] = [], services: ServiceState[] = [], hns: HnsNetwork[] = []): ShellHost['node'] {
  return { services: () => services, hnsNetworks: () => hns, computeProcesses: () => vms };
}
