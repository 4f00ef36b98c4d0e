// Per-server state and per-request context shared by the handlers.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import type { Profile } from '../profiles/types.ts';
import type { Store, KubeObject } from './store.ts';
import type { SubresourceHandlers } from './runtimeContract.ts';
import type { Faults } from './faults.ts';
import type { ServiceAccountTokens } from './auth/tokens.ts';
import type { ResourceRoute } from './router.ts';
import { ApiError } from './status.ts';
import { decodeProtobufObject } from './protobuf.ts';
import { boolParam } from './params.ts';

export interface ServerState {
  store: Store;
  profile: Profile;
  handlers?: SubresourceHandlers;
  faults: Faults;
  k8sMinor: number;
  bookmarkIntervalMs: number;
  /** How long a watch without timeoutSeconds may stay open, times 1 to 2 (--min-request-timeout). */
  minRequestTimeoutMs: number;
  /** Ends every open watch and stream (called by close()). */
  closers: Set<() => void>;
  closing: boolean;
  /** Issues and verifies ServiceAccount tokens (TokenRequest). */
  tokens: ServiceAccountTokens;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  state: ServerState;
  query: URLSearchParams;
  route: ResourceRoute;
  /** Store bucket of route.rt. */
  bucket: string;
}

const MAX_BODY = 8 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw new ApiError(413, 'BadRequest', 'the request body is too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/** A JSON (or YAML, for apply patches and yaml bodies) request body. */
export async function readObject(req: IncomingMessage): Promise<unknown> {
  const buf = await readBody(req);
  if (buf.length === 0) return undefined;
  const text = buf.toString('utf8');
  const ct = (req.headers['content-type'] ?? '').toLowerCase();
  // kubectl 1.32+ sends typed creates as protobuf (no JSON fallback): decoded for the kinds it creates.
  if (ct.startsWith('application/vnd.kubernetes.protobuf')) return decodeProtobufObject(buf);
  if (ct.includes('cbor'))
    throw new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`,
    );
  try {
    if (ct.includes('yaml')) return parseYaml(text);
    return JSON.parse(text);
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new ApiError(400, 'BadRequest', `couldn't get version/kind; json parse error: ${msg}`);
  }
}

export function asKubeObject(v: unknown): KubeObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ApiError(400, 'BadRequest', 'the body of the request was in an unknown format');
  const o = v as KubeObject;
  if (typeof o.metadata !== 'object' || o.metadata === null) o.metadata = {};
  return o;
}

export function isDryRun(q: URLSearchParams): boolean {
  return q.getAll('dryRun').some(v => v === 'All');
}

export function isWatch(ctx: Ctx): boolean {
  return ctx.route.watchPath || boolParam(ctx.query, 'watch');
}
