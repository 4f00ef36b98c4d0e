// The client outside the cluster: the machine running wincheck, reaching a NodePort or a
// LoadBalancer with a plain Node.js HTTP client (no pod involved). Its evidence has the same
// shape as a pod probe's, with the local address the connection left from (the client IP a
// backend should see when it is preserved).

import http from 'node:http';
import net from 'node:net';
import type { Attempt } from './steady.ts';

export const HARNESS_TRANSPORT = 'wincheck host (Node.js http client)';

export interface ExternalAttempt extends Attempt {
  body: string;
  /** The address this host's socket was bound to, when it connected. */
  localAddress?: string;
}

/** GET url from this process; ok = HTTP 2xx/3xx (as curl --fail). */
export function httpGetFromHere(url: string, timeoutMs: number, signal?: AbortSignal): Promise<ExternalAttempt> {
  const started = Date.now();
  return new Promise(resolve => {
    let localAddress: string | undefined;
    let settled = false;
    const done = (ok: boolean, detail: string, status: string, body: string, error: string) => {
      if (settled) return;
      settled = true;
      resolve({
        ok,
        detail,
        body,
        localAddress,
        // stdout is the body (as curl's); the status of a non-2xx/3xx answer goes to stderr.
        evidence: {
          transport: HARNESS_TRANSPORT,
          command: `GET ${url}`,
          exitCode: ok ? 0 : 1,
          stdout: body,
          stderr: error || (ok ? '' : status),
          durationMs: Date.now() - started,
        },
      });
    };
    const req = http.get(url, { agent: false, signal, headers: { 'User-Agent': 'wincheck' } }, res => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const code = res.statusCode ?? 0;
        const ok = code >= 200 && code < 400;
        done(ok, ok ? `HTTP ${code} from ${url}` : `HTTP ${code} from ${url}`, `HTTP ${code}`, body, '');
      });
      res.on('error', e => done(false, `reading ${url} failed: ${e.message}`, `HTTP ${res.statusCode}`, '', e.message));
    });
    req.on('socket', s =>
      s.on('connect', () => {
        localAddress = s.localAddress;
      }),
    );
    // Connect and response deadline in one: a dropped SYN (kube-proxy DROP) hangs otherwise.
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)}s (timeout)`)));
    req.on('error', e => {
      const code = (e as NodeJS.ErrnoException).code;
      done(false, `GET ${url} failed: ${code ? `${code}: ` : ''}${e.message}`, '', '', `${code ? `${code}: ` : ''}${e.message}`);
    });
  });
}

/** A TCP connection held open from this host (netstat on the backend can then see it). */
export function holdConnection(host: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host, port });
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error(`connect to ${host}:${port} timed out after ${Math.round(timeoutMs / 1000)}s`));
    }, timeoutMs);
    s.once('connect', () => {
      clearTimeout(timer);
      resolve(s);
    });
    s.once('error', e => {
      clearTimeout(timer);
      reject(e);
    });
  });
}
