// The one host outside the cluster: HTTP on 127.250.k.1:80. Its answers name the
// source address it saw, so an egress probe can tell the node's outbound NAT
// (node address) from un-NATed pod traffic.

import http from 'node:http';
import type { Tracker } from './tracker.ts';

export async function startExternalHost(tracker: Tracker, address: string, port = 80): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const peer = `${req.socket.remoteAddress}:${req.socket.remotePort}`;
    res.setHeader('Server', 'wincheck-external');
    res.setHeader('X-Client-Address', req.socket.remoteAddress ?? '');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/clientip') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end(peer);
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(req.method === 'HEAD' ? undefined : '<!doctype html><html><head><title>Example Domain</title></head><body><h1>Example Domain</h1></body></html>\n');
  });
  tracker.server(server);
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen({ host: address, port, exclusive: true }, () => {
      server.off('error', rej);
      res();
    });
  });
  return server;
}
