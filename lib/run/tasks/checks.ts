// Task "checks": every check starts at once, the critical path first (what costs is bounded by
// the run's slots, not by checks in flight); each waits for its own fixtures. The results are
// kept in report order: by suite, each suite's features in catalog order.

import { suiteOf } from '../../catalog/registry.ts';
import type { Feature } from '../../catalog/types.ts';
import type { BuildScope } from '../builds.ts';
import { checkFeature, notRunResult, stopReason } from '../checkFeature.ts';
import type { CheckInputs } from '../context.ts';
import { CheckPool } from '../checkPool.ts';
import type { RunEvents, SelectedFeature } from '../events.ts';
import { byPriority } from '../priority.ts';
import type { RunState } from '../state.ts';
import type { Task } from '../taskRunner.ts';
import type { Deployment } from './deploy.ts';
import { reachesNodes } from '../access.ts';
import { clearDiagnostics, collectDiagnostics, wantsDiagnostics } from '../diagnostics/collect.ts';
import { errorText } from '../../../util/errorText.ts';
import type { CheckResult } from '../../catalog/types.ts';
import { disruptiveTurns, isDisruptive } from '../disruptive.ts';

/** How long one check's diagnostics may take; past it the check's result goes on without them. */
const DIAGNOSTICS_DEADLINE_MS = 120_000;

/** The result with its diagnostics folder; a failure to collect is logged and changes nothing else. */
async function withDiagnostics(r: RunState, f: Feature, inputs: CheckInputs, res: CheckResult): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const path = await Promise.race([
      collectDiagnostics(
        {
          kube: r.kube,
          namespace: inputs.namespace,
          fixtureIds: f.fixtures.map(s => s.id),
          nodes: inputs.cluster.nodes,
          redactor: r.redactor,
          reportDir: r.config.reportDir,
          nodeTransport: reachesNodes(r.features) ? inputs.nodeTransport : undefined,
          signal: r.abort.signal,
        },
        res,
      ),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`not done within ${DIAGNOSTICS_DEADLINE_MS / 1000}s`)), DIAGNOSTICS_DEADLINE_MS);
      }),
    ]);
    return { ...res, diagnostics: path };
  } catch (e) {
    r.log(`Warning: diagnostics of ${f.id} not saved: ${r.redactor.redact(errorText(e))}`);
    return res;
  } finally {
    clearTimeout(timer);
  }
}

export function checksTask(deployment: Deployment, events: RunEvents): Task<RunState> {
  return {
    title: 'checks',
    setup: async r => {
      // An earlier run's folders would be read as this run's.
      clearDiagnostics(r.config.reportDir);
      // Disruptive checks share the --disruptive-node: after the routine ones, one at a time (lib/run/disruptive.ts).
      const routine = r.features.filter(f => !isDisruptive(f));
      const turns = disruptiveTurns(r.abort.signal, () => Promise.all(routine.map(f => pool.result(f))));
      const pool: CheckPool = new CheckPool(
        byPriority(r.features, r.config.timeouts),
        r.features.length,
        f =>
          turns(f, () =>
            r.waves!.run(f, async () => {
              const scope = r.buildScopes?.get(f.id);
              const inputs = checkInputs(r, f, scope);
              await Promise.all(f.fixtures.map(s => deployment.settled(inputs.namespace, s.id)));
              // A per-build instance speaks for its build even when no node was named (n/a, error).
              const res = await checkFeature(inputs, f).then(res => (scope && !res.windowsBuild ? { ...res, windowsBuild: scope.build } : res));
              // Inside the wave: its fixtures are still there.
              return r.config.diagnostics && wantsDiagnostics(res) && !r.abort.signal.aborted ? withDiagnostics(r, f, inputs, res) : res;
            }),
          ).catch((e: unknown) => {
            // Interrupted while waiting for its turn: not run, as the checks never started.
            if (r.abort.signal.aborted) return notRunResult(f, stopReason(r.abort.signal));
            throw e;
          }),
        f => notRunResult(f, stopReason(r.abort.signal)),
        r.abort.signal,
        {
          onBegin: f => events.onCheckBegin(selectedOf(f)),
          onEnd: (res, done) => events.onCheckEnd(res, { done, total: r.features.length }),
        },
      );
      pool.start();
      r.results = await Promise.all(reportOrder(r.features).map(f => pool.result(f)));
    },
  };
}

/** What one check reads: the run's clients and bounds; its build's namespace, fixtures and cluster view. */
function checkInputs(r: RunState, f: Feature, scope: BuildScope | undefined): CheckInputs {
  const where = scope ?? { namespace: r.namespace, fixtures: r.fixtures, render: r.render!, cluster: r.cluster! };
  const { config } = r;
  return {
    cluster: where.cluster,
    kube: r.kube,
    runId: r.runId,
    namespace: where.namespace,
    labels: r.labels,
    secrets: r.secrets,
    fixtures: where.fixtures,
    redactor: r.redactor,
    runSignal: r.abort.signal,
    rank: r.ranks?.get(f.id),
    slots: r.slots,
    podWaits: r.podWaits,
    unpermitted: r.unpermitted?.get(f.id),
    config,
    // The first check to reach a node makes its transport, in that check's namespace.
    nodeTransport: node =>
      r.nodeTransport(node, {
        mode: config.nodeAccess,
        ssh: config.ssh,
        version: where.cluster.version,
        kube: r.kube,
        runId: r.runId,
        namespace: where.namespace,
        render: where.render,
        podStartMs: config.timeouts.podStart,
        signal: r.abort.signal,
        execSlots: r.slots.exec,
        includeCordoned: config.includeCordoned,
        log: r.log,
      }),
  };
}

/** Suites in the order their first feature appears; within a suite, catalog order. */
export function reportOrder(features: Feature[]): Feature[] {
  const suites = [...new Set(features.map(suiteOf))];
  return suites.flatMap(s => features.filter(f => suiteOf(f) === s));
}

export function selectedOf(f: Feature): SelectedFeature {
  return { id: f.id, suite: suiteOf(f), area: f.area, title: f.title };
}
