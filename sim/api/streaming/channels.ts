// The channel framing of the Kubernetes streaming websocket protocols
// (channel.k8s.io, v2..v5.channel.k8s.io): each binary message starts with the
// channel byte; v5 adds a "close channel" message [255, channel].

import { Writable } from 'node:stream';
import WebSocket from 'ws';

export const STDIN = 0;
export const STDOUT = 1;
export const STDERR = 2;
export const ERROR = 3;
export const RESIZE = 4;
export const CLOSE = 255;

export const EXEC_PROTOCOLS = ['v5.channel.k8s.io', 'v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'];
/** The kubelet's websocket port-forward speaks v4 framing (or the unversioned one). */
export const PORTFORWARD_PROTOCOLS = ['v4.channel.k8s.io', 'channel.k8s.io'];

/** The server's choice among the client's offered subprotocols, in the server's preference order. */
export function pickProtocol(offered: Set<string>, supported: string[]): string | false {
  return supported.find(p => offered.has(p)) ?? false;
}

export function frame(channel: number, data: Buffer | string): Buffer {
  const body = typeof data === 'string' ? Buffer.from(data) : data;
  return Buffer.concat([Buffer.from([channel]), body]);
}

/** A Writable whose chunks go out as messages on one channel (dropped once the socket is gone). */
export function channelWriter(ws: WebSocket, channel: number): Writable {
  return new Writable({
    write(chunk: Buffer | string, enc, cb) {
      if (ws.readyState !== WebSocket.OPEN) {
        cb();
        return;
      }
      const buf = typeof chunk === 'string' ? Buffer.from(chunk, enc) : chunk;
      if (buf.length === 0) {
        cb();
        return;
      }
      ws.send(frame(channel, buf), { binary: true }, () => cb());
    },
  });
}

/** Ends a writer and waits until everything it took has been handed to the socket. */
export function finish(w: Writable): Promise<void> {
  return new Promise(resolve => {
    if (w.writableFinished || w.destroyed) {
      resolve();
      return;
    }
    // A runtime may end or destroy the stream itself: any of these means nothing more will go out.
    for (const ev of ['finish', 'close', 'error']) w.once(ev, () => resolve());
    w.end();
  });
}

/** Sends a message, resolving once ws has taken it (or at once when the socket is gone). */
export function send(ws: WebSocket, data: Buffer): Promise<void> {
  return new Promise(resolve => {
    if (ws.readyState !== WebSocket.OPEN) {
      resolve();
      return;
    }
    ws.send(data, { binary: true }, () => resolve());
  });
}
