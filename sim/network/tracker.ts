// Everything the twin opens, so stop() can close it all: servers, UDP sockets,
// accepted and outbound sockets, and the timers of connections that hang on purpose.

import type { Server, Socket } from 'node:net';
import type { Socket as UdpSocket } from 'node:dgram';

export class Tracker {
  private servers = new Set<Server>();
  private udp = new Set<UdpSocket>();
  private sockets = new Set<Socket>();
  private timers = new Map<NodeJS.Timeout, () => void>();
  private closers = new Set<() => Promise<void> | void>();
  stopped = false;

  server(s: Server): Server {
    this.servers.add(s);
    s.on('connection', c => this.socket(c));
    s.on('close', () => this.servers.delete(s));
    // A listen that failed never closes: forget it, or stop() would wait for it.
    s.on('error', () => {
      if (!s.listening) this.servers.delete(s);
    });
    return s;
  }

  udpSocket(s: UdpSocket): UdpSocket {
    this.udp.add(s);
    s.on('close', () => this.udp.delete(s));
    return s;
  }

  socket(c: Socket): Socket {
    this.sockets.add(c);
    c.on('close', () => this.sockets.delete(c));
    return c;
  }

  timer(fn: () => void, ms: number): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.set(t, fn);
    return t;
  }

  clearTimer(t: NodeJS.Timeout): void {
    clearTimeout(t);
    this.timers.delete(t);
  }

  /** Something else to close on stop (an ssh2 server, a watch). */
  onStop(fn: () => Promise<void> | void): void {
    this.closers.add(fn);
  }

  async closeAll(): Promise<void> {
    this.stopped = true;
    // Fire pending deadlines now: a connect hanging on purpose fails instead of never settling.
    const due = [...this.timers];
    this.timers.clear();
    for (const [t, fn] of due) {
      clearTimeout(t);
      try {
        fn();
      } catch {
        /* closing anyway */
      }
    }
    for (const c of this.sockets) c.destroy();
    const waits: Promise<unknown>[] = [];
    for (const s of this.servers) {
      waits.push(
        new Promise<void>(res => {
          // A listen still in progress would bind after close(): close once it is up (or failed).
          if (s.listening) s.close(() => res());
          else {
            s.once('listening', () => s.close(() => res()));
            s.once('error', () => res());
            s.once('close', () => res());
          }
        }),
      );
    }
    for (const u of this.udp)
      waits.push(
        new Promise<void>(res => {
          try {
            u.close(() => res());
          } catch {
            res();
          }
        }),
      );
    for (const fn of this.closers)
      waits.push(
        Promise.resolve()
          .then(fn)
          .catch(() => undefined),
      );
    await Promise.all(waits);
  }
}

/** Holds an accepted connection silent: what a dropped path looks like once accepted. */
export function hold(c: Socket): void {
  c.on('error', () => undefined);
  c.pause();
}
