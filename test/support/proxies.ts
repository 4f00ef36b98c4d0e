// What stands between a real user and the API server, on loopback: an HTTP CONNECT proxy, a
// socks5 proxy (RFC 1928, no authentication), and a TLS front serving the API server under a path
// prefix (as Rancher's https://rancher.example/k8s/clusters/<id>). Each counts what went through.

import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https';
import { connect as netConnect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { Duplex } from 'node:stream';
import { generateClusterCerts } from '../../sim/api/certs.ts';

export interface Proxy {
  url: string;
  /** Tunnels opened, by target host:port. */
  tunnels: string[];
  close(): Promise<void>;
}

function closer(server: Server, sockets: Set<Duplex>): () => Promise<void> {
  return () =>
    new Promise(resolve => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

function track(sockets: Set<Duplex>, s: Duplex): void {
  sockets.add(s);
  s.on('close', () => sockets.delete(s));
  s.on('error', () => s.destroy());
}

function listen(server: Server): Promise<number> {
  return new Promise(resolve => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

/**
 * An HTTP proxy that only tunnels (CONNECT); `resolve` maps host names to loopback addresses.
 * With `tls` (a serving key and certificate for 127.0.0.1) it is an https proxy: the client
 * speaks TLS to the proxy, then CONNECT inside it.
 */
export async function startConnectProxy(resolve: Record<string, string> = {}, tls?: { key: string; cert: string }): Promise<Proxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Duplex>();
  const refuse = (_req: IncomingMessage, res: ServerResponse) => res.writeHead(405).end();
  const server = tls ? createHttpsServer(tls, refuse) : createHttpServer(refuse);
  // An https server's "connection" is the raw TCP socket; the TLS socket comes as secureConnection.
  if (tls) server.on('secureConnection', (s: Duplex) => track(sockets, s));
  server.on('connection', s => track(sockets, s));
  server.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const [host, port] = (req.url ?? '').split(':');
    tunnels.push(req.url ?? '');
    const upstream = netConnect(Number(port), resolve[host] ?? host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    track(sockets, upstream);
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
  });
  const port = await listen(server as unknown as Server);
  return { url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`, tunnels, close: closer(server as unknown as Server, sockets) };
}

/** A socks5 proxy: no authentication, CONNECT only. */
export async function startSocks5Proxy(): Promise<Proxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Duplex>();
  const server = createNetServer(client => {
    track(sockets, client);
    let buf = Buffer.alloc(0);
    let stage: 'greeting' | 'request' | 'piped' = 'greeting';
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      if (stage === 'greeting') {
        if (buf.length < 2 || buf.length < 2 + buf[1]) return;
        buf = buf.subarray(2 + buf[1]);
        client.write(Buffer.from([5, 0]));
        stage = 'request';
      }
      if (stage === 'request') {
        if (buf.length < 5) return;
        const atyp = buf[3];
        const len = atyp === 1 ? 4 : atyp === 4 ? 16 : 1 + buf[4];
        if (buf.length < 4 + len + 2) return;
        const host = atyp === 1 ? [...buf.subarray(4, 8)].join('.') : atyp === 3 ? buf.subarray(5, 5 + buf[4]).toString() : '::1';
        const port = buf.readUInt16BE(4 + len);
        const rest = buf.subarray(4 + len + 2);
        stage = 'piped';
        client.off('data', onData);
        tunnels.push(`${host}:${port}`);
        const upstream = netConnect(port, host, () => {
          client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
          if (rest.length) upstream.write(rest);
          upstream.pipe(client).pipe(upstream);
        });
        track(sockets, upstream);
        upstream.on('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])));
      }
    };
    client.on('data', onData);
  });
  const port = await listen(server);
  return { url: `socks5://127.0.0.1:${port}`, tunnels, close: closer(server, sockets) };
}

export interface PrefixFront extends Proxy {
  /** The server URL with the prefix, and the front's own CA. */
  server: string;
  caPem: string;
}

/** HTTPS on its own CA, serving `upstream` (the sim's https URL) under `prefix`; anything else is 404. */
export async function startPrefixFront(upstream: string, prefix: string): Promise<PrefixFront> {
  const certs = generateClusterCerts();
  const target = new URL(upstream);
  const tunnels: string[] = [];
  const sockets = new Set<Duplex>();
  const strip = (path: string | undefined) => (path?.startsWith(`${prefix}/`) || path === prefix ? path.slice(prefix.length) || '/' : undefined);
  const server = createHttpsServer({ key: certs.serverKeyPem, cert: certs.serverCertPem }, (req, res) => {
    const path = strip(req.url);
    tunnels.push(req.url ?? '');
    if (!path) return res.writeHead(404, { 'Content-Type': 'text/plain' }).end('404 page not found\n');
    const fwd = httpsRequest(
      { host: target.hostname, port: target.port, path, method: req.method, headers: { ...req.headers, host: target.host }, rejectUnauthorized: false },
      up => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    fwd.on('error', () => res.destroy());
    req.pipe(fwd);
  });
  server.on('connection', (s: Socket) => track(sockets, s));
  server.on('upgrade', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    const path = strip(req.url);
    tunnels.push(req.url ?? '');
    if (!path) return client.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    const up = tlsConnect({ host: target.hostname, port: Number(target.port), rejectUnauthorized: false }, () => {
      const lines = [`${req.method} ${path} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i].toLowerCase() === 'host' ? target.host : req.rawHeaders[i + 1]}`);
      up.write(lines.join('\r\n') + '\r\n\r\n');
      up.write(head);
      up.pipe(client).pipe(up);
    });
    track(sockets, up);
  });
  const port = await listen(server as unknown as Server);
  return {
    url: `https://127.0.0.1:${port}`,
    server: `https://127.0.0.1:${port}${prefix}`,
    caPem: certs.caPem,
    tunnels,
    close: closer(server as unknown as Server, sockets),
  };
}
