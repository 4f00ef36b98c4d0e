// Glue between the twin's listen() (raw sockets) and node's HTTP parser: one
// unbound http.Server per pod server, fed the accepted sockets.

import http from 'node:http';
import type { Socket } from 'node:net';

export type SocketHandler = (socket: Socket) => void;

/** Wraps a request handler as a socket handler for listen(podAddress, port, handler). */
export function httpHandler(handle: http.RequestListener): SocketHandler {
  const server = http.createServer({ keepAliveTimeout: 5000 }, handle);
  return socket => {
    socket.on('error', () => undefined);
    server.emit('connection', socket);
  };
}
