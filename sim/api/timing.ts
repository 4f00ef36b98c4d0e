// The API server's clock for watches, from kube-apiserver's defaults, times the profile's
// apiTimeScale (1: real time; 0.01 turns etcd's 5-minute compaction into 3 s):
// - etcd is compacted every --etcd-compaction-interval (5 min) to the revision seen one interval
//   earlier, so 5 to 10 minutes of history remain; a watch from an older resourceVersion gets 410
//   (https://github.com/kubernetes/apiserver/blob/master/pkg/storage/etcd3/compact.go);
// - a watch without timeoutSeconds is closed after --min-request-timeout (1800 s) times 1 to 2
//   (https://github.com/kubernetes/apiserver/blob/master/pkg/endpoints/handlers/get.go), events'
//   included: nothing ends an event watch sooner;
// - the watch cache sends a bookmark about once a minute; events have no watch cache
//   (DefaultWatchCacheSizes sets both event resources to 0,
//   https://github.com/kubernetes/kubernetes/blob/master/pkg/kubeapiserver/default_storage_factory_builder.go),
//   so their watches get no bookmarks and are served from etcd, whose 410 says "The resourceVersion
//   for the provided watch is too old." (https://github.com/kubernetes/apiserver/blob/master/pkg/storage/etcd3/errors.go).
//   An event watch's resourceVersion moves only with an event: once it closes, it resumes only
//   if an event came within the compaction window; else the client relists.

import type { Store } from './store.ts';
import type { Profile } from '../profiles/types.ts';

export const COMPACTION_INTERVAL_MS = 300_000;
export const MIN_REQUEST_TIMEOUT_MS = 1_800_000;
export const BOOKMARK_INTERVAL_MS = 60_000;

export interface ApiTimings {
  compactionIntervalMs: number;
  minRequestTimeoutMs: number;
  bookmarkIntervalMs: number;
}

export function apiTimings(profile: Profile): ApiTimings {
  const scale = profile.apiTimeScale ?? 1;
  return {
    compactionIntervalMs: COMPACTION_INTERVAL_MS * scale,
    minRequestTimeoutMs: MIN_REQUEST_TIMEOUT_MS * scale,
    bookmarkIntervalMs: BOOKMARK_INTERVAL_MS * scale,
  };
}

/** The event buckets: no watch cache, so no bookmarks and etcd's own 410. */
export function servedFromEtcd(bucket: string): boolean {
  return bucket === 'events' || bucket === 'events.events.k8s.io';
}

/** The 410 message of a watch from a compacted resourceVersion: etcd's for events, the watch cache's for the rest. */
export function tooOldMessage(bucket: string, from: string, oldest: string | number): string {
  return servedFromEtcd(bucket) ? 'The resourceVersion for the provided watch is too old.' : `too old resource version: ${from} (${oldest})`;
}

/** How long a watch without timeoutSeconds stays open (minRequestTimeout × [1, 2)). */
export function watchTimeoutMs(t: Pick<ApiTimings, 'minRequestTimeoutMs'>, random = Math.random): number {
  return t.minRequestTimeoutMs * (1 + random());
}

/**
 * The compactor: every interval, compacts to the revision it saw at the previous tick (none on
 * the first, as upstream does not compact on bootstrap). Returns its stop.
 */
export function startCompactor(store: Store, intervalMs: number): () => void {
  let previous: number | undefined;
  const timer = setInterval(() => {
    if (previous !== undefined) store.compact(previous);
    previous = Number(store.currentRV());
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
