// What netstat in a pod (or on a node) can see: the listeners the twin opened for
// servers in pods (listen / listenUdp), the connections they accepted, and the
// connections pods opened through connect(). Keyed by the owner's own address (the
// pod's network compartment). A real socket table has far more; these are the ones
// the twin knows, and exactly the ones a probe can have caused.

import type { Server, Socket } from 'node:net';
import type { Socket as UdpSocket } from 'node:dgram';
import { toIPv4 } from './addresses.ts';
import type { SocketEntry } from './types.ts';

interface Listening {
  proto: 'TCP' | 'UDP';
  address: string;
  port: number;
}

export class SocketTable {
  private listeners = new Map<Server | UdpSocket, Listening>();
  /** Accepted connections, with the listener address they were accepted on. */
  private accepted = new Map<Socket, string>();
  /** Outbound connections from an endpoint, by the endpoint's own address. */
  private outbound = new Map<Socket, string>();

  /**
   * @param originalDestination preserve-destination side channel: the Service address a
   *   proxied connection was sent to ("ip:port"), undefined when it was DNATed.
   */
  constructor(private originalDestination: (peer: string, peerPort: number) => string | undefined) {}

  tcpServer(server: Server, address: string, port: number): void {
    this.listeners.set(server, { proto: 'TCP', address: toIPv4(address), port });
    server.on('close', () => this.listeners.delete(server));
    server.on('connection', (c: Socket) => {
      this.accepted.set(c, toIPv4(address));
      c.on('close', () => this.accepted.delete(c));
    });
  }

  udpSocket(sock: UdpSocket, address: string, port: number): void {
    this.listeners.set(sock, { proto: 'UDP', address: toIPv4(address), port });
    sock.on('close', () => this.listeners.delete(sock));
  }

  dialed(sock: Socket, owner: string): void {
    this.outbound.set(sock, toIPv4(owner));
    sock.on('close', () => this.outbound.delete(sock));
  }

  /**
   * The sockets of the compartment whose address is `address`. Servers in pods listen on
   * every address of the pod (agnhost, IIS: ":8080", "*:80"), so listeners show as the
   * wildcard. An accepted connection's local address is the pod's, unless the Service
   * skipped DNAT (preserve-destination): then the packets arrived addressed to the
   * Service's VIP, which is the local address the backend's stack reports; the port stays
   * the listener's (the backend accepted it on its own port).
   */
  of(address: string): SocketEntry[] {
    const me = toIPv4(address);
    const out: SocketEntry[] = [];
    for (const l of this.listeners.values()) {
      if (l.address !== me) continue;
      out.push({ proto: l.proto, local: { address: '0.0.0.0', port: l.port }, ...(l.proto === 'TCP' ? { state: 'LISTENING' as const } : {}) });
    }
    for (const [c, owner] of this.accepted) {
      if (owner !== me || c.destroyed || !c.remoteAddress || c.remotePort === undefined || c.localPort === undefined) continue;
      const peer = toIPv4(c.remoteAddress);
      const vip = this.originalDestination(peer, c.remotePort)?.replace(/:\d+$/, '');
      out.push({ proto: 'TCP', local: { address: vip ?? me, port: c.localPort }, foreign: { address: peer, port: c.remotePort }, state: 'ESTABLISHED' });
    }
    for (const [c, owner] of this.outbound) {
      if (owner !== me || c.destroyed || c.localPort === undefined || !c.remoteAddress || c.remotePort === undefined) continue;
      // The pod's own view: its address, even where the node NATs the packet on the way out.
      out.push({
        proto: 'TCP',
        local: { address: me, port: c.localPort },
        foreign: { address: toIPv4(c.remoteAddress), port: c.remotePort },
        state: 'ESTABLISHED',
      });
    }
    return out;
  }
}
