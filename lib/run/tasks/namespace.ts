// Task "namespace": the run's namespace (and one per further Windows build), holding the run's
// lease; its teardown is the cleanup of everything carrying the run label (or the lease's end
// under --keep).

import { errorText } from '../../../util/errorText.ts';
import { cleanupRuns } from '../../cluster/cleanup.ts';
import { heartbeatAnnotations, startHeartbeat } from '../../cluster/lease.ts';
import { createRunNamespace, endLease } from '../../cluster/namespace.ts';
import type { KubeClients } from '../../cluster/types.ts';
import { otherBuildScopes } from '../builds.ts';
import type { RunState } from '../state.ts';
import type { Task } from '../taskRunner.ts';

export interface NamespaceTaskOptions {
  /** Clients without the run's abort signal: cleanup still runs after an interrupt. */
  teardownKube: KubeClients;
  /** The exact `wincheck cleanup ...` line for what may be left. */
  cleanupHint: string;
  onCleanupFailed(): void;
}

export function namespaceTask(o: NamespaceTaskOptions): Task<RunState> {
  let heartbeat: { stop(): void } | undefined;
  return {
    title: 'namespace',
    setup: async r => {
      // The namespace carries the run's lease (a heartbeat): `wincheck cleanup` leaves it alone while we run.
      await createRunNamespace(r.kube, r.namespace, r.labels, heartbeatAnnotations(), refused => r.log(refused));
      heartbeat = startHeartbeat(r.kube, r.namespace, line => r.log(`Warning: ${line}`));
      r.log(`Created namespace ${r.namespace}.`);
      for (const scope of otherBuildScopes(r.buildScopes)) {
        await createRunNamespace(r.kube, scope.namespace, r.labels, {}, refused => r.log(refused));
        r.log(`Created namespace ${scope.namespace} for Windows build ${scope.build} (${scope.label}).`);
      }
    },
    teardown: async r => {
      heartbeat?.stop();
      if (r.config.keep) {
        await endLease(o.teardownKube, r.namespace).catch(e => r.log(`Warning: could not release the lease on ${r.namespace}: ${errorText(e)}`));
        r.log(
          r.config.simulated
            ? `Kept namespace ${r.namespace} (--keep) until the simulated cluster stops, at the end of this run.`
            : `Kept namespace ${r.namespace} (--keep); remove it with: ${o.cleanupHint}`,
        );
        return;
      }
      const report = await cleanupRuns(o.teardownKube, { runId: r.runId, timeoutMs: r.config.timeouts.namespaceDelete, log: r.log, force: true });
      if (report.errors.length) {
        o.onCleanupFailed();
        throw new Error(`${report.errors.join('; ')}; left behind: ${report.leftovers.join(', ') || 'unknown'}; run "${o.cleanupHint}"`);
      }
    },
  };
}
