// The one pager for every list the harness makes: pages of PAGE_LIMIT objects (limit and
// continue), so no single answer grows with the cluster, and a relist from scratch when the
// server has compacted the list's revision (410 Expired on a continue), as client-go's pager
// does (https://github.com/kubernetes/client-go/blob/master/tools/pager/pager.go) and the API
// docs describe (https://kubernetes.io/docs/reference/using-api/api-concepts/#retrieving-large-results-sets-in-chunks).

import type { V1ListMeta } from '@kubernetes/client-node';
import { apiStatusCode } from './apiError.ts';

/** Objects per page: client-go's default page size (pager.defaultPageSize). */
export const PAGE_LIMIT = 500;
/** Relists after expired continues before giving up (a list slower than the compaction window). */
const MAX_RELISTS = 3;

/** A list answer as the generated clients type it. */
export interface PagedList<T> {
  items: T[];
  metadata?: V1ListMeta;
}

/** What each page's request adds to the caller's own parameters. */
export interface PageQuery {
  limit: number;
  _continue?: string;
}

export type FetchPage<L> = (q: PageQuery) => Promise<L>;

export interface PagerOptions {
  limit?: number;
  /** Told of each relist after an expired continue (for logs and tests). */
  onRelist?: (attempt: number) => void;
}

/**
 * Folds every page into an accumulator as it arrives, so only one page is held at a time. On an
 * expired continue the fold starts again from init() with a fresh list. Resolves to the
 * accumulator and the first page's answer (its resourceVersion is the list's: a watch goes on from it).
 */
export async function foldPages<T, A>(
  fetch: FetchPage<PagedList<T>>,
  init: () => A,
  add: (acc: A, items: T[]) => A,
  opts: PagerOptions = {},
): Promise<{ acc: A; first: PagedList<T> }> {
  const limit = opts.limit ?? PAGE_LIMIT;
  for (let relist = 0; ; relist++) {
    let acc = init();
    let first: PagedList<T> | undefined;
    let token: string | undefined;
    try {
      do {
        const page = await fetch(token === undefined ? { limit } : { limit, _continue: token });
        first ??= page;
        acc = add(acc, page.items ?? []);
        token = page.metadata?._continue || undefined;
      } while (token !== undefined);
      return { acc, first: first! };
    } catch (e) {
      // Only a 410 on a continue is the compacted list; a 410 on the first page is the caller's.
      if (token === undefined || apiStatusCode(e) !== 410 || relist >= MAX_RELISTS) throw e;
      opts.onRelist?.(relist + 1);
    }
  }
}

/**
 * Every object of a list, in the shape of one answer (metadata of the first page, no continue):
 * a drop-in for a single list call where the caller needs the objects themselves.
 */
export async function listAll<L extends PagedList<unknown>>(fetch: FetchPage<L>, opts: PagerOptions = {}): Promise<L> {
  const { acc, first } = await foldPages<L['items'][number], L['items']>(
    fetch,
    () => [],
    (all, items) => {
      for (const x of items) all.push(x);
      return all;
    },
    opts,
  );
  const metadata: V1ListMeta = { ...first.metadata };
  delete metadata._continue;
  delete metadata.remainingItemCount;
  return { ...(first as L), metadata, items: acc };
}
