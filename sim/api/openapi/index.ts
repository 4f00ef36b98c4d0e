// /openapi/v2 (JSON, or gnostic protobuf for kubectl 1.27/1.28) and /openapi/v3
// (index + per-group-version documents for kubectl 1.29+). Documents are built
// once per process and Kubernetes version, on first request.

import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildV2, buildV3, type V3Docs } from './documents.ts';
import { encodeV2 } from './gnostic.ts';

// Clients ask with "...spec.v2@v1.0+protobuf" (or ".v2.v1.0"); the server answers with the
// form Go's mime parser accepts, as kube-openapi does.
export const V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

interface V2Cache {
  json: string;
  proto: Buffer;
  etag: string;
}

const v2Cache = new Map<string, V2Cache>();
const v3Cache = new Map<string, V3Docs>();

function v2(k8sVersion: string): V2Cache {
  let c = v2Cache.get(k8sVersion);
  if (!c) {
    const doc = buildV2(k8sVersion);
    const json = JSON.stringify(doc);
    c = { json, proto: encodeV2(doc), etag: `"${createHash('sha512').update(json).digest('hex').slice(0, 64).toUpperCase()}"` };
    v2Cache.set(k8sVersion, c);
  }
  return c;
}

function v3(k8sVersion: string): V3Docs {
  let c = v3Cache.get(k8sVersion);
  if (!c) {
    c = buildV3(k8sVersion);
    v3Cache.set(k8sVersion, c);
  }
  return c;
}

function send(req: IncomingMessage, res: ServerResponse, code: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(code, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(req.method === 'HEAD' ? undefined : body);
}

function notFound(req: IncomingMessage, res: ServerResponse): void {
  send(
    req,
    res,
    404,
    'application/json',
    JSON.stringify({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    }),
  );
}

export function serveOpenAPI(req: IncomingMessage, res: ServerResponse, path: string, k8sVersion: string): boolean {
  const clean = path.replace(/\/+$/, '');
  if (clean !== '/openapi/v2' && clean !== '/openapi/v3' && !clean.startsWith('/openapi/v3/')) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(
      req,
      res,
      405,
      'application/json',
      JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server does not allow this method on the requested resource',
        reason: 'MethodNotAllowed',
        details: {},
        code: 405,
      }),
    );
    return true;
  }
  if (clean === '/openapi/v2') {
    const doc = v2(k8sVersion);
    const proto = /application\/com\.github\.proto-openapi\.spec\.v2[@.]v1\.0\+protobuf/.test(req.headers.accept ?? '');
    const headers = { ETag: doc.etag, 'Cache-Control': 'no-cache, private', Vary: 'Accept' };
    if (req.headers['if-none-match'] === doc.etag) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    if (proto) send(req, res, 200, V2_PROTOBUF, doc.proto, headers);
    else send(req, res, 200, 'application/json', doc.json, headers);
    return true;
  }
  const docs = v3(k8sVersion);
  if (clean === '/openapi/v3') {
    send(req, res, 200, 'application/json', JSON.stringify(docs.index), { 'Cache-Control': 'no-cache, private' });
    return true;
  }
  const doc = docs.docs.get(clean.slice('/openapi/v3/'.length));
  if (!doc) {
    notFound(req, res);
    return true;
  }
  // A hashed URL names immutable content, which clients cache on disk.
  const hashed = new URL(req.url ?? '/', 'http://x').searchParams.has('hash');
  send(req, res, 200, 'application/json', doc.json, {
    ETag: `"${doc.hash}"`,
    'Cache-Control': hashed ? 'public, immutable' : 'no-cache, private',
    ...(hashed ? { Expires: new Date(Date.now() + 365 * 24 * 3600 * 1000).toUTCString() } : {}),
  });
  return true;
}
