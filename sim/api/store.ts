// The simulated cluster's object store: etcd plus the generic registry of the API
// server. Every write goes through here (HTTP handlers and in-process controllers
// alike), so resourceVersions, watches, admission and graceful deletion behave the
// same whoever writes.

import { randomUUID } from 'node:crypto';
import type { V1ObjectMeta } from '@kubernetes/client-node';
import { isIndexedField, Listeners } from './listeners.ts';
import { matchesFields, matchesLabels, parseFieldSelector, parseLabelSelector, type FieldRequirement, type Requirement } from './selectors.ts';

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: V1ObjectMeta;
  [field: string]: unknown;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}

/** An error with the HTTP code and Status reason the API server would answer. */
export class StoreError extends Error {
  constructor(
    readonly code: number,
    readonly reason:
      | 'NotFound'
      | 'AlreadyExists'
      | 'Conflict'
      | 'Gone'
      | 'Invalid'
      | 'Forbidden'
      | 'BadRequest'
      | 'MethodNotAllowed'
      | 'InternalError'
      | 'Expired'
      | 'TooManyRequests',
    message: string,
    readonly details?: { name?: string; group?: string; kind?: string; causes?: { reason?: string; message?: string; field?: string }[] },
  ) {
    super(message);
  }
}

export type WriteOp = 'create' | 'update' | 'delete';

/**
 * Admission: defaulting and validation, registered by the API layer. Returns the
 * object to store (possibly defaulted) or throws a StoreError (422 Invalid ...).
 */
export type Admission = (bucket: string, op: WriteOp, obj: KubeObject, old: KubeObject | undefined) => KubeObject;

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface WatchOptions extends ListOptions {
  /** '' or '0' (or undefined): synthetic ADDED for every current object first. */
  resourceVersion?: string;
}

export interface WriteOptions {
  dryRun?: boolean;
  skipAdmission?: boolean;
}

export interface DeleteOptions extends WriteOptions {
  /** Pods on a node default to graceful deletion (the kubelet finishes it); 0 removes at once. */
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  /** Finalizers added as the object is marked for deletion (the API server's orphan / foregroundDeletion). */
  addFinalizers?: string[];
}

interface HistoryEntry {
  rv: number;
  bucket: string;
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject;
  old?: KubeObject;
}

type Listener = (e: HistoryEntry) => void;

const HISTORY_LIMIT = 20000;
const TERMINATING_NAMESPACE_ALLOWS = new Set(['events', 'events.events.k8s.io']);

const clone = <T>(o: T): T => structuredClone(o);
const keyOf = (ns: string | undefined, name: string) => `${ns ?? ''}/${name}`;

export class Store {
  private buckets = new Map<string, Map<string, KubeObject>>();
  private rv = 0;
  private history: HistoryEntry[] = [];
  private listeners = new Listeners<Listener>();
  private admissions: Admission[] = [];
  /** Resource buckets that are namespaced; the API layer registers them. */
  private namespaced = new Set<string>();

  registerNamespaced(bucket: string): void {
    this.namespaced.add(bucket);
  }
  isNamespaced(bucket: string): boolean {
    return this.namespaced.has(bucket);
  }
  addAdmission(a: Admission): void {
    this.admissions.push(a);
  }
  currentRV(): string {
    return String(this.rv);
  }
  /** The oldest resourceVersion a watch can still start from. */
  oldestRV(): number {
    return this.history.length ? this.history[0].rv - 1 : this.rv;
  }
  /** Drops watch history up to rv, as etcd compaction does (watches from older RVs get 410). */
  compact(rv = this.rv): void {
    this.history = this.history.filter(h => h.rv > rv);
    this.compactedTo = Math.max(this.compactedTo, rv);
  }
  private compactedTo = 0;

  private bucket(b: string): Map<string, KubeObject> {
    let m = this.buckets.get(b);
    if (!m) {
      m = new Map();
      this.buckets.set(b, m);
    }
    return m;
  }

  get(bucket: string, namespace: string | undefined, name: string): KubeObject {
    const o = this.bucket(bucket).get(keyOf(namespace, name));
    if (!o) throw notFound(bucket, name);
    return clone(o);
  }

  tryGet(bucket: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const o = this.bucket(bucket).get(keyOf(namespace, name));
    return o ? clone(o) : undefined;
  }

  /**
   * The stored object, not copied: READ-ONLY. For checks made on every pod event (is the node
   * Ready, its taints): a copy of a Node with its image list per pod was most of their cost.
   */
  peek(bucket: string, namespace: string | undefined, name: string): Readonly<KubeObject> | undefined {
    return this.bucket(bucket).get(keyOf(namespace, name));
  }

  list(bucket: string, opts: ListOptions = {}): { items: KubeObject[]; resourceVersion: string } {
    return { items: this.matching(bucket, opts).map(clone), resourceVersion: this.currentRV() };
  }

  /**
   * One page of a list in key order: at most `limit` objects (0: all) after the key `after`, only
   * those copied, and how many more match (the API server's remainingItemCount).
   */
  listPage(bucket: string, opts: ListOptions & { after?: string; limit?: number }): { items: KubeObject[]; remaining: number; lastKey?: string } {
    let found = this.matching(bucket, opts);
    if (opts.after !== undefined) {
      const after = opts.after;
      found = found.filter(o => keyOf(o.metadata.namespace, o.metadata.name!).localeCompare(after) > 0);
    }
    const limit = opts.limit ?? 0;
    const page = limit > 0 ? found.slice(0, limit) : found;
    const last = page[page.length - 1];
    return { items: page.map(clone), remaining: found.length - page.length, lastKey: last && keyOf(last.metadata.namespace, last.metadata.name!) };
  }

  /** The stored objects that match, in key order (etcd's), not copied. */
  private matching(bucket: string, opts: ListOptions): KubeObject[] {
    const lsel = parseLabelSelector(opts.labelSelector);
    const fsel = parseFieldSelector(opts.fieldSelector);
    return [...this.bucket(bucket).values()]
      .filter(o => matches(o, opts.namespace, lsel, fsel, bucket))
      .sort((a, b) => keyOf(a.metadata.namespace, a.metadata.name!).localeCompare(keyOf(b.metadata.namespace, b.metadata.name!)));
  }

  /** Whether a list at resourceVersion rv can still be continued: its revision is not yet compacted. */
  continuable(rv: number): boolean {
    return rv >= this.compactedTo && !(this.history.length > 0 && rv < this.history[0].rv - 1);
  }

  /**
   * The stored objects of a bucket (in one namespace, or all), unsorted and not copied: READ-ONLY.
   * For controllers that read every object per decision (the scheduler reads every bound pod for
   * every pod it places): a sorted copy of 300 pods per placement was O(pods) copies per pod.
   */
  scan(bucket: string, namespace?: string): readonly Readonly<KubeObject>[] {
    const all = [...this.bucket(bucket).values()];
    return namespace ? all.filter(o => o.metadata.namespace === namespace) : all;
  }

  create(bucket: string, input: KubeObject, opts: WriteOptions = {}): KubeObject {
    let obj = clone(input);
    const meta = obj.metadata ?? (obj.metadata = {});
    if (!meta.name && meta.generateName) meta.name = meta.generateName + randomSuffix();
    if (!meta.name)
      throw new StoreError(422, 'Invalid', `${bucket} "": name or generateName is required`, {
        causes: [{ reason: 'FieldValueRequired', message: 'Required value: name or generateName is required', field: 'metadata.name' }],
      });
    const ns = this.isNamespaced(bucket) ? meta.namespace : undefined;
    if (this.isNamespaced(bucket)) {
      if (!ns) throw new StoreError(400, 'BadRequest', 'the namespace of the object must be set');
      const nsObj = this.bucket('namespaces').get(keyOf(undefined, ns));
      if (!nsObj) throw new StoreError(404, 'NotFound', `namespaces "${ns}" not found`, { name: ns, kind: 'namespaces' });
      if (nsObj.metadata.deletionTimestamp && !TERMINATING_NAMESPACE_ALLOWS.has(bucket))
        throw new StoreError(
          403,
          'Forbidden',
          `${bucket} "${meta.name}" is forbidden: unable to create new content in namespace ${ns} because it is being terminated`,
        );
    } else {
      delete meta.namespace;
    }
    if (this.bucket(bucket).has(keyOf(ns, meta.name))) {
      throw new StoreError(409, 'AlreadyExists', `${bucket.split('.')[0]} "${meta.name}" already exists`, { name: meta.name, kind: bucket.split('.')[0] });
    }
    meta.uid = randomUUID();
    meta.creationTimestamp = rfc3339Now() as unknown as Date;
    if ('spec' in obj) meta.generation = 1;
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    if (!opts.skipAdmission) for (const a of this.admissions) obj = a(bucket, 'create', obj, undefined);
    if (opts.dryRun) return clone({ ...obj, metadata: { ...obj.metadata, resourceVersion: undefined } });
    obj.metadata.resourceVersion = String(++this.rv);
    this.bucket(bucket).set(keyOf(ns, meta.name), obj);
    this.emit({ rv: this.rv, bucket, type: 'ADDED', object: obj });
    return clone(obj);
  }

  /** Replaces an object. A set metadata.resourceVersion must equal the stored one (409 otherwise). */
  update(bucket: string, input: KubeObject, opts: WriteOptions = {}): KubeObject {
    return this.updateOwned(bucket, clone(input), opts);
  }

  /** update() of an object the caller gives up (mutate's own copy): stored without another copy. */
  private updateOwned(bucket: string, input: KubeObject, opts: WriteOptions): KubeObject {
    let obj = input;
    const ns = this.isNamespaced(bucket) ? obj.metadata.namespace : undefined;
    const name = obj.metadata.name!;
    const old = this.bucket(bucket).get(keyOf(ns, name));
    if (!old) throw notFound(bucket, name);
    if (obj.metadata.resourceVersion && obj.metadata.resourceVersion !== old.metadata.resourceVersion) {
      throw new StoreError(
        409,
        'Conflict',
        `Operation cannot be fulfilled on ${bucket} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        { name, kind: bucket.split('.')[0] },
      );
    }
    // Fields the server owns.
    obj.metadata.uid = old.metadata.uid;
    obj.metadata.creationTimestamp = old.metadata.creationTimestamp;
    obj.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
    obj.metadata.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
    if (!ns) delete obj.metadata.namespace;
    if ('spec' in obj) {
      const changed = JSON.stringify(obj.spec) !== JSON.stringify(old.spec);
      obj.metadata.generation = (old.metadata.generation ?? 1) + (changed ? 1 : 0);
    }
    if (!opts.skipAdmission) for (const a of this.admissions) obj = a(bucket, 'update', obj, clone(old));
    if (opts.dryRun) return clone(obj);
    // An object being deleted whose last finalizer went away is removed now.
    // (A namespace is also held by spec.finalizers, which only /finalize empties; a pod
    // under graceful deletion keeps deletionGracePeriodSeconds > 0 until its kubelet
    // deletes it with grace 0, so status writes meanwhile must not remove it.)
    if (
      obj.metadata.deletionTimestamp &&
      !obj.metadata.finalizers?.length &&
      !((obj.metadata.deletionGracePeriodSeconds ?? 0) > 0) &&
      !(bucket === 'namespaces' && (obj.spec as { finalizers?: string[] } | undefined)?.finalizers?.length)
    ) {
      return this.remove(bucket, ns, name, obj);
    }
    if (JSON.stringify(obj) === JSON.stringify({ ...old, metadata: { ...old.metadata } })) return clone(old);
    obj.metadata.resourceVersion = String(++this.rv);
    this.bucket(bucket).set(keyOf(ns, name), obj);
    this.emit({ rv: this.rv, bucket, type: 'MODIFIED', object: obj, old });
    return clone(obj);
  }

  /** Reads, changes and writes back, retrying on conflicts (the client-go RetryOnConflict idiom). */
  mutate(bucket: string, namespace: string | undefined, name: string, fn: (o: KubeObject) => KubeObject | void, opts: WriteOptions = {}): KubeObject {
    for (let i = 0; ; i++) {
      const cur = this.get(bucket, namespace, name);
      const next = fn(cur) ?? cur;
      try {
        return this.updateOwned(bucket, next, opts);
      } catch (e) {
        if (e instanceof StoreError && e.code === 409 && i < 5) continue;
        throw e;
      }
    }
  }

  /**
   * Deletes an object. With finalizers it only gets a deletionTimestamp; pods bound to
   * a node are deleted gracefully (the node's kubelet removes them with gracePeriodSeconds 0).
   */
  delete(bucket: string, namespace: string | undefined, name: string, opts: DeleteOptions = {}): KubeObject {
    const ns = this.isNamespaced(bucket) ? namespace : undefined;
    const old = this.bucket(bucket).get(keyOf(ns, name));
    if (!old) throw notFound(bucket, name);
    const pre = opts.preconditions;
    if (pre?.uid && pre.uid !== old.metadata.uid)
      throw new StoreError(409, 'Conflict', `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid}`);
    if (pre?.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion)
      throw new StoreError(
        409,
        'Conflict',
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion}`,
      );
    if (!opts.skipAdmission) for (const a of this.admissions) a(bucket, 'delete', clone(old), clone(old));
    const graceful = bucket === 'pods' && (old.spec as { nodeName?: string } | undefined)?.nodeName && opts.gracePeriodSeconds !== 0 && !this.podFinished(old);
    const adding = (opts.addFinalizers ?? []).filter(f => !(old.metadata.finalizers ?? []).includes(f));
    const finalizers = (old.metadata.finalizers?.length ?? 0) + adding.length;
    if (finalizers > 0 || graceful || bucket === 'namespaces') {
      if (old.metadata.deletionTimestamp && !(bucket === 'pods' && opts.gracePeriodSeconds === 0 && finalizers === 0)) return clone(old);
      if (bucket === 'pods' && opts.gracePeriodSeconds === 0 && finalizers === 0) {
        return opts.dryRun ? clone(old) : this.remove(bucket, ns, name, old);
      }
      const next = clone(old);
      next.metadata.deletionTimestamp = rfc3339Now() as unknown as Date;
      if (adding.length) next.metadata.finalizers = [...(next.metadata.finalizers ?? []), ...adding];
      if (graceful) {
        const spec = old.spec as { terminationGracePeriodSeconds?: number };
        next.metadata.deletionGracePeriodSeconds = opts.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? 30;
      }
      if (bucket === 'namespaces') {
        next.status = { ...(next.status as object), phase: 'Terminating' };
        if (!next.metadata.finalizers?.length && !(next.spec as { finalizers?: string[] } | undefined)?.finalizers?.length) {
          // Nothing holds it: gone at once (the namespace controller normally holds "kubernetes").
          return opts.dryRun ? clone(old) : this.remove(bucket, ns, name, old);
        }
      }
      if (opts.dryRun) return next;
      next.metadata.resourceVersion = String(++this.rv);
      this.bucket(bucket).set(keyOf(ns, name), next);
      this.emit({ rv: this.rv, bucket, type: 'MODIFIED', object: next, old });
      return clone(next);
    }
    if (opts.dryRun) return clone(old);
    return this.remove(bucket, ns, name, old);
  }

  private podFinished(pod: KubeObject): boolean {
    const phase = (pod.status as { phase?: string } | undefined)?.phase;
    return phase === 'Succeeded' || phase === 'Failed';
  }

  private remove(bucket: string, ns: string | undefined, name: string, last: KubeObject): KubeObject {
    const gone = clone(last);
    gone.metadata.resourceVersion = String(++this.rv);
    this.bucket(bucket).delete(keyOf(ns, name));
    this.emit({ rv: this.rv, bucket, type: 'DELETED', object: gone });
    return clone(gone);
  }

  private emit(e: HistoryEntry): void {
    this.history.push(e);
    if (this.history.length > HISTORY_LIMIT) this.history.splice(0, this.history.length - HISTORY_LIMIT);
    for (const l of this.listeners.reached(e.bucket, e.object, e.old)) {
      try {
        l(e);
      } catch (err) {
        console.error('sim: store listener failed:', err);
      }
    }
  }

  /**
   * Watches a bucket. Events are delivered synchronously after each write, filtered
   * by namespace and selectors, with the API server's transitions: an object that
   * stops matching a selector is sent as DELETED, one that starts matching as ADDED.
   * Throws StoreError 410 when resourceVersion is older than the kept history.
   */
  watch(bucket: string, opts: WatchOptions, onEvent: (e: WatchEvent) => void): { stop(): void } {
    const lsel = parseLabelSelector(opts.labelSelector);
    const fsel = parseFieldSelector(opts.fieldSelector);
    const from = opts.resourceVersion;
    const deliver = (h: HistoryEntry) => {
      if (h.bucket !== bucket) return;
      const now = matches(h.object, opts.namespace, lsel, fsel, bucket);
      const before = h.old ? matches(h.old, opts.namespace, lsel, fsel, bucket) : false;
      if (h.type === 'ADDED' && now) onEvent({ type: 'ADDED', object: clone(h.object) });
      else if (h.type === 'DELETED' && now) onEvent({ type: 'DELETED', object: clone(h.object) });
      else if (h.type === 'MODIFIED') {
        if (now && before) onEvent({ type: 'MODIFIED', object: clone(h.object) });
        else if (now && !before) onEvent({ type: 'ADDED', object: clone(h.object) });
        else if (!now && before) onEvent({ type: 'DELETED', object: clone(h.object) });
      }
    };
    if (from === undefined || from === '' || from === '0') {
      for (const o of this.list(bucket, opts).items) onEvent({ type: 'ADDED', object: o });
    } else {
      const n = Number(from);
      if (!Number.isFinite(n)) throw new StoreError(400, 'BadRequest', `invalid resourceVersion "${from}"`);
      if (n < this.compactedTo || (this.history.length > 0 && n < this.history[0].rv - 1))
        throw new StoreError(410, 'Expired', `too old resource version: ${from} (${this.oldestRV()})`);
      for (const h of this.history) if (h.rv > n) deliver(h);
    }
    const indexed = fsel.find(r => r.op === 'eq' && isIndexedField(r.path));
    const remove = this.listeners.add(deliver, [bucket], indexed && { path: indexed.path, value: indexed.value });
    return { stop: remove };
  }

  /**
   * Every write to any bucket (or to those named), for controllers that react to several kinds.
   * The listener sees the stored objects themselves, not copies: READ-ONLY (copy before changing
   * anything). A write reaches some twenty listeners; a copy each (object and old) was most of a
   * 100-node sim's CPU. Stored objects are never changed in place (every write stores a new one),
   * so what a listener keeps stays as it was.
   */
  onAny(fn: (bucket: string, e: WatchEvent, old?: KubeObject) => void, buckets?: readonly string[]): { stop(): void } {
    const l: Listener = h => fn(h.bucket, { type: h.type, object: h.object }, h.old);
    return { stop: this.listeners.add(l, buckets) };
  }

  /** Names of all buckets that hold objects, for namespace deletion and GC. */
  bucketNames(): string[] {
    return [...this.buckets.keys()];
  }
}

function matches(o: KubeObject, ns: string | undefined, lsel: Requirement[], fsel: FieldRequirement[], bucket: string): boolean {
  if (ns && o.metadata.namespace !== ns) return false;
  return matchesLabels(lsel, o.metadata.labels) && matchesFields(fsel, o, bucket);
}

function notFound(bucket: string, name: string): StoreError {
  const [resource, group] = bucket.split(/\.(.*)/s);
  return new StoreError(404, 'NotFound', `${bucket} "${name}" not found`, { name, kind: resource, group: group ?? '' });
}

/** Timestamps as the API server writes them: RFC 3339, whole seconds ("2025-01-01T00:00:00Z"). */
function rfc3339Now(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const ALPHANUM = 'bcdfghjklmnpqrstvwxz2456789';
export function randomSuffix(n = 5): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHANUM[Math.floor(Math.random() * ALPHANUM.length)];
  return s;
}
