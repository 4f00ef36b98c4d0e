// The API server's own words from an ApiException (its Status.message), else the error text.

import { ApiException } from '@kubernetes/client-node';

export function apiStatusCode(e: unknown): number | undefined {
  return e instanceof ApiException ? e.code : undefined;
}

export function apiErrorMessage(e: unknown): string {
  if (e instanceof ApiException) {
    const body: unknown = typeof e.body === 'string' ? safeJson(e.body) : e.body;
    const message = body && typeof body === 'object' && 'message' in body ? String((body as { message: unknown }).message) : undefined;
    return message ? `${message} (HTTP ${e.code})` : `HTTP ${e.code}`;
  }
  return e instanceof Error ? e.message : String(e);
}

function safeJson(s: string): unknown {
  try { return JSON.parse(s); } catch { return s; }
}
