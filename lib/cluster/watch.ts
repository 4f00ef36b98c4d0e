// Wait for a condition by list + watch, with a deadline. Watch does not reconnect by itself:
// a closed watch restarts from the last resourceVersion, a 410 Gone relists. On timeout the
// error carries the last state seen.

import type { KubernetesObject } from '@kubernetes/client-node';
import type { KubeClients } from './types.ts';

export class WaitTimeoutError extends Error {}

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

    const finish = (err: unknown, value?: R) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      controller?.abort();
      o.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err); else resolve(value as R);
    };
    const timer = setTimeout(() => finish(new WaitTimeoutError(`timed out after ${Math.round(o.timeoutMs / 1000)}s waiting for ${o.what}; last state seen: ${o.describe(last)}`)), o.timeoutMs);
    const onAbort = () => finish(new Error(`interrupted while waiting for ${o.what}`));
    if (o.signal?.aborted) return onAbort();
    o.signal?.addEventListener('abort', onAbort);

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
        tryCheck(() => o.onList ? o.onList(list.items) : firstResult(list.items, i => o.check(i, 'LISTED')));
        if (!finished) void startWatch();
      } catch (e) {
        finish(new Error(`could not list ${o.path} while waiting for ${o.what}`, { cause: e }));
      }
    };

    const startWatch = async () => {
      if (finished) return;
      const query: Record<string, string | boolean | undefined> = {
        resourceVersion, allowWatchBookmarks: true, fieldSelector: o.fieldSelector, labelSelector: o.labelSelector,
      };
      controller = await o.kube.watch.watch(o.path, query, (type: string, obj: T & { code?: number }) => {
        if (finished) return;
        if (type === 'ERROR') {
          if (obj?.code === 410) gone = true;
          return;
        }
        resourceVersion = obj?.metadata?.resourceVersion ?? resourceVersion;
        if (type === 'BOOKMARK') return;
        last = obj;
        tryCheck(() => o.check(obj, type));
      }, (err: unknown) => {
        if (finished) return;
        const status = (err as { statusCode?: number } | null)?.statusCode;
        if (gone || status === 410) {
          gone = false;
          void relist();
        } else if (err) {
          setTimeout(() => void startWatch(), RECONNECT_MS);
        } else {
          void startWatch();
        }
      });
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
