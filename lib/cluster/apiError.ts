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
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/**
 * A Pod Security admission rejection anywhere in the error's cause chain: the API server's
 * text ('pods "x" is forbidden: violates PodSecurity "baseline:latest": ...'), else undefined.
 * Distinct from other 403s (RBAC, webhooks): the cluster's policy refuses what a check needs,
 * so the check cannot be made here (n/a), rather than the harness failing (error).
 */
export function podSecurityRejection(e: unknown): string | undefined {
  for (let x: unknown = e, depth = 0; x && depth < 10; x = (x as { cause?: unknown }).cause, depth++) {
    const text = x instanceof ApiException ? (x.code === 403 ? apiErrorMessage(x) : '') : x instanceof Error ? x.message : '';
    const at = text.indexOf('violates PodSecurity');
    if (at >= 0) {
      // From the object's "<kind> "<name>" is forbidden:" when the text has it.
      const start = text.lastIndexOf(' is forbidden: ', at);
      const from = start >= 0 ? text.lastIndexOf('pods', start) : -1;
      return text.slice(from >= 0 ? from : at).replace(/ \(HTTP 403\)$/, '');
    }
  }
  return undefined;
}

/** The API server's 422 causes as "field: message" lines (or its message). */
export function statusCausesOf(body: unknown): string[] {
  const b = typeof body === 'string' ? safeJson(body) : body;
  if (!b || typeof b !== 'object') return [];
  const details = (b as { details?: { causes?: { field?: string; message?: string }[] } }).details;
  const message = (b as { message?: string }).message;
  const causes = details?.causes?.map(c => `${c.field ?? ''}: ${c.message ?? ''}`) ?? [];
  return causes.length ? causes : message ? [message] : [];
}
