// A minimal HTTP/1.1 client over the twin's sockets, shared by curl, wget and
// Invoke-WebRequest: real request bytes out, real response parsing in (status line,
// headers, Content-Length / chunked / close-delimited bodies), TLS over the
// connected socket for https.

import * as tls from 'node:tls';
import type { Socket } from 'node:net';
import type { ShellHost } from '../types.ts';
import type { NetErrorCode } from '../../../network/types.ts';
import { connectTo, resolveName } from './net.ts';

export interface HttpRequest {
  url: URL;
  method: 'GET' | 'HEAD';
  headers: [string, string][];
  /** Accept any TLS certificate (curl -k). */
  insecure: boolean;
  connectTimeoutMs: number;
  /** Whole-operation limit (curl -m). */
  maxTimeMs?: number;
  signal: AbortSignal;
}

export interface HttpResponse {
  httpVersion: string;
  statusCode: number;
  statusText: string;
  headers: [string, string][];
  rawHead: string;
  body: Buffer;
  remoteAddress: string;
  port: number;
}

export type HttpFailure =
  | { kind: 'resolve'; code: NetErrorCode | 'EABORTED'; host: string }
  | { kind: 'connect'; code: NetErrorCode | 'EABORTED'; host: string; port: number; elapsedMs: number; address: string }
  | { kind: 'timeout'; elapsedMs: number; bytes: number }
  | { kind: 'tls'; message: string; certificate: boolean }
  | { kind: 'protocol'; message: string }
  | { kind: 'aborted' };

export type HttpResult = { ok: true; res: HttpResponse; requestHead: string; elapsedMs: number } | { ok: false; failure: HttpFailure; elapsedMs: number };

export function defaultPort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

export async function httpRequest(host: ShellHost, req: HttpRequest): Promise<HttpResult> {
  const started = Date.now();
  const elapsed = (): number => Date.now() - started;
  const hostname = req.url.hostname.replace(/^\[|\]$/g, '');
  const port = defaultPort(req.url);
  const resolved = await resolveName(host, hostname, req.signal);
  if (!resolved.ok) {
    if (resolved.code === 'EABORTED') return { ok: false, failure: { kind: 'aborted' }, elapsedMs: elapsed() };
    return { ok: false, failure: { kind: 'resolve', code: resolved.code, host: hostname }, elapsedMs: elapsed() };
  }
  const address = resolved.value[0]!;
  const budget = req.maxTimeMs !== undefined ? Math.min(req.connectTimeoutMs, req.maxTimeMs) : req.connectTimeoutMs;
  const conn = await connectTo(host, address, port, budget, req.signal);
  if (!conn.ok) {
    if (conn.code === 'EABORTED') return { ok: false, failure: { kind: 'aborted' }, elapsedMs: elapsed() };
    return { ok: false, failure: { kind: 'connect', code: conn.code, host: hostname, port, elapsedMs: elapsed(), address }, elapsedMs: elapsed() };
  }
  let sock: Socket | tls.TLSSocket = conn.value;
  if (req.url.protocol === 'https:') {
    const t = await startTls(conn.value, hostname, req.insecure);
    if ('failure' in t) {
      conn.value.destroy();
      return { ok: false, failure: t.failure, elapsedMs: elapsed() };
    }
    sock = t.socket;
  }
  const hostHeader = req.url.port ? `${req.url.hostname}:${req.url.port}` : req.url.hostname;
  const path = (req.url.pathname || '/') + req.url.search;
  let head = `${req.method} ${path} HTTP/1.1\r\nHost: ${hostHeader}\r\n`;
  for (const [k, v] of req.headers) head += `${k}: ${v}\r\n`;
  head += '\r\n';
  const remaining = req.maxTimeMs !== undefined ? Math.max(1, req.maxTimeMs - elapsed()) : undefined;
  const r = await exchange(sock, head, req.method === 'HEAD', remaining, req.signal);
  sock.destroy();
  if ('failure' in r) {
    const f = r.failure.kind === 'timeout' ? { ...r.failure, elapsedMs: elapsed() } : r.failure;
    return { ok: false, failure: f, elapsedMs: elapsed() };
  }
  return { ok: true, res: { ...r.res, remoteAddress: address, port }, requestHead: head, elapsedMs: elapsed() };
}

function startTls(socket: Socket, servername: string, insecure: boolean): Promise<{ socket: tls.TLSSocket } | { failure: HttpFailure }> {
  return new Promise(resolve => {
    const s = tls.connect({ socket, servername: /^\d/.test(servername) ? undefined : servername, rejectUnauthorized: !insecure });
    s.once('secureConnect', () => resolve({ socket: s }));
    s.once('error', (e: Error & { code?: string }) => {
      const certificate = /CERT|SELF_SIGNED|ISSUER|HOSTNAME|ALTNAME/i.test(e.code ?? '');
      resolve({ failure: { kind: 'tls', message: e.message, certificate } });
    });
  });
}

interface Parsed {
  httpVersion: string;
  statusCode: number;
  statusText: string;
  headers: [string, string][];
  rawHead: string;
  body: Buffer;
}

function exchange(
  sock: Socket | tls.TLSSocket,
  head: string,
  isHead: boolean,
  timeoutMs: number | undefined,
  signal: AbortSignal,
): Promise<{ res: Parsed } | { failure: HttpFailure }> {
  return new Promise(resolve => {
    let buf = Buffer.alloc(0);
    let done = false;
    const finish = (v: { res: Parsed } | { failure: HttpFailure }): void => {
      if (done) return;
      done = true;
      if (timer) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(v);
    };
    const onAbort = (): void => finish({ failure: { kind: 'aborted' } });
    signal.addEventListener('abort', onAbort, { once: true });
    const timer =
      timeoutMs !== undefined ? setTimeout(() => finish({ failure: { kind: 'timeout', elapsedMs: timeoutMs, bytes: buf.length } }), timeoutMs) : undefined;
    const tryParse = (closed: boolean): void => {
      const p = parseResponse(buf, isHead, closed);
      if (p === 'incomplete') {
        if (closed)
          finish({
            failure: { kind: 'protocol', message: buf.length === 0 ? 'Empty reply from server' : 'Transfer closed with outstanding read data remaining' },
          });
        return;
      }
      if (p === 'invalid') {
        finish({ failure: { kind: 'protocol', message: 'Unsupported HTTP/1 subversion in response' } });
        return;
      }
      finish({ res: p });
    };
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      tryParse(false);
    });
    sock.on('end', () => tryParse(true));
    sock.on('close', () => tryParse(true));
    sock.on('error', () => tryParse(true));
    sock.write(head);
  });
}

/** Parses one response from buf; 'incomplete' until the body is all there. */
export function parseResponse(buf: Buffer, isHead: boolean, closed: boolean): Parsed | 'incomplete' | 'invalid' {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return 'incomplete';
  const rawHead = buf.subarray(0, end + 4).toString('latin1');
  const lines = rawHead.split('\r\n');
  const m = /^HTTP\/(\d\.\d)\s+(\d{3})\s?(.*)$/.exec(lines[0] ?? '');
  if (!m) return 'invalid';
  const headers: [string, string][] = [];
  for (const l of lines.slice(1)) {
    if (!l) continue;
    const i = l.indexOf(':');
    if (i > 0) headers.push([l.slice(0, i).trim(), l.slice(i + 1).trim()]);
  }
  const statusCode = Number(m[2]);
  const base = { httpVersion: m[1]!, statusCode, statusText: m[3] ?? '', headers, rawHead };
  const rest = buf.subarray(end + 4);
  if (statusCode >= 100 && statusCode < 200) {
    const again = parseResponse(rest, isHead, closed);
    return again;
  }
  if (isHead || statusCode === 204 || statusCode === 304) return { ...base, body: Buffer.alloc(0) };
  const get = (name: string): string | undefined => headers.find(([k]) => k.toLowerCase() === name)?.[1];
  if ((get('transfer-encoding') ?? '').toLowerCase().includes('chunked')) {
    const body = dechunk(rest);
    return body ? { ...base, body } : 'incomplete';
  }
  const len = get('content-length');
  if (len !== undefined) {
    const n = Number(len);
    return rest.length >= n ? { ...base, body: rest.subarray(0, n) } : 'incomplete';
  }
  return closed ? { ...base, body: rest } : 'incomplete';
}

function dechunk(b: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let i = 0;
  for (;;) {
    const eol = b.indexOf('\r\n', i);
    if (eol < 0) return undefined;
    const size = parseInt(b.subarray(i, eol).toString('latin1').split(';')[0]!, 16);
    if (Number.isNaN(size)) return undefined;
    if (size === 0) return Buffer.concat(parts);
    if (b.length < eol + 2 + size + 2) return undefined;
    parts.push(b.subarray(eol + 2, eol + 2 + size));
    i = eol + 2 + size + 2;
  }
}

export function reasonPhrase(code: number): string {
  const map: Record<number, string> = {
    200: 'OK',
    201: 'Created',
    204: 'No Content',
    301: 'Moved Permanently',
    302: 'Found',
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
  };
  return map[code] ?? '';
}
