// Wait for a condition by list + watch, with a deadline. Watch does not reconnect by itself:
// a closed watch restarts from the last resourceVersion, a 410 Gone relists. On timeout the
// error carries the last state seen.

import http, { STATUS_CODES } from 'node:http';
import https from 'node:https';
import { createInterface } from 'node:readline';
import { CredentialedKubeConfig } from './credentials.ts';
import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import { apiErrorMessage } from './apiError.ts';
import { DEFAULT_RETRY_POLICY } from './resilience.ts';
import type { KubeClients } from './types.ts';

export class WaitTimeoutError extends Error {}

/**
 * A wait's end read as an observation: true when what it waited for was seen, false when it ran
 * out (its deadline, or `ended` aborted on purpose to stop it). The run's interrupt and the
 * harness's own failures (a 403, the transport) stay errors: they saw nothing.
 */
export function seenBeforeEnd(wait: Promise<unknown>, ended: AbortSignal, run: AbortSignal): Promise<boolean> {
  return wait.then(
    () => true,
    (e: unknown) => {
      if (run.aborted || !(e instanceof WaitTimeoutError || ended.aborted)) throw e;
      return false;
    },
  );
}

export interface WatchUntilOptions<T extends KubernetesObject, R> {
  kube: KubeClients;
  /** Collection path, e.g. /api/v1/namespaces/ns/pods. */
  path: string;
  fieldSelector?: string;
  labelSelector?: string;
  list(): Promise<{ items: T[]; metadata?: { resourceVersion?: string } }>;
  /** Every object seen. Return a value to stop; throw to fail fast. */
  check(obj: T, type: string): R | undefined;
  /** The whole list (default: check on each item). */
  onList?(items: T[]): R | undefined;
  /** "pod ns/iis to be Ready": used in timeout and interrupt messages. */
  what: string;
  describe(last: T | undefined): string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Delay before re-opening a watch whose connection failed (not a wait for cluster state). */
const RECONNECT_MS = 500;

export function watchUntil<T extends KubernetesObject, R>(o: WatchUntilOptions<T, R>): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    let last: T | undefined;
    let resourceVersion: string | undefined;
    let controller: AbortController | undefined;
    let finished = false;
    let gone = false;
    // The watch was re-opened after a 401 with a fresh credential and has seen nothing since.
    let renewed = false;
    // The clients' own signal (the run's) ends every wait of theirs, even one not given a signal.
    const signal = o.signal ?? o.kube.signal;

    const finish = (err: unknown, value?: R) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      controller?.abort();
      signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(value as R);
    };
    const timer = setTimeout(
      () => finish(new WaitTimeoutError(`timed out after ${Math.round(o.timeoutMs / 1000)}s waiting for ${o.what}; last state seen: ${o.describe(last)}`)),
      o.timeoutMs,
    );
    const onAbort = () => finish(new Error(`interrupted while waiting for ${o.what}`));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort);

    const tryCheck = (fn: () => R | undefined) => {
      try {
        const r = fn();
        if (r !== undefined) finish(undefined, r);
      } catch (e) {
        finish(e);
      }
    };

    const relist = async () => {
      if (finished) return;
      try {
        const list = await o.list();
        resourceVersion = list.metadata?.resourceVersion;
        if (list.items.length) last = list.items[list.items.length - 1];
        tryCheck(() => (o.onList ? o.onList(list.items) : firstResult(list.items, i => o.check(i, 'LISTED'))));
        if (!finished) void startWatch();
      } catch (e) {
        finish(new Error(`could not list ${o.path} while waiting for ${o.what}: ${apiErrorMessage(e)}`, { cause: e }));
      }
    };

    const startWatch = async () => {
      if (finished) return;
      const query: Record<string, string | boolean | undefined> = {
        resourceVersion,
        allowWatchBookmarks: true,
        fieldSelector: o.fieldSelector,
        labelSelector: o.labelSelector,
      };
      controller = await o.kube.watch.watch(
        o.path,
        query,
        (type: string, obj: T & { code?: number }) => {
          if (finished) return;
          renewed = false;
          if (type === 'ERROR') {
            if (obj?.code === 410) gone = true;
            return;
          }
          resourceVersion = obj?.metadata?.resourceVersion ?? resourceVersion;
          if (type === 'BOOKMARK') return;
          last = obj;
          tryCheck(() => o.check(obj, type));
        },
        (err: unknown) => {
          if (finished) return;
          const status = (err as { statusCode?: number } | null)?.statusCode;
          if (gone || status === 410) {
            gone = false;
            void relist();
          } else if (status === 401 && (err as { renewable?: boolean }).renewable && !renewed) {
            // A credential that can be had anew (exec plugin, tokenFile): once more with it, as
            // client-go's exec authenticator does on a 401 (resilience.ts does the same for calls).
            renewed = true;
            void startWatch();
          } else if (status === 401 || status === 403 || status === 404) {
            finish(new Error(`the API server refused the watch of ${o.path} (HTTP ${status}) while waiting for ${o.what}`));
          } else if (err) {
            setTimeout(() => void startWatch(), RECONNECT_MS);
          } else {
            void startWatch();
          }
        },
      );
      if (finished) controller.abort();
    };

    void relist();
  });
}

function firstResult<T, R>(items: T[], fn: (t: T) => R | undefined): R | undefined {
  for (const i of items) {
    const r = fn(i);
    if (r !== undefined) return r;
  }
  return undefined;
}

/**
 * One watch request (as client-node's Watch, which has neither a connect deadline nor a way to
 * cancel a request whose headers never come): `done` is called once, with the error if any.
 * The returned controller ends it.
 */
export async function openWatch<T>(
  kc: KubeConfig,
  path: string,
  query: Record<string, string | boolean | undefined>,
  onEvent: (type: string, obj: T) => void,
  done: (err: unknown) => void,
  connectTimeoutMs = DEFAULT_RETRY_POLICY.requestTimeoutMs,
): Promise<AbortController> {
  const cluster = kc.getCurrentCluster();
  const controller = new AbortController();
  let called = false;
  const doneOnce = (err: unknown) => {
    if (called) return;
    called = true;
    controller.abort();
    done(err);
  };
  if (!cluster) {
    doneOnce(new Error('the kubeconfig has no current cluster'));
    return controller;
  }
  const url = new URL(cluster.server + path);
  url.searchParams.set('watch', 'true');
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  const opts: https.RequestOptions = { method: 'GET', headers: { Accept: 'application/json' } };
  await kc.applyToHTTPSOptions(opts);
  const req = (url.protocol === 'http:' ? http : https).request(url, { ...opts, signal: controller.signal }, res => {
    clearTimeout(connect);
    res.on('error', doneOnce);
    if (res.statusCode !== 200) {
      res.resume();
      // A refused credential is fetched anew for the next watch (the caller re-opens it once).
      const renewable = res.statusCode === 401 && kc instanceof CredentialedKubeConfig && kc.credentialRefused();
      doneOnce(Object.assign(new Error(STATUS_CODES[res.statusCode ?? 0] ?? `HTTP ${res.statusCode}`), { statusCode: res.statusCode, renewable }));
      return;
    }
    const lines = createInterface(res);
    // readline re-emits the stream's errors (a reset, our own abort): unhandled, they crash the run.
    lines.on('error', doneOnce);
    res.on('aborted', () => doneOnce(Object.assign(new Error('the watch connection was reset'), { code: 'ECONNRESET' })));
    lines.on('line', line => {
      let ev: { type: string; object: T };
      try {
        ev = JSON.parse(line);
      } catch {
        return;
      }
      if (!called) onEvent(ev.type, ev.object);
    });
    lines.on('close', () => doneOnce(null));
  });
  const connect = setTimeout(
    () => doneOnce(Object.assign(new Error(`no answer to the watch of ${path} within ${Math.round(connectTimeoutMs / 1000)}s`), { code: 'ETIMEDOUT' })),
    connectTimeoutMs,
  );
  req.on('error', e => {
    clearTimeout(connect);
    doneOnce(e);
  });
  controller.signal.addEventListener(
    'abort',
    () => {
      clearTimeout(connect);
      req.destroy();
    },
    { once: true },
  );
  req.end();
  return controller;
}
