// The CheckContext a feature's probe sees: the run's clients and fixtures, bound to one check.

import { setMaxListeners } from 'node:events';
import type { CheckContext, Feature } from '../catalog/types.ts';
import { PodExecTransport } from '../cluster/exec.ts';
import { waitTimeoutForPodReady } from '../cluster/podWait.ts';
import { targetWindowsNode } from '../discovery/nodes.ts';
import { FixtureError } from '../fixtures/errors.ts';
import { runProbe } from '../probes/run.ts';
import type { Transport } from '../probes/types.ts';
import type { Limiter } from '../../util/limiter.ts';
import type { RunState } from './state.ts';

export function makeCheckContext(run: RunState, feature: Feature, steps: string[], signal: AbortSignal): CheckContext {
  // A check on many nodes waits for many slots at once, each listening on this signal.
  setMaxListeners(0, signal);
  const cluster = run.cluster!;
  const declared = new Set(feature.fixtures.map(f => f.id));
  // Its place on the critical path (lib/run/priority.ts): queued commands are served by it.
  const rank = run.ranks?.get(feature.id);
  return {
    cluster,
    kube: run.kube,
    runId: run.runId,
    namespace: run.namespace,
    labels: run.labels,
    windowsNode: targetWindowsNode(cluster.nodes),
    secrets: run.secrets,
    fixture(id) {
      if (!declared.has(id)) throw new FixtureError(id, `feature ${feature.id} uses fixture "${id}" but does not declare it in fixtures`);
      const f = run.fixtures.get(id);
      if (!f) throw new FixtureError(id, `fixture "${id}" was not deployed`);
      if (f instanceof FixtureError) throw f;
      return f;
    },
    waitForPodReady(name, timeoutMs) {
      const failed = this.podsCannotAppear({ name });
      if (failed) return Promise.reject(failed);
      const deadline = timeoutMs ?? run.config.timeouts.podStart;
      return run.podWaits ? run.podWaits.wait(run.namespace, name, deadline, signal) : waitTimeoutForPodReady(run.kube, run.namespace, name, deadline, { signal });
    },
    podsCannotAppear(pods) {
      // A pod of a fixture whose creation failed can never appear: say why now, not at the deadline.
      for (const id of declared) {
        const f = run.fixtures.get(id);
        if (f instanceof FixtureError && f.wouldMake(pods)) return f;
      }
      return undefined;
    },
    podTransport: (pod, os, container) => limited(new PodExecTransport(run.kube, { namespace: run.namespace, pod, container }, os), [run.slots.exec], rank),
    nodeTransport: async node => {
      const t = await run.nodeTransport(node, {
        mode: run.config.nodeAccess, ssh: run.config.ssh, version: cluster.version,
        kube: run.kube, runId: run.runId, namespace: run.namespace, render: run.render!, podStartMs: run.config.timeouts.podStart,
        signal: run.abort.signal, execSlots: run.slots.exec, log: run.log,
      });
      // The node's own slot first: a command queued behind others on one node holds no exec slot.
      return t && limited(t, [run.slots.perNode.for(node.name), run.slots.exec], rank);
    },
    probe: (t, op) => runProbe(t, op, run.redactor, { timeoutMs: run.config.probeTimeoutMs, signal }),
    step: text => { steps.push(run.redactor.redact(text)); },
    signal,
    options: { egressUrl: run.config.egressUrl, timeouts: run.config.timeouts, nodes: run.config.nodes },
  };
}

/** The transport, each command holding one slot of every limiter (taken in order, released after), queued by `rank`. */
function limited(t: Transport, limiters: Limiter[], rank?: number): Transport {
  return {
    description: t.description,
    os: t.os,
    run: (command, opts) => limiters.reduceRight<() => ReturnType<Transport['run']>>(
      (inner, l) => () => l.run(inner, opts?.signal, rank), () => t.run(command, opts))(),
  };
}
