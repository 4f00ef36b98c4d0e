// The CheckContext a feature's probe sees: the run's clients and fixtures, bound to one check.

import { setMaxListeners } from 'node:events';
import type { CheckContext, Feature } from '../catalog/types.ts';
import { PodExecTransport } from '../transports/podExec.ts';
import { waitTimeoutForPodReady } from '../cluster/podWait.ts';
import { targetWindowsNode } from '../discovery/nodes.ts';
import { FixtureError } from '../fixtures/errors.ts';
import { runProbe } from '../probes/runProbe.ts';
import type { Transport } from '../probes/types.ts';
import type { KeyedLimiter, Limiter } from '../../util/limiter.ts';
import type { KubeClients } from '../cluster/types.ts';
import type { RunConfig } from '../config/types.ts';
import type { ClusterInfo, NodeInfo } from '../discovery/types.ts';
import type { Redactor } from '../fixtures/secrets.ts';
import type { RenderedFixture } from '../fixtures/types.ts';
import type { SharedPodWaits } from '../cluster/sharedPodWaits.ts';

/** What one check reads from its run: the cluster as its build sees it, its namespace's fixtures, the run's bounds. */
export interface CheckInputs {
  cluster: ClusterInfo;
  kube: KubeClients;
  runId: string;
  /** Its namespace: the run's, or its Windows build's (lib/run/builds.ts). */
  namespace: string;
  labels: Record<string, string>;
  secrets: Record<string, string>;
  fixtures: Map<string, RenderedFixture | FixtureError>;
  redactor: Redactor;
  /** The run's signal (Ctrl-C, SIGTERM, the run deadline). */
  runSignal: AbortSignal;
  /** Its place on the critical path (lib/run/priority.ts): queued commands are served by it. */
  rank?: number;
  /** Exec sessions run-wide, and commands on each node. */
  slots: { exec: Limiter; perNode: KeyedLimiter };
  /** Pod-ready waits shared by the checks waiting for the same pod at once. */
  podWaits?: SharedPodWaits;
  /** A transport to the node's host (HostProcess pod or SSH), made once per node. */
  nodeTransport(node: NodeInfo): Promise<Transport | undefined>;
  /** Why this feature is not permitted (--skip-unpermitted): it runs as n/a. */
  unpermitted?: string;
  config: Pick<RunConfig, 'timeouts' | 'probeTimeoutMs' | 'egressUrl' | 'nodes'> &
    Partial<Pick<RunConfig, 'includeCordoned' | 'disruptiveNode' | 'imageRegistry'>>;
}

export function makeCheckContext(inputs: CheckInputs, feature: Feature, steps: string[], signal: AbortSignal): CheckContext {
  // A check on many nodes waits for many slots at once, each listening on this signal.
  setMaxListeners(0, signal);
  const { cluster, rank } = inputs;
  const declared = new Set(feature.fixtures.map(f => f.id));
  return {
    cluster,
    kube: inputs.kube,
    runId: inputs.runId,
    namespace: inputs.namespace,
    labels: inputs.labels,
    windowsNode: targetWindowsNode(cluster.nodes),
    secrets: inputs.secrets,
    fixture(id) {
      if (!declared.has(id)) throw new FixtureError(id, `feature ${feature.id} uses fixture "${id}" but does not declare it in fixtures`);
      const f = inputs.fixtures.get(id);
      if (!f) throw new FixtureError(id, `fixture "${id}" was not deployed`);
      if (f instanceof FixtureError) throw f;
      return f;
    },
    waitForPodReady(name, timeoutMs) {
      const failed = this.podsCannotAppear({ name });
      if (failed) return Promise.reject(failed);
      const deadline = timeoutMs ?? inputs.config.timeouts.podStart;
      return inputs.podWaits
        ? inputs.podWaits.wait(inputs.namespace, name, deadline, signal)
        : waitTimeoutForPodReady(inputs.kube, inputs.namespace, name, deadline, { signal });
    },
    podsCannotAppear(pods) {
      // A pod of a fixture whose creation failed can never appear: say why now, not at the deadline.
      for (const id of declared) {
        const f = inputs.fixtures.get(id);
        if (f instanceof FixtureError && f.wouldMake(pods)) return f;
      }
      return undefined;
    },
    podTransport: (pod, os, container) =>
      limited(new PodExecTransport(inputs.kube, { namespace: inputs.namespace, pod, container }, os), [inputs.slots.exec], rank),
    nodeTransport: async node => {
      const t = await inputs.nodeTransport(node);
      // The node's own slot first: a command queued behind others on one node holds no exec slot.
      return t && limited(t, [inputs.slots.perNode.for(node.name), inputs.slots.exec], rank);
    },
    probe: (t, op) => runProbe(t, op, inputs.redactor, { timeoutMs: inputs.config.probeTimeoutMs, signal }),
    step: text => {
      steps.push(inputs.redactor.redact(text));
    },
    signal,
    options: {
      egressUrl: inputs.config.egressUrl,
      timeouts: inputs.config.timeouts,
      nodes: inputs.config.nodes,
      includeCordoned: inputs.config.includeCordoned,
      disruptiveNode: inputs.config.disruptiveNode,
      imageRegistry: inputs.config.imageRegistry,
    },
  };
}

/** The transport, each command holding one slot of every limiter (taken in order, released after), queued by `rank`. */
function limited(t: Transport, limiters: Limiter[], rank?: number): Transport {
  return {
    description: t.description,
    os: t.os,
    run: (command, opts) =>
      limiters.reduceRight<() => ReturnType<Transport['run']>>(
        (inner, l) => () => l.run(inner, opts?.signal, rank),
        () => t.run(command, opts),
      )(),
  };
}
