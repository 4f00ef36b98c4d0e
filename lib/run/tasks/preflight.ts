// Task "preflight": the server answers (GET /version), the RBAC the selection needs is granted,
// discovery reads the cluster; then the run's features are final (one per Windows build where
// build-specific) and the reporters hear the run begin.

import type { KubeConfig } from '@kubernetes/client-node';
import { errorText } from '../../../util/errorText.ts';
import { preflight } from '../../cluster/preflight.ts';
import { discover } from '../../discovery/discover.ts';
import { sshReachable } from '../../discovery/sshReachable.ts';
import { problemWithDisruptiveNode } from '../../discovery/nodes.ts';
import { ClusterUnreachableError, UsageError } from '../../errors.ts';
import { applyNodeAccessMode } from '../../transports/nodeAccess.ts';
import { expandForBuilds } from '../builds.ts';
import { renderContextFor } from '../createFixtures.ts';
import { checkPermissions } from '../permissions.ts';
import { byPriority, ranksOf } from '../priority.ts';
import { mainTarget, type RunState } from '../state.ts';
import type { Task } from '../taskRunner.ts';

export function preflightTask(kc: KubeConfig, begin: (r: RunState) => Promise<void>): Task<RunState> {
  return {
    title: 'preflight',
    setup: async r => {
      const { config, kube } = r;
      const version = await preflight(kc, config.timeouts.preflightConnect);
      r.unpermitted = await checkPermissions(kc, {
        features: r.features,
        namespace: r.namespace,
        server: kube.server,
        skipUnpermitted: config.skipUnpermitted,
        signal: r.abort.signal,
        log: r.log,
      });
      try {
        r.cluster = await discover(kube, {
          version,
          loadBalancer: config.loadBalancer,
          sshCheck: sshReachable(config.ssh),
          nodeFlapWaitMs: config.timeouts.nodeFlap,
          log: r.log,
        });
        r.cluster.nodeAccess = applyNodeAccessMode(r.cluster.nodeAccess, config.nodeAccess);
      } catch (e) {
        throw new ClusterUnreachableError(`preflight failed on ${kube.server}: ${errorText(e)}`);
      }
      // The node the user named must be one this run may disrupt: a Ready Windows node of the cluster.
      if (config.disruptiveNode) {
        const problem = problemWithDisruptiveNode(config.disruptiveNode, r.cluster.nodes);
        if (problem) throw new UsageError(problem);
      }
      r.render = renderContextFor(
        { runId: r.runId, namespace: r.namespace, secrets: r.secrets, imageRegistry: config.imageRegistry, disruptiveNode: config.disruptiveNode },
        r.cluster,
      );
      // Several Windows builds: each build-specific feature runs once per build (lib/run/builds.ts).
      ({ features: r.features, scopes: r.buildScopes } = expandForBuilds(r.features, r.cluster, {
        main: mainTarget(r),
        render: { runId: r.runId, secrets: r.secrets, imageRegistry: config.imageRegistry, disruptiveNode: config.disruptiveNode },
        unpermitted: r.unpermitted,
      }));
      r.ranks = ranksOf(byPriority(r.features, config.timeouts));
      await begin(r);
    },
  };
}
