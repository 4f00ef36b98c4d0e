// The one retry-and-deadline policy, without the client library (the CLI's preflight and
// rawGet use it, and the CLI must not load @kubernetes/client-node until a command needs it):
// per-attempt deadlines, the run's abort, capped backoff, Retry-After. resilience.ts applies it
// to the generated clients' HTTP layer.

import { pause } from '../../util/pause.ts';
import { errorText } from '../../util/errorText.ts';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** First backoff; doubles per attempt, capped at maxBackoffMs (Retry-After wins when given). */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** A Retry-After above this is not waited for: the call fails, naming the throttle. */
  maxRetryAfterMs: number;
  /** One attempt's deadline for the answer (its status and headers): a server that accepts the connection and says nothing must not hang the run. */
  requestTimeoutMs: number;
  /**
   * Once answered, the deadline for the body, apart: a page of a list on a big cluster is
   * megabytes, and reading it must neither eat the answer's deadline nor be cut by it.
   */
  bodyTimeoutMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  attempts: 5,
  baseBackoffMs: 200,
  maxBackoffMs: 3_000,
  maxRetryAfterMs: 30_000,
  requestTimeoutMs: 10_000,
  bodyTimeoutMs: 60_000,
};

/** Statuses that say "not now" rather than "no": throttling and server-side failures. */
const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);
/** Transport failures where the server may well answer the next attempt. */
const RETRY_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ECONNABORTED', 'EAI_AGAIN', 'ETIMEDOUT', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_SOCKET']);

export class ApiTransportError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export class ApiInterruptedError extends Error {}

export function isRetryableStatus(status: number): boolean {
  return RETRY_STATUS.has(status);
}

/** A connection reset, refused connection, DNS hiccup...: worth another attempt. */
export function isRetryableError(e: unknown): boolean {
  const err = e as { code?: string; errno?: string; type?: string; message?: string; cause?: unknown } | null;
  if (!err) return false;
  if (err.code && RETRY_CODES.has(err.code)) return true;
  if (err.errno && RETRY_CODES.has(err.errno)) return true;
  // node-fetch wraps socket errors as FetchError type 'system' with the errno; "socket hang up" has none.
  if (typeof err.message === 'string' && /socket hang up|ECONNRESET|other side closed|Unexpected server response: (429|50[0234])/.test(err.message))
    return true;
  return err.cause ? isRetryableError(err.cause) : false;
}

/** Retry-After in ms (seconds or an HTTP date), undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

export function backoffMs(policy: RetryPolicy, attempt: number, retryAfter?: number): number {
  if (retryAfter !== undefined) return retryAfter;
  const exp = Math.min(policy.maxBackoffMs, policy.baseBackoffMs * 2 ** (attempt - 1));
  return Math.round(exp / 2 + (Math.random() * exp) / 2);
}

/**
 * p, or a rejection as soon as signal aborts (a connect whose promise has no cancel of its own);
 * what p still yields after that is handed to dispose.
 */
export function untilSettled<T>(p: Promise<T>, signal: AbortSignal, dispose: (v: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      p.then(dispose, () => undefined);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      v => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      e => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** Why an attempt's own deadline ended it: no answer, or an answer whose body did not come. */
class AttemptDeadline extends Error {
  constructor(readonly phase: 'answer' | 'body') {
    super(`${phase} deadline`);
  }
}

/**
 * Runs one attempt after another under the policy. `attempt` gets a signal that ends at the
 * per-attempt deadline or on abort, and `answered`, to call once the answer (status, headers) is
 * in: from then the body has its own deadline. It returns a status to judge, or throws a
 * transport error.
 */
export async function withRetries<T>(
  what: string,
  policy: RetryPolicy,
  signal: AbortSignal | undefined,
  retryable: boolean,
  attempt: (signal: AbortSignal, answered: () => void) => Promise<{ status: number; retryAfter?: string; value: T }>,
): Promise<T> {
  for (let n = 1; ; n++) {
    if (signal?.aborted) throw new ApiInterruptedError(`${what}: interrupted`);
    const deadline = new AbortController();
    let timer = setTimeout(() => deadline.abort(new AttemptDeadline('answer')), policy.requestTimeoutMs);
    const answered = () => {
      clearTimeout(timer);
      timer = setTimeout(() => deadline.abort(new AttemptDeadline('body')), policy.bodyTimeoutMs ?? DEFAULT_RETRY_POLICY.bodyTimeoutMs);
    };
    const both = signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal;
    let wait: number;
    try {
      const r = await attempt(both, answered);
      const last = n >= policy.attempts || !retryable;
      if (!isRetryableStatus(r.status) || last) return r.value;
      const after = r.status === 429 ? retryAfterMs(r.retryAfter) : undefined;
      if (after !== undefined && after > policy.maxRetryAfterMs) return r.value;
      wait = backoffMs(policy, n, after);
    } catch (e) {
      if (signal?.aborted) throw new ApiInterruptedError(`${what}: interrupted`, { cause: e });
      const ended = deadline.signal.aborted ? (deadline.signal.reason as AttemptDeadline) : undefined;
      if (ended?.phase === 'answer')
        throw new ApiTransportError(`${what}: no answer from the API server within ${Math.round(policy.requestTimeoutMs / 1000)}s`, 'ETIMEDOUT', { cause: e });
      if (ended?.phase === 'body')
        throw new ApiTransportError(`${what}: the answer's body did not arrive within ${Math.round(policy.bodyTimeoutMs / 1000)}s`, 'ETIMEDOUT', { cause: e });
      const code = (e as { code?: string; errno?: string }).code ?? (e as { errno?: string }).errno;
      if (!retryable || !isRetryableError(e) || n >= policy.attempts)
        throw new ApiTransportError(`${what}: ${code ? `${code} ` : ''}${errorText(e)}${n > 1 ? ` (after ${n} attempts)` : ''}`, code, { cause: e });
      wait = backoffMs(policy, n);
    } finally {
      clearTimeout(timer);
    }
    await pause(wait, signal).catch(e => {
      throw new ApiInterruptedError(`${what}: interrupted`, { cause: e });
    });
  }
}

/**
 * A streaming connect (exec, port-forward: a websocket upgrade) under the policy: retried on
 * resets, 429 and 5xx, as no command has run yet. What connect still yields after an attempt's
 * deadline or an abort is handed to dispose.
 */
export function connectWithRetries<T>(
  what: string,
  policy: RetryPolicy | undefined,
  signal: AbortSignal | undefined,
  connect: () => Promise<T>,
  dispose: (t: T) => void,
): Promise<T> {
  return withRetries(what, policy ?? DEFAULT_RETRY_POLICY, signal, true, async s => ({ status: 101, value: await untilSettled(connect(), s, dispose) }));
}

/**
 * The API server could not be reached or did not answer (a reset, a refused connection, the
 * per-attempt deadline), or kept answering a streaming upgrade 429/5xx, even after retries: a
 * fault of the path to the cluster, which says nothing about a feature, not even about exec or
 * port-forward themselves (their own failures come in the session, on the status channel).
 */
export function isTransportFailure(e: unknown): e is ApiTransportError {
  return e instanceof ApiTransportError && (e.code !== undefined || /Unexpected server response: (429|50[0234])/.test(e.message));
}
