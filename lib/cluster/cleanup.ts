// Removes what runs left behind: every namespace and cluster-scoped object with the run label
// (all runs, or one --run-id). Used by the run's teardown and by `wincheck cleanup`.

import { RUN_LABEL } from '../labels.ts';
import { apiErrorMessage, apiStatusCode } from './apiError.ts';
import { deleteNamespaceAndWait } from './namespace.ts';
import type { KubeClients } from './types.ts';

/** Kept for callers that import it from here. */
export const RUN_LABEL_KEY = RUN_LABEL;

export interface CleanupReport {
  namespaces: string[];
  clusterObjects: string[];
  errors: string[];
}

export async function cleanupRuns(kube: KubeClients, opts: { runId?: string; timeoutMs: number; log?: (l: string) => void }): Promise<CleanupReport> {
  const labelSelector = opts.runId ? `${RUN_LABEL_KEY}=${opts.runId}` : RUN_LABEL_KEY;
  const report: CleanupReport = { namespaces: [], clusterObjects: [], errors: [] };
  const clusterScoped = clusterScopedKinds(kube);
  const [nss, ...found] = await Promise.all([
    kube.core.listNamespace({ labelSelector }),
    ...clusterScoped.map(k => k.list(labelSelector)),
  ]);
  await Promise.all([
    ...clusterScoped.flatMap((k, i) => found[i].map(async name => {
      try {
        await k.remove(name);
        report.clusterObjects.push(`${k.kind} ${name}`);
        opts.log?.(`Deleted ${k.kind} ${name}.`);
      } catch (e) {
        if (apiStatusCode(e) !== 404) report.errors.push(`failed to delete ${k.kind} ${name}: ${apiErrorMessage(e)}`);
      }
    })),
    ...nss.items.map(async ns => {
      const name = ns.metadata!.name!;
      try {
        opts.log?.(`Deleting namespace ${name}...`);
        await deleteNamespaceAndWait(kube, name, opts.timeoutMs);
        report.namespaces.push(name);
        opts.log?.(`Deleted namespace ${name}.`);
      } catch (e) {
        report.errors.push(e instanceof Error ? e.message : String(e));
      }
    }),
  ]);
  return report;
}

/** Cluster-scoped kinds a run may create (a namespace's deletion does not remove them). */
function clusterScopedKinds(kube: KubeClients) {
  const names = (list: { items: { metadata?: { name?: string } }[] }) => list.items.map(o => o.metadata?.name ?? '').filter(Boolean);
  return [
    { kind: 'RuntimeClass', list: async (labelSelector: string) => names(await kube.node.listRuntimeClass({ labelSelector })), remove: (name: string) => kube.node.deleteRuntimeClass({ name }) },
    { kind: 'StorageClass', list: async (labelSelector: string) => names(await kube.storage.listStorageClass({ labelSelector })), remove: (name: string) => kube.storage.deleteStorageClass({ name }) },
    { kind: 'PersistentVolume', list: async (labelSelector: string) => names(await kube.core.listPersistentVolume({ labelSelector })), remove: (name: string) => kube.core.deletePersistentVolume({ name }) },
  ];
}
