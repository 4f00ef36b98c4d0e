// `wincheck run`: preflight → discovery → namespace → fixtures → suites → reports, with cleanup
// in teardown (and on Ctrl-C). Returns the exit code; throws UsageError / ClusterUnreachableError.

import { setMaxListeners } from 'node:events';
import { isFailing } from '../catalog/outcome.ts';
import { messageOf } from '../errors.ts';
import { loadCatalog, suiteOf } from '../catalog/registry.ts';
import { selectFeatures } from '../catalog/select.ts';
import type { Feature } from '../catalog/types.ts';
import { makeClients } from '../cluster/client.ts';
import { cleanupCommand, cleanupRuns } from '../cluster/cleanup.ts';
import { heartbeatAnnotations, startHeartbeat } from '../cluster/lease.ts';
import { RUN_LABEL } from '../labels.ts';
import { loadKubeConfig } from '../cluster/kubeconfig.ts';
import { createRunNamespace, endLease } from '../cluster/namespace.ts';
import { preflight } from '../cluster/preflight.ts';
import type { RunConfig } from '../config/types.ts';
import { discover } from '../discovery/discover.ts';
import { sshReachable } from '../discovery/sshReachable.ts';
import { ClusterUnreachableError, UsageError } from '../errors.ts';
import { generateSecretValues, Redactor } from '../fixtures/secrets.ts';
import ConsoleReporter from '../report/console.ts';
import HtmlReporter from '../report/html.ts';
import JsonReporter from '../report/json.ts';
import JUnitReporter from '../report/junit.ts';
import { Multiplexer } from '../report/multiplexer.ts';
import SummaryReporter from '../report/summary.ts';
import { emptyCounts, type Reporter, type RunInfo } from '../report/types.ts';
import { renderContextFor } from './deploy.ts';
import { checkFeature, notRunResult, stopReason } from './checkFeature.ts';
import { deployPlans, expandForBuilds, otherBuildScopes, scopedRun } from './builds.ts';
import { planDeployment } from './waves.ts';
import type { RenderedFixture } from '../fixtures/types.ts';
import { prepullImages, pullTargets } from './prepull.ts';
import { CheckPool } from './checkPool.ts';
import { runSuites } from './mochaRunner.ts';
import { namespaceFor, newRunId } from './runId.ts';
import type { NodeTransportFactory, RunState } from './state.ts';
import { signalsReceived } from './signals.ts';
import { TaskRunner } from './taskRunner.ts';
import { checkPermissions } from './permissions.ts';
import { KeyedLimiter, Limiter } from './limiter.ts';
import { byPriority, fixturesByPriority, ranksOf } from './priority.ts';
import { SharedPodWaits } from './podWaits.ts';
import { waitTimeoutForPodReady } from '../cluster/podWait.ts';
import { PER_NODE_COMMANDS } from '../config/resolve.ts';
import { applyNodeAccessMode, NodeAccess } from '../transports/nodeAccess.ts';

export const EXIT_INTERRUPTED = 130;

export interface RunOptions {
  /** Replaces the default reporters (tests). */
  reporters?: Reporter[];
  out?: (line: string) => void;
  nodeTransport?: NodeTransportFactory;
  /** Install SIGINT/SIGTERM handlers (the CLI does; tests may not). */
  handleSignals?: boolean;
  catalog?: Feature[];
}

export async function runWincheck(config: RunConfig, opts: RunOptions = {}): Promise<number> {
  const out = opts.out ?? ((l: string) => process.stdout.write(l + '\n'));
  // 1. What to run: name errors are usage errors, found before touching any cluster.
  const features = selectFeatures(opts.catalog ?? await loadCatalog(), { suites: config.suites, features: config.features, skip: config.skip });
  if (!features.length) throw new UsageError('no feature selected: --skip excluded everything');
  // 2. Which cluster.
  const { kc, source } = loadKubeConfig({ kubeconfig: config.kubeconfig, context: config.context });
  // Every call of the run's clients ends on Ctrl-C or the deadline; teardown has its own clients,
  // without that signal, so cleanup still runs after an interrupt.
  const abort = new AbortController();
  const kube = makeClients(kc, { signal: abort.signal });
  const teardownKube = makeClients(kc);
  const runId = newRunId();
  const secrets = generateSecretValues();
  // The console last: it says whether the report files were written.
  const reporter = new Multiplexer(opts.reporters ?? [
    new JUnitReporter(config.reportDir, out), new SummaryReporter(config.reportDir), new JsonReporter(config.reportDir), new HtmlReporter(config.reportDir), new ConsoleReporter(out, { tty: !opts.out && process.stdout.isTTY === true }),
  ], out);
  // HostProcess pod or SSH per node (lib/transports); SSH connections are closed after the run.
  const nodeAccess = opts.nodeTransport ? undefined : new NodeAccess();
  const run: RunState = {
    config, kube, runId, namespace: namespaceFor(runId), labels: { [RUN_LABEL]: runId }, features,
    fixtures: new Map(), secrets, redactor: new Redactor(Object.values(secrets)), reporter, results: [],
    abort, nodeTransport: opts.nodeTransport ?? nodeAccess!.transportFor, errors: [],
    slots: { exec: new Limiter(config.parallel), perNode: new KeyedLimiter(PER_NODE_COMMANDS) },
    podWaits: new SharedPodWaits((namespace, name, timeoutMs) => waitTimeoutForPodReady(kube, namespace, name, timeoutMs, { signal: abort.signal })),
    log: line => reporter.onLog(line),
  };
  // Every check listens on the run's signal at once (they all run concurrently).
  setMaxListeners(0, run.abort.signal);
  const started = Date.now();
  let begun = false;
  let heartbeat: { stop(): void } | undefined;
  const cleanupHint = cleanupCommand(kube, { kubeconfig: config.kubeconfig, runId });
  let cleanupFailed = false;
  const removeSignals = opts.handleSignals ? installSignalHandlers(run, out, cleanupHint) : () => undefined;

  const tasks = new TaskRunner<RunState>({
    abort: run.abort,
    timeoutMs: config.timeoutMs,
    onError: (title, e) => {
      const message = run.redactor.redact(`${title}: ${messageOf(e)}`);
      run.errors.push(message);
      if (begun) reporter.onError(message);
    },
  });
  tasks.add({
    title: 'preflight',
    setup: async r => {
      const version = await preflight(kc, config.timeouts.preflightConnect);
      await checkPermissions(r, kc);
      try {
        r.cluster = await discover(kube, { version, loadBalancer: config.loadBalancer, sshCheck: sshReachable(config.ssh), nodeFlapWaitMs: config.timeouts.nodeFlap, log: run.log });
        r.cluster.nodeAccess = applyNodeAccessMode(r.cluster.nodeAccess, config.nodeAccess);
      } catch (e) {
        throw new ClusterUnreachableError(`preflight failed on ${kube.server}: ${messageOf(e)}`);
      }
      r.render = renderContextFor(r, r.cluster);
      // Several Windows builds: each build-specific feature runs once per build (lib/run/builds.ts).
      ({ features: r.features, scopes: r.buildScopes } = expandForBuilds(r, r.cluster));
      r.ranks = ranksOf(byPriority(r.features, config.timeouts));
      await reporter.onBegin(runInfo(r, source, started));
      begun = true;
    },
  });
  tasks.add({
    title: 'namespace',
    setup: async r => {
      // The namespace carries the run's lease (a heartbeat): `wincheck cleanup` leaves it alone while we run.
      await createRunNamespace(kube, r.namespace, r.labels, heartbeatAnnotations(), refused => r.log(refused));
      heartbeat = startHeartbeat(kube, r.namespace, line => r.log(`Warning: ${line}`));
      r.log(`Created namespace ${r.namespace}.`);
      for (const scope of otherBuildScopes(r)) {
        await createRunNamespace(kube, scope.namespace, r.labels, {}, refused => r.log(refused));
        r.log(`Created namespace ${scope.namespace} for Windows build ${scope.build} (${scope.label}).`);
      }
    },
    teardown: async r => {
      heartbeat?.stop();
      if (config.keep) {
        await endLease(teardownKube, r.namespace).catch(e => r.log(`Warning: could not release the lease on ${r.namespace}: ${messageOf(e)}`));
        r.log(config.simulated
          ? `Kept namespace ${r.namespace} (--keep) until the simulated cluster stops, at the end of this run.`
          : `Kept namespace ${r.namespace} (--keep); remove it with: ${cleanupHint}`);
        return;
      }
      const report = await cleanupRuns(teardownKube, { runId: r.runId, timeoutMs: config.timeouts.namespaceDelete, log: r.log, force: true });
      if (report.errors.length) {
        cleanupFailed = true;
        throw new Error(`${report.errors.join('; ')}; left behind: ${report.leftovers.join(', ') || 'unknown'}; run "${cleanupHint}"`);
      }
    },
  });
  /** Each fixture's creation, settled (created or its failure recorded). */
  const fixturesSettled = new Map<string, Promise<void>>();
  let deploying: Promise<void> = Promise.resolve();
  tasks.add({
    title: 'deploy fixtures',
    setup: async r => {
      // One deployment per Windows build's namespace (just the run's own on single-build clusters);
      // one pre-pull phase for all of them first (unless --no-prepull), so pod-start deadlines
      // count from images present.
      // The critical path's fixtures are created (and their pods started) first.
      const plans = deployPlans(r).map(p => ({ ...p, specs: fixturesByPriority(p.specs, r.ranks!, r.features) }));
      for (const p of plans) p.run.log(`Deploying ${p.specs.length} fixture(s)${p.scope ? ` for ${p.scope.label} in ${p.scope.namespace}` : ''}: ${p.specs.map(s => s.id).join(', ') || 'none'}.`);
      const settle = new Map<string, () => void>();
      for (const p of plans)
        for (const s of p.specs) fixturesSettled.set(`${p.run.namespace}/${s.id}`, new Promise(resolve => settle.set(`${p.run.namespace}/${s.id}`, resolve)));
      const prepull = config.prepull === false ? undefined : async (rendered: RenderedFixture[]) => { await prepullImages(r, pullTargets(rendered, r.cluster!.nodes)); };
      // In waves that fit the nodes' capacity (lib/run/waves.ts; one wave where there is room).
      r.waves = await planDeployment(r, plans, key => settle.get(key)?.());
      // Not awaited: each check starts once its own fixtures are created, not after all of them.
      deploying = r.waves.start(prepull);
      deploying.catch(() => undefined);
    },
    // Creates still in flight settle before the namespace goes: nothing is created after cleanup.
    teardown: async r => { await deploying; await r.waves?.idle(); },
  });
  tasks.add({
    title: 'checks',
    setup: async r => {
      // Every check starts at once, the critical path first: what costs is bounded by r.slots, not by checks in flight.
      const pool = new CheckPool(byPriority(r.features, config.timeouts), r.features.length, f => r.waves!.run(f, async () => {
        const scoped = scopedRun(r, r.buildScopes?.get(f.id));
        await Promise.all(f.fixtures.map(s => fixturesSettled.get(`${scoped.namespace}/${s.id}`)));
        const scope = r.buildScopes?.get(f.id);
        // A per-build instance speaks for its build even when no node was named (n/a, error).
        return checkFeature(scoped, f).then(res => (scope && !res.windowsBuild ? { ...res, windowsBuild: scope.build } : res));
      }), f => notRunResult(f, 'the run was interrupted'), r.abort.signal, {
        onBegin: f => reporter.onCheckBegin(selectedOf(f)),
        onEnd: (res, done) => reporter.onCheckEnd(res, { done, total: r.features.length }),
      });
      pool.start();
      r.results = await runSuites({
        session: { features: r.features, strict: config.strict, results: new Map(), check: f => pool.result(f) },
        reporter,
        signal: r.abort.signal,
      });
    },
  });

  let result;
  try {
    result = await tasks.run(run);
  } finally {
    await nodeAccess?.close();
  }
  // The handlers stay until the end: a signal while the reports are written still counts.
  try {
    if (!begun) {
      if (result.status === 'interrupted' || result.status === 'timedout') {
        out(`${result.status === 'timedout' ? 'Timed out' : 'Interrupted'} before any check ran${cleanupFailed ? `; the cleanup failed: run "${cleanupHint}"` : ''}.`);
        return result.status === 'interrupted' && !cleanupFailed ? EXIT_INTERRUPTED : 1;
      }
      // Nothing was reported: the failure is the answer (exit 2 or 3 via the error type).
      const e = result.firstError;
      if (e instanceof UsageError || e instanceof ClusterUnreachableError) throw e;
      throw new Error(`wincheck run failed before any check: ${messageOf(e)}`, { cause: e });
    }
    // A signal during teardown (after the checks) still makes the run interrupted: never exit 0 over it.
    if (result.status === 'passed' && run.abort.signal.aborted) result.status = 'interrupted';
    const done = new Set(run.results.map(r => r.id));
    const why = result.status === 'timedout' ? `the run hit its --timeout of ${Math.round((config.timeoutMs ?? 0) / 1000)}s`
      : result.status === 'interrupted' ? stopReason(run.abort.signal) : run.errors[0] ?? 'the run stopped early';
    for (const f of run.features) if (!done.has(f.id)) run.results.push(notRunResult(f, why));
    const counts = emptyCounts();
    for (const r of run.results) counts[r.outcome]++;
    const failing = run.results.some(r => isFailing(r.outcome, config.strict)) || run.errors.length > 0;
    const status = result.status === 'passed' && failing ? 'failed' : result.status;
    await reporter.onEnd({ status, counts, results: run.results, durationMs: Date.now() - started, errors: run.errors });
    // A report that was not written is a lost result: never exit 0 (or 130) over it.
    if (reporter.lost.length) return 1;
    if (status === 'interrupted') {
      // 130 says "stopped cleanly"; a cleanup that failed is a failure a CI job must see.
      if (cleanupFailed) {
        out(`Interrupted, and the cleanup failed: objects of run ${runId} remain; run "${cleanupHint}"`);
        return 1;
      }
      return EXIT_INTERRUPTED;
    }
    // A signal after the teardown (while reporting): complete and clean, but still interrupted.
    if (status === 'passed' && run.abort.signal.aborted) return EXIT_INTERRUPTED;
    return status === 'passed' ? 0 : 1;
  } finally {
    removeSignals();
  }
}

function runInfo(r: RunState, source: string, started: number): RunInfo {
  // A cluster the sim serves says so (discovery reads its advertisement), even through --kubeconfig.
  const advertised = r.cluster!.simulated;
  return {
    runId: r.runId,
    namespace: r.namespace,
    simulated: r.config.simulated || advertised !== undefined,
    simProfile: r.config.simProfile ?? advertised?.profile,
    cluster: r.cluster!,
    strict: r.config.strict,
    startedAt: new Date(started).toISOString(),
    selected: r.features.map(selectedOf),
    reportDir: r.config.reportDir,
    kubeconfigSource: source,
  };
}

function selectedOf(f: Feature) {
  return { id: f.id, suite: suiteOf(f), area: f.area, title: f.title };
}

/** First signal: stop and clean up. Second: leave now, saying what was left behind and how to remove it. */
function installSignalHandlers(run: RunState, out: (l: string) => void, cleanupHint: string): () => void {
  let count = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    signalsReceived.push(sig);
    count++;
    if (count === 1) {
      out(`${sig}: stopping, then deleting namespace ${run.namespace} (press Ctrl-C again to exit at once)...`);
      run.abort.abort(new Error(`interrupted by ${sig}`));
    } else {
      // Exit 1, not 130: the cleanup did not finish.
      out(`${sig} again: exiting now without finishing the cleanup; namespace ${run.namespace} and other objects of run ${run.runId} may remain. Remove them with:\n  ${cleanupHint}`);
      process.exit(1);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => { process.off('SIGINT', onSignal); process.off('SIGTERM', onSignal); };
}
