// A small NetworkTwin for the runtime's tests: real sockets on 127.77.0.0/16
// (apart from the real twin's ranges, so both can run at once), no policy, no DNS.

import net, { type Server, type Socket } from 'node:net';
import type { ConnectOptions, DnsConfig, Endpoint, NetworkTwin } from '../../sim/network/types.ts';
import { NetError } from '../../sim/network/types.ts';

export class FakeNetwork implements NetworkTwin {
  private pods = new Map<string, string>();
  private nodes = new Map<string, string>();
  private next = new Map<string, number>();
  private servers = new Set<Server>();
  private sockets = new Set<Socket>();
  released: string[] = [];

  constructor(nodeNames: string[]) {
    nodeNames.forEach((n, i) => this.nodes.set(n, `127.77.${i + 1}.1`));
  }

  nodeAddress(node: string): string {
    return this.nodes.get(node) ?? '127.77.0.1';
  }

  allocatePodIP(namespace: string, pod: string, node: string): string {
    const key = `${namespace}/${pod}`;
    const have = this.pods.get(key);
    if (have) return have;
    const n = (this.next.get(node) ?? 10) + 1;
    this.next.set(node, n);
    const ip = this.nodeAddress(node).replace(/\.1$/, `.${n}`);
    this.pods.set(key, ip);
    return ip;
  }

  releasePodIP(namespace: string, pod: string): void {
    this.pods.delete(`${namespace}/${pod}`);
    this.released.push(`${namespace}/${pod}`);
  }
  dnsServer() {
    return { address: '127.77.255.53', port: 53 };
  }
  externalHost() {
    return { address: '127.77.254.1', name: 'egress.test' };
  }

  async connect(o: ConnectOptions): Promise<Socket> {
    const host = o.host === 'localhost' ? o.from.address : o.host;
    return new Promise((resolve, reject) => {
      const s = net.connect({ host, port: o.port, localAddress: o.from.address });
      const t = setTimeout(() => {
        s.destroy();
        reject(new NetError('ETIMEDOUT', 'timeout'));
      }, o.timeoutMs);
      s.once('connect', () => {
        clearTimeout(t);
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        resolve(s);
      });
      s.once('error', e => {
        clearTimeout(t);
        reject(new NetError((e as NodeJS.ErrnoException).code === 'ECONNREFUSED' ? 'ECONNREFUSED' : 'EHOSTUNREACH', e.message));
      });
    });
  }

  async resolve(from: Endpoint, name: string, _dns: DnsConfig): Promise<string[]> {
    if (name === 'localhost') return [from.address];
    if (/^\d+\.\d+\.\d+\.\d+$/.test(name)) return [name];
    throw new NetError('ENOTFOUND', `${name}: Non-existent domain`);
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async listen(podAddress: string, port: number, onConnection: (s: Socket) => void): Promise<Server> {
    const server = net.createServer(onConnection);
    this.servers.add(server);
    server.on('close', () => this.servers.delete(server));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: podAddress, port, exclusive: true }, () => resolve());
    });
    return server;
  }

  /** Servers still listening (a stopped runtime must leave none). */
  listening(): number {
    return [...this.servers].filter(s => s.listening).length;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await Promise.all([...this.servers].map(s => new Promise<void>(r => s.close(() => r()))));
  }
}
