// Removes what runs left behind: every namespace and cluster-scoped object with the run label
// (all runs, or one --run-id). Used by the run's teardown and by `wincheck cleanup`.

import { apiErrorMessage, apiStatusCode } from './apiError.ts';
import { deleteNamespaceAndWait } from './namespace.ts';
import type { KubeClients } from './types.ts';

export const RUN_LABEL_KEY = 'wincheck.io/run-id';

export interface CleanupReport {
  namespaces: string[];
  clusterObjects: string[];
  errors: string[];
}

export async function cleanupRuns(kube: KubeClients, opts: { runId?: string; timeoutMs: number; log?: (l: string) => void }): Promise<CleanupReport> {
  const labelSelector = opts.runId ? `${RUN_LABEL_KEY}=${opts.runId}` : RUN_LABEL_KEY;
  const report: CleanupReport = { namespaces: [], clusterObjects: [], errors: [] };
  const [rcs, nss] = await Promise.all([
    kube.node.listRuntimeClass({ labelSelector }),
    kube.core.listNamespace({ labelSelector }),
  ]);
  await Promise.all([
    ...rcs.items.map(async rc => {
      const name = rc.metadata!.name!;
      try {
        await kube.node.deleteRuntimeClass({ name });
        report.clusterObjects.push(`RuntimeClass ${name}`);
        opts.log?.(`Deleted RuntimeClass ${name}.`);
      } catch (e) {
        if (apiStatusCode(e) !== 404) report.errors.push(`failed to delete RuntimeClass ${name}: ${apiErrorMessage(e)}`);
      }
    }),
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
