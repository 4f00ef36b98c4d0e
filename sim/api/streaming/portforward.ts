// pods/portforward over the websocket, as the kubelet's websocket port-forward
// (and @kubernetes/client-node's PortForward) speaks it: per requested port a data
// channel 2i and an error channel 2i+1, each opened with the port as 2 bytes
// little-endian; the forwarded bytes follow on the data channel.

import type { Duplex } from 'node:stream';
import type WebSocket from 'ws';
import type { SubresourceHandlers } from '../runtimeContract.ts';
import { CLOSE, frame } from './channels.ts';

function portHeader(port: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(port, 0);
  return b;
}

export function runPortForward(ws: WebSocket, namespace: string, pod: string, ports: number[], handlers: SubresourceHandlers): void {
  const ac = new AbortController();
  const conns: (Duplex | null)[] = ports.map(() => null);
  // Data the client sends before the pod connection is up waits here.
  const pending: Buffer[][] = ports.map(() => []);
  const ended: boolean[] = ports.map(() => false);
  let open = ports.length;

  const closeAll = () => {
    if (ws.readyState === ws.OPEN) ws.close(1000);
  };

  ports.forEach((port, i) => {
    ws.send(frame(2 * i, portHeader(port)));
    ws.send(frame(2 * i + 1, portHeader(port)));
    handlers.portForward({ namespace, pod, port }, ac.signal).then(
      conn => {
        if (ac.signal.aborted) {
          conn.destroy();
          return;
        }
        conns[i] = conn;
        for (const b of pending[i]) conn.write(b);
        pending[i] = [];
        if (ended[i]) conn.end();
        conn.on('data', (d: Buffer) => {
          if (ws.readyState === ws.OPEN) ws.send(frame(2 * i, d));
        });
        conn.on('error', err => {
          if (ws.readyState === ws.OPEN) ws.send(frame(2 * i + 1, `error forwarding port ${port} to pod ${pod}: ${err.message}`));
        });
        // The pod side finished: this port's streams are done; the connection ends with the last one.
        conn.on('close', () => {
          if (--open === 0) closeAll();
        });
      },
      (err: unknown) => {
        const msg = err instanceof Error ? err.message : String(err);
        if (ws.readyState === ws.OPEN)
          ws.send(frame(2 * i + 1, `an error occurred forwarding ${port} -> ${port}: error forwarding port ${port} to pod ${pod}: ${msg}`));
        if (--open === 0) closeAll();
      },
    );
  });

  ws.on('message', (data: Buffer) => {
    if (data.length === 0) return;
    const ch = data[0];
    if (ch === CLOSE) {
      // v5-style half-close of a data channel.
      const i = data[1] / 2;
      if (Number.isInteger(i) && i < ports.length) {
        ended[i] = true;
        conns[i]?.end();
      }
      return;
    }
    if (ch % 2 !== 0 || ch / 2 >= ports.length) return;
    const i = ch / 2;
    const body = data.subarray(1);
    if (conns[i]) conns[i]!.write(body);
    else pending[i].push(Buffer.from(body));
  });
  ws.on('close', () => {
    ac.abort();
    for (const c of conns) c?.destroy();
  });
}
