// Servers that containers run (IIS, agnhost netexec / test-webserver / serve-hostname,
// nginx, redis), really listening on the pod's address through the network twin.
// The HTTP behaviour comes from sim/network/servers/; this file starts and stops them.

import type { Server, Socket } from 'node:net';
import type { RemoteInfo } from 'node:dgram';
import type { NetworkTwin } from '../network/types.ts';
import { httpHandler } from '../network/servers/http.ts';
import type { NetexecContext } from '../network/servers/netexec.ts';
import type { ShellHost } from './shell/types.ts';
import { httpRequest } from './shell/tools/http.ts';

export { iisServer } from '../network/servers/iis.ts';
export { netexecServer, netexecUdpReply } from '../network/servers/netexec.ts';
export { testWebserver, nginxServer } from '../network/servers/webserver.ts';

export interface ServerHandle {
  port: number;
  close(): Promise<void>;
}

/** Listens on address:port; the handle closes the listener and every accepted socket. */
export async function startServer(net: NetworkTwin, address: string, port: number, onConnection: (s: Socket) => void): Promise<ServerHandle> {
  const sockets = new Set<Socket>();
  const listener: Server = await net.listen(address, port, s => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    onConnection(s);
  });
  return {
    port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise(resolve => {
        if (!listener.listening) return resolve();
        listener.close(() => resolve());
      });
    },
  };
}

type UdpTwin = { listenUdp?(address: string, port: number, onMessage: (msg: Buffer, rinfo: RemoteInfo, reply: (b: Buffer) => void) => void): Promise<Socket4> };
type Socket4 = { close(cb?: () => void): void };

/** A UDP server in a pod, where the twin offers listenUdp (the full SimNetwork does); undefined otherwise. */
export async function startUdp(
  net: NetworkTwin,
  address: string,
  port: number,
  reply: (msg: Buffer, rinfo: RemoteInfo) => Buffer | undefined,
): Promise<ServerHandle | undefined> {
  const twin = net as NetworkTwin & UdpTwin;
  if (!twin.listenUdp) return undefined;
  const sock = await twin.listenUdp(address, port, (msg, rinfo, send) => {
    const r = reply(msg, rinfo);
    if (r) send(r);
  });
  return {
    port,
    close: () =>
      new Promise(resolve => {
        try {
          sock.close(() => resolve());
        } catch {
          resolve();
        }
      }),
  };
}

/** agnhost serve-hostname: every request answers the pod name. */
export const serveHostname = (name: string) =>
  httpHandler((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end(name);
  });

/** redis-server: answers PING with +PONG (enough for a TCP or exec probe). */
export function redisConnection(s: Socket): void {
  s.on('data', d => {
    s.write(d.toString().toUpperCase().includes('PING') ? '+PONG\r\n' : '-ERR unknown command\r\n');
  });
  s.on('error', () => {});
}

/** agnhost's dial timeouts: the HTTP client's 5 s and the UDP read deadline's 5 s (netexec.go). */
const DIAL_TIMEOUT_MS = 5000;

/**
 * netexec /dial from a container's network view: HTTP GET http://host:port/<request>, or one UDP
 * datagram and its reply, failing with the error text agnhost's Go code prints.
 */
export function netexecDialer(host: () => ShellHost | undefined): NonNullable<NetexecContext['dial']> {
  return async (protocol, request, address, port) => {
    const h = host();
    if (!h) throw new Error(`dial ${protocol} ${address}:${port}: the container has no network yet`);
    if (protocol === 'udp') {
      if (!h.net.exchangeUdp) throw new Error('udp dial failed. err:UDP is not simulated here');
      try {
        const r = await h.net.exchangeUdp({ from: h.endpoint, host: address, port, payload: Buffer.from(request), timeoutMs: DIAL_TIMEOUT_MS });
        return r.reply.toString();
      } catch {
        throw new Error(`reading from udp connection failed. err:'read udp ${h.endpoint.address}->${address}:${port}: i/o timeout'`);
      }
    }
    const url = `http://${address}:${port}/${request}`;
    const r = await httpRequest(h, {
      url: new URL(url),
      method: 'GET',
      headers: [],
      insecure: false,
      connectTimeoutMs: DIAL_TIMEOUT_MS,
      maxTimeMs: DIAL_TIMEOUT_MS,
      signal: AbortSignal.timeout(DIAL_TIMEOUT_MS + 1000),
    });
    if (r.ok) return r.res.body.toString();
    const f = r.failure;
    if (f.kind === 'connect' && f.code === 'ECONNREFUSED') throw new Error(`Get "${url}": dial tcp ${address}:${port}: connect: connection refused`);
    if (f.kind === 'connect' && f.code === 'EHOSTUNREACH') throw new Error(`Get "${url}": dial tcp ${address}:${port}: connect: no route to host`);
    throw new Error(`Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`);
  };
}
