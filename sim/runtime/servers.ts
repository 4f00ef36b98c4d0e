// Servers that containers run (IIS, agnhost netexec / test-webserver / serve-hostname,
// nginx, redis), really listening on the pod's address through the network twin.
// The HTTP behaviour comes from sim/network/servers/; this file starts and stops them.

import type { Server, Socket } from 'node:net';
import type { RemoteInfo } from 'node:dgram';
import type { NetworkTwin } from '../network/types.ts';
import { httpHandler } from '../network/servers/http.ts';

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
