// The store's listeners, indexed so that a write reaches only those that can care: every
// listener of any bucket, those of the written bucket, and, for watches that select one object
// or one node's pods by an equality field selector (each kubelet watches
// spec.nodeName=<its node>), only those whose value the object had before or has now. On a
// 500-node cluster each pod write otherwise ran 1,500 listeners (a pod watch, a node watch and a
// config listener per kubelet). Listeners still run in the order they were added.

/** Fields a watch is indexed by when its selector asks for one value of them (read by plain path). */
const INDEXED_FIELDS = ['spec.nodeName', 'metadata.name'] as const;
type IndexedField = (typeof INDEXED_FIELDS)[number];

export interface Selection {
  bucket?: string;
  /** An equality requirement on an indexed field the listener's selector holds. */
  field?: { path: string; value: string };
}

interface Entry<L> {
  seq: number;
  fn: L;
}

const read = (o: unknown, path: IndexedField): string => {
  let cur: unknown = o;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined || cur === null ? '' : String(cur);
};

export const isIndexedField = (path: string): path is IndexedField => (INDEXED_FIELDS as readonly string[]).includes(path);

export class Listeners<L> {
  private seq = 0;
  private any = new Set<Entry<L>>();
  private byBucket = new Map<string, Set<Entry<L>>>();
  /** bucket → field → value → listeners. */
  private byField = new Map<string, Map<IndexedField, Map<string, Set<Entry<L>>>>>();

  /** Adds a listener for the buckets named (all when none); returns its removal. */
  add(fn: L, buckets: readonly string[] | undefined, field?: { path: string; value: string }): () => void {
    const entry: Entry<L> = { seq: this.seq++, fn };
    const sets: Set<Entry<L>>[] = [];
    if (!buckets) sets.push(this.any);
    else
      for (const b of buckets) {
        if (field && isIndexedField(field.path)) {
          const fields = this.byField.get(b) ?? new Map<IndexedField, Map<string, Set<Entry<L>>>>();
          this.byField.set(b, fields);
          const values = fields.get(field.path) ?? new Map<string, Set<Entry<L>>>();
          fields.set(field.path, values);
          const set = values.get(field.value) ?? new Set<Entry<L>>();
          values.set(field.value, set);
          sets.push(set);
        } else {
          const set = this.byBucket.get(b) ?? new Set<Entry<L>>();
          this.byBucket.set(b, set);
          sets.push(set);
        }
      }
    for (const s of sets) s.add(entry);
    return () => {
      for (const s of sets) s.delete(entry);
    };
  }

  /** The listeners a write of `object` (was `old`) to `bucket` reaches, in the order they were added. */
  reached(bucket: string, object: unknown, old: unknown): L[] {
    const found: Entry<L>[] = [...this.any, ...(this.byBucket.get(bucket) ?? [])];
    const fields = this.byField.get(bucket);
    if (fields)
      for (const [path, values] of fields) {
        const now = read(object, path);
        for (const e of values.get(now) ?? []) found.push(e);
        if (old !== undefined) {
          const before = read(old, path);
          if (before !== now) for (const e of values.get(before) ?? []) found.push(e);
        }
      }
    // A listener indexed under two fields' values is reached once.
    const unique = [...new Set(found)];
    return unique.sort((a, b) => a.seq - b.seq).map(e => e.fn);
  }
}
