// Shared test helpers: deadlines instead of sleeps, and a loopback HTTP server that
// routes pod streaming upgrades to sim/api/streaming.ts.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { handleStreamingUpgrade } from '../../sim/api/streaming/index.ts';
import { Store } from '../../sim/api/store.ts';
import type { SubresourceHandlers } from '../../sim/api/runtimeContract.ts';

/** Resolves with p, or rejects when it has not settled within ms. */
export function deadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
    }),
  ]);
}

export function storeWithPod(pod: { name: string; containers: string[]; phase?: string; nodeName?: string }): Store {
  const store = new Store();
  store.registerNamespaced('pods');
  store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
  store.create('pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: pod.name, namespace: 'ns' },
    spec: { nodeName: pod.nodeName ?? 'win-1', containers: pod.containers.map(name => ({ name, image: 'img' })) },
    status: { phase: pod.phase ?? 'Running' },
  });
  return store;
}

export interface StreamServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

const STREAM_PATH = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/(exec|attach|portforward)$/;

export async function streamServer(store: Store, handlers: SubresourceHandlers): Promise<StreamServer> {
  const server = createServer((_req, res) => {
    res.writeHead(404);
    res.end();
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const m = STREAM_PATH.exec(url.pathname);
    if (!m) {
      socket.destroy();
      return;
    }
    handleStreamingUpgrade(
      req,
      socket,
      head,
      {
        namespace: m[1],
        pod: m[2],
        subresource: m[3] as 'exec' | 'attach' | 'portforward',
        query: url.searchParams,
      },
      handlers,
      store,
    );
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
