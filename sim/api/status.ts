// Status objects: the body of every API error, with the codes and reasons the real
// API server answers (clients branch on reason, kubectl prints message).

import type { ServerResponse } from 'node:http';
import { StoreError } from './store.ts';
import { SelectorError } from './selectors.ts';
import { warningHeaderValues } from './requestContext.ts';

export type StatusReason = StoreError['reason'] | 'Unauthorized' | 'ServiceUnavailable' | 'NotAcceptable' | 'UnsupportedMediaType' | 'Timeout' | '';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never> | { resourceVersion?: string; continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

/** An HTTP error carrying a Status; thrown by handlers, rendered by the server. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusBody['details'],
    /** The Status's ListMeta (a 410 on an expired continue carries a token to go on with). */
    readonly listMeta?: { continue?: string },
  ) {
    super(message);
  }
}

export function statusOf(code: number, reason: StatusReason, message: string, details?: StatusBody['details']): StatusBody {
  const s: StatusBody = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: code < 400 ? 'Success' : 'Failure', message, reason, code };
  if (details && Object.keys(details).length) s.details = details;
  if (!reason) delete s.reason;
  return s;
}

export function successStatus(details?: StatusBody['details']): StatusBody {
  const s: StatusBody = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details) s.details = details;
  return s;
}

/** Any thrown value as the Status the real server would answer. */
export function toStatus(err: unknown): StatusBody {
  if (err instanceof ApiError) {
    const s = statusOf(err.code, err.reason, err.message, err.details);
    if (err.listMeta) s.metadata = err.listMeta;
    return s;
  }
  if (err instanceof StoreError) return statusOf(err.code, err.reason, err.message, err.details);
  if (err instanceof SelectorError) return statusOf(400, 'BadRequest', err.message);
  const msg = err instanceof Error ? err.message : String(err);
  return statusOf(500, 'InternalError', `Internal error occurred: ${msg}`);
}

export function sendJSON(res: ServerResponse, code: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const warnings = warningHeaderValues();
  if (warnings.length) headers = { ...headers, Warning: [...[headers.Warning ?? []].flat(), ...warnings] };
  const data = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data), ...headers });
  res.end(data);
}

export function sendStatus(res: ServerResponse, s: StatusBody, headers: Record<string, string> = {}): void {
  sendJSON(res, s.code, s, headers);
}

export const notFoundPath = (): ApiError => new ApiError(404, 'NotFound', 'the server could not find the requested resource');
export const methodNotAllowed = (method: string): ApiError =>
  new ApiError(405, 'MethodNotAllowed', `the server does not allow this method on the requested resource`, { causes: [{ message: method }] });
export const badRequest = (msg: string): ApiError => new ApiError(400, 'BadRequest', msg);
