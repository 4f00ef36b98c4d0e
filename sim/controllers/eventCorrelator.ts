// client-go's EventCorrelator, which every core/v1 event recorder (the kubelet's, the controllers')
// runs before it writes: identical events become one Event whose count and lastTimestamp grow;
// more than a few similar ones (same source, object, type and reason; another message) within ten
// minutes become one "(combined from similar events)" Event; and a token bucket per source and
// object drops what is beyond its budget. The constants and the order (aggregate, observe, filter)
// are those of https://github.com/kubernetes/client-go/blob/master/tools/record/events_cache.go.

/** The LRU size of each of the three caches (maxLruCacheEntries). */
export const LRU_CACHE_ENTRIES = 4096;
/** Similar events (differing only in message) before they are combined (defaultAggregateMaxEvents). */
export const AGGREGATE_MAX_EVENTS = 10;
/** How long after the last similar event a new one still counts as similar (defaultAggregateIntervalInSeconds: 600). */
export const AGGREGATE_INTERVAL_MS = 600_000;
/** Events a source may write about one object at once (defaultSpamBurst)... */
export const SPAM_BURST = 25;
/** ...and the refill after that: one every 5 minutes (defaultSpamQPS = 1/300). */
export const SPAM_QPS = 1 / 300;
/** The prefix of a combined event's message (EventAggregatorByReasonMessageFunc). */
export const COMBINED_PREFIX = '(combined from similar events): ';

export interface EventReference {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  fieldPath?: string;
}

/** What a recorder is asked to record, before correlation. */
export interface EventDraft {
  involvedObject: EventReference;
  type: string;
  reason: string;
  message: string;
  source: { component: string; host?: string };
}

/**
 * What to write: the Event's name (the recorder names it, `<object>.<hex nanoseconds>`), its count
 * (above 1: patch the existing Event, or create it under this name if it is gone), the first time
 * and the message (combined or not). `skip`: the spam filter dropped it (the count still grew).
 */
export type Correlated = { skip: true } | { skip: false; name: string; count: number; firstTimestamp: number; message: string; combined: boolean };

/** A size-bounded map that forgets the least recently used key (groupcache's lru.Cache). */
class Lru<V> {
  private map = new Map<string, V>();
  constructor(private size: number) {}
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  add(key: string, v: V): void {
    this.map.delete(key);
    this.map.set(key, v);
    if (this.map.size > this.size) this.map.delete(this.map.keys().next().value as string);
  }
}

const join = (parts: (string | undefined)[]) => parts.map(p => p ?? '').join('\u0000');

/** getSpamKey: the source and the object (not the field path). */
const spamKey = (e: EventDraft) => {
  const o = e.involvedObject;
  return join([e.source.component, e.source.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion]);
};
/** getEventKey: everything that makes two events the same, message included. */
const eventKey = (e: EventDraft) => {
  const o = e.involvedObject;
  return join([e.source.component, e.source.host, o.kind, o.namespace, o.name, o.fieldPath, o.uid, o.apiVersion, e.type, e.reason, e.message]);
};
/**
 * EventAggregatorByReasonFunc: the group (source, object without field path, type, reason; the
 * reporting controller and instance are the source's here) and the member (the message).
 */
const aggregateKey = (e: EventDraft) => {
  const o = e.involvedObject;
  return join(['agg', e.source.component, e.source.host, o.kind, o.namespace, o.name, o.uid, o.apiVersion, e.type, e.reason]);
};

interface Observation {
  count: number;
  firstTimestamp: number;
  name: string;
}

/** golang.org/x/time/rate's limiter as flowcontrol's token bucket uses it: starts full, refills continuously. */
class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(
    private burst: number,
    private qps: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }
  tryAccept(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.last) / 1000) * this.qps);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** The last event-name time handed out in this process (see nameFor). */
let lastNanos = 0n;

export class EventCorrelator {
  private aggregates = new Lru<{ messages: Set<string>; last: number }>(LRU_CACHE_ENTRIES);
  private observed = new Lru<Observation>(LRU_CACHE_ENTRIES);
  private spam = new Lru<TokenBucket>(LRU_CACHE_ENTRIES);

  /** `clock`: milliseconds since the epoch (tests pass their own). */
  constructor(private clock: () => number = Date.now) {}

  /** EventCorrelate: aggregate, then count, then filter. */
  correlate(e: EventDraft): Correlated {
    const now = this.clock();
    // EventAggregate: a group whose last member is older than the interval starts afresh.
    const group = aggregateKey(e);
    let rec = this.aggregates.get(group);
    if (!rec || now - rec.last > AGGREGATE_INTERVAL_MS) rec = { messages: new Set(), last: now };
    rec.messages.add(e.message);
    rec.last = now;
    this.aggregates.add(group, rec);
    let key = eventKey(e);
    let message = e.message;
    const combined = rec.messages.size >= AGGREGATE_MAX_EVENTS;
    if (combined) {
      // Upstream pops an arbitrary member (a Go map's order) to keep the set below the maximum;
      // the oldest goes here, so the sim stays deterministic.
      rec.messages.delete(rec.messages.values().next().value as string);
      key = group;
      message = COMBINED_PREFIX + e.message;
    }
    // eventObserve: a known key bumps the count of the Event first written under it.
    const last = this.observed.get(key);
    const obs: Observation = last
      ? { count: last.count + 1, firstTimestamp: last.firstTimestamp, name: last.name }
      : { count: 1, firstTimestamp: now, name: this.nameFor(e, now) };
    this.observed.add(key, obs);
    // The spam filter sees the observed event: a dropped bump still counted (the next write carries it).
    let bucket = this.spam.get(spamKey(e));
    if (!bucket) bucket = new TokenBucket(SPAM_BURST, SPAM_QPS, now);
    const accepted = bucket.tryAccept(now);
    this.spam.add(spamKey(e), bucket);
    if (!accepted) return { skip: true };
    return { skip: false, name: obs.name, count: obs.count, firstTimestamp: obs.firstTimestamp, message, combined };
  }

  /**
   * makeEvent's name: the object's name and the time in nanoseconds, in hex. Strictly increasing
   * across every correlator of the process: with only milliseconds to go on, two recorders (the
   * kubelet's and a controller's) writing about objects of one name in the same millisecond would
   * otherwise pick the same name, and the second Event would be lost as AlreadyExists.
   */
  private nameFor(e: EventDraft, now: number): string {
    let nanos = BigInt(now) * 1_000_000n;
    if (nanos <= lastNanos) nanos = lastNanos + 1n;
    lastNanos = nanos;
    return `${e.involvedObject.name ?? ''}.${nanos.toString(16)}`;
  }
}
