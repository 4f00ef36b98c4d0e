// Removes what runs left behind: every namespace and cluster-scoped object with the run label
// (all runs, or one --run-id). Used by the run's teardown and by `wincheck cleanup`.
// Never all-or-nothing: each object is tried on its own (the client retries what is safe), a
// failure is reported and the rest goes on, and what is still there at the end is listed.
// Runs that hold a live lease (lease.ts) are skipped unless force.

import { RUN_LABEL } from '../labels.ts';
import { apiErrorMessage, apiStatusCode } from './apiError.ts';
import type { KubeconfigChoice } from './kubeconfig.ts';
import { isLive } from './lease.ts';
import { deleteNamespaceAndWait } from './namespace.ts';
import type { KubeClients } from './types.ts';
import { listAll } from './list.ts';

/** Kept for callers that import it from here. */
export const RUN_LABEL_KEY = RUN_LABEL;

export interface CleanupReport {
  namespaces: string[];
  clusterObjects: string[];
  errors: string[];
  /** Run ids skipped because their run is still in progress (live lease). */
  skipped: string[];
  /** What is known to remain after the attempt ("Namespace wincheck-abc", "RuntimeClass x"). */
  leftovers: string[];
}

export interface CleanupOptions {
  runId?: string;
  timeoutMs: number;
  log?: (l: string) => void;
  /** Delete runs that hold a live lease too (the run's own teardown; `cleanup --force`). */
  force?: boolean;
}

export async function cleanupRuns(kube: KubeClients, opts: CleanupOptions): Promise<CleanupReport> {
  const labelSelector = opts.runId ? `${RUN_LABEL_KEY}=${opts.runId}` : RUN_LABEL_KEY;
  const report: CleanupReport = { namespaces: [], clusterObjects: [], errors: [], skipped: [], leftovers: [] };
  const listed = async <T>(what: string, list: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await list();
    } catch (e) {
      report.errors.push(`could not list ${what}: ${apiErrorMessage(e)}`);
      return [];
    }
  };
  const kinds = clusterScopedKinds(kube);
  const [nss, found] = await Promise.all([
    listed('namespaces', async () => (await listAll(q => kube.core.listNamespace({ labelSelector, ...q }))).items),
    Promise.all(kinds.map(k => listed(`${k.kind} objects`, () => k.list(labelSelector)))),
  ]);
  const live = new Set<string>();
  for (const ns of nss) {
    const id = ns.metadata?.labels?.[RUN_LABEL_KEY];
    if (id && !opts.force && isLive(ns)) live.add(id);
  }
  report.skipped = [...live].sort();
  for (const id of report.skipped) opts.log?.(`Skipped run ${id}: it is still in progress (its lease is live); use --force to delete it anyway.`);

  await Promise.all([
    ...kinds.flatMap((k, i) =>
      found[i]
        .filter(o => !live.has(o.runId))
        .map(async ({ name }) => {
          try {
            await k.remove(name);
            report.clusterObjects.push(`${k.kind} ${name}`);
            opts.log?.(`Deleted ${k.kind} ${name}.`);
          } catch (e) {
            if (apiStatusCode(e) === 404) return;
            report.errors.push(`failed to delete ${k.kind} ${name}: ${apiErrorMessage(e)}`);
            report.leftovers.push(`${k.kind} ${name}`);
          }
        }),
    ),
    ...nss
      .filter(ns => !live.has(ns.metadata?.labels?.[RUN_LABEL_KEY] ?? ''))
      .map(async ns => {
        const name = ns.metadata!.name!;
        try {
          opts.log?.(`Deleting namespace ${name}...`);
          await deleteNamespaceAndWait(kube, name, opts.timeoutMs, opts.log);
          report.namespaces.push(name);
          opts.log?.(`Deleted namespace ${name}.`);
        } catch (e) {
          report.errors.push(e instanceof Error ? e.message : String(e));
          report.leftovers.push(`Namespace ${name}`);
        }
      }),
  ]);
  return report;
}

/**
 * `wincheck cleanup` with every flag that chose the cluster and identity (the resolved context, and
 * --cluster, --user, --as, --as-group, --as-uid as given), so the line works as printed.
 */
export function cleanupCommand(kube: Pick<KubeClients, 'context'>, o: KubeconfigChoice & { runId?: string }): string {
  const quote = (s: string) => (/^[\w./:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const flag = (name: string, value: string | undefined) => (value ? [name, quote(value)] : []);
  return [
    'wincheck cleanup',
    ...flag('--kubeconfig', o.kubeconfig),
    ...flag('--context', kube.context || o.context),
    ...flag('--cluster', o.cluster),
    ...flag('--user', o.user),
    ...flag('--as', o.as),
    ...(o.asGroups ?? []).flatMap(g => flag('--as-group', g)),
    ...flag('--as-uid', o.asUid),
    ...flag('--run-id', o.runId),
  ].join(' ');
}

/** Cluster-scoped kinds a run may create (a namespace's deletion does not remove them). */
function clusterScopedKinds(kube: KubeClients) {
  type Listed = { items: { metadata?: { name?: string; labels?: Record<string, string> } }[] };
  const names = (list: Listed) => list.items.map(o => ({ name: o.metadata?.name ?? '', runId: o.metadata?.labels?.[RUN_LABEL_KEY] ?? '' })).filter(o => o.name);
  return [
    {
      kind: 'RuntimeClass',
      list: async (labelSelector: string) => names(await listAll(q => kube.node.listRuntimeClass({ labelSelector, ...q }))),
      remove: (name: string) => kube.node.deleteRuntimeClass({ name }),
    },
    {
      kind: 'StorageClass',
      list: async (labelSelector: string) => names(await listAll(q => kube.storage.listStorageClass({ labelSelector, ...q }))),
      remove: (name: string) => kube.storage.deleteStorageClass({ name }),
    },
    {
      kind: 'PersistentVolume',
      list: async (labelSelector: string) => names(await listAll(q => kube.core.listPersistentVolume({ labelSelector, ...q }))),
      remove: (name: string) => kube.core.deletePersistentVolume({ name }),
    },
  ];
}
