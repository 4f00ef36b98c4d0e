// `wincheck run`: preflight → discovery → namespace → fixtures → suites → reports, with cleanup
// in teardown (and on Ctrl-C). Returns the exit code; throws UsageError / ClusterUnreachableError.

import { setMaxListeners } from 'node:events';
import { isFailing, messageOf } from '../catalog/outcome.ts';
import { loadCatalog, suiteOf } from '../catalog/registry.ts';
import { selectFeatures } from '../catalog/select.ts';
import type { Feature } from '../catalog/types.ts';
import { makeClients } from '../cluster/client.ts';
import { cleanupRuns } from '../cluster/cleanup.ts';
import { RUN_LABEL } from '../labels.ts';
import { loadKubeConfig } from '../cluster/kubeconfig.ts';
import { createRunNamespace } from '../cluster/namespace.ts';
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
import { deployFixtures, fixturesToDeploy, renderContextFor } from './deploy.ts';
import { checkFeature, notRunResult } from './checkFeature.ts';
import { CheckPool } from './checkPool.ts';
import { runSuites } from './mochaRunner.ts';
import { namespaceFor, newRunId } from './runId.ts';
import type { NodeTransportFactory, RunState } from './state.ts';
import { TaskRunner } from './taskRunner.ts';
import { KeyedLimiter, Limiter } from './limiter.ts';
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
  const kube = makeClients(kc);
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
    abort: new AbortController(), nodeTransport: opts.nodeTransport ?? nodeAccess!.transportFor, errors: [],
    slots: { exec: new Limiter(config.parallel), perNode: new KeyedLimiter(PER_NODE_COMMANDS) },
    log: line => reporter.onLog(line),
  };
  // Every check listens on the run's signal at once (they all run concurrently).
  setMaxListeners(0, run.abort.signal);
  const started = Date.now();
  let begun = false;
  const removeSignals = opts.handleSignals ? installSignalHandlers(run, out) : () => undefined;

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
      try {
        r.cluster = await discover(kube, { version, loadBalancer: config.loadBalancer, sshCheck: sshReachable(config.ssh) });
        r.cluster.nodeAccess = applyNodeAccessMode(r.cluster.nodeAccess, config.nodeAccess);
      } catch (e) {
        throw new ClusterUnreachableError(`preflight failed on ${kube.server}: ${messageOf(e)}`);
      }
      r.render = renderContextFor(r, r.cluster);
      await reporter.onBegin(runInfo(r, source, started));
      begun = true;
    },
  });
  tasks.add({
    title: 'namespace',
    setup: async r => {
      await createRunNamespace(kube, r.namespace, r.labels);
      r.log(`Created namespace ${r.namespace}.`);
    },
    teardown: async r => {
      if (config.keep) {
        r.log(config.simulated
          ? `Kept namespace ${r.namespace} (--keep) until the simulated cluster stops, at the end of this run.`
          : `Kept namespace ${r.namespace} (--keep); remove it with: ${cleanupCommand(config, r.runId)}`);
        return;
      }
      const report = await cleanupRuns(kube, { runId: r.runId, timeoutMs: config.timeouts.namespaceDelete, log: r.log });
      if (report.errors.length) throw new Error(`${report.errors.join('; ')}; run "${cleanupCommand(config, r.runId)}"`);
    },
  });
  tasks.add({
    title: 'deploy fixtures',
    setup: async r => {
      const specs = fixturesToDeploy(r, r.cluster!);
      r.log(`Deploying ${specs.length} fixture(s): ${specs.map(s => s.id).join(', ') || 'none'}.`);
      await deployFixtures(r, specs);
    },
  });
  tasks.add({
    title: 'checks',
    setup: async r => {
      // Every check starts at once: what costs is bounded by r.slots, not by checks in flight.
      const pool = new CheckPool(features, features.length, f => checkFeature(r, f), f => notRunResult(f, 'the run was interrupted'), r.abort.signal, {
        onBegin: f => reporter.onCheckBegin(selectedOf(f)),
        onEnd: (res, done) => reporter.onCheckEnd(res, { done, total: features.length }),
      });
      pool.start();
      r.results = await runSuites({
        session: { features, strict: config.strict, results: new Map(), check: f => pool.result(f) },
        reporter,
        signal: r.abort.signal,
      });
    },
  });

  let result;
  try {
    result = await tasks.run(run);
  } finally {
    removeSignals();
    await nodeAccess?.close();
  }
  if (!begun) {
    // Nothing was reported: the failure is the answer (exit 2 or 3 via the error type).
    const e = result.firstError;
    if (e instanceof UsageError || e instanceof ClusterUnreachableError) throw e;
    throw new Error(`wincheck run failed before any check: ${messageOf(e)}`, { cause: e });
  }
  const done = new Set(run.results.map(r => r.id));
  const why = result.status === 'timedout' ? `the run hit its --timeout of ${Math.round((config.timeoutMs ?? 0) / 1000)}s`
    : result.status === 'interrupted' ? 'the run was interrupted' : run.errors[0] ?? 'the run stopped early';
  for (const f of features) if (!done.has(f.id)) run.results.push(notRunResult(f, why));
  const counts = emptyCounts();
  for (const r of run.results) counts[r.outcome]++;
  const failing = run.results.some(r => isFailing(r.outcome, config.strict)) || run.errors.length > 0;
  const status = result.status === 'passed' && failing ? 'failed' : result.status;
  await reporter.onEnd({ status, counts, results: run.results, durationMs: Date.now() - started, errors: run.errors });
  // A report that was not written is a lost result: never exit 0 (or 130) over it.
  if (reporter.lost.length) return 1;
  if (status === 'interrupted') return EXIT_INTERRUPTED;
  return status === 'passed' ? 0 : 1;
}

/** The cleanup line to print: against the same cluster as this run, whatever the shell's defaults. */
export function cleanupCommand(config: Pick<RunConfig, 'kubeconfig' | 'context'>, runId: string): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return ['wincheck cleanup',
    ...(config.kubeconfig ? [`--kubeconfig ${quote(config.kubeconfig)}`] : []),
    ...(config.context ? [`--context ${quote(config.context)}`] : []),
    `--run-id ${runId}`].join(' ');
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

/** First signal: stop and clean up. Second: leave now, saying what was left behind. */
function installSignalHandlers(run: RunState, out: (l: string) => void): () => void {
  let count = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    count++;
    if (count === 1) {
      out(`${sig}: stopping, then deleting namespace ${run.namespace} (press Ctrl-C again to exit at once)...`);
      run.abort.abort(new Error(`interrupted by ${sig}`));
    } else {
      out(`${sig} again: exiting now; namespace ${run.namespace} may remain: run "${cleanupCommand(run.config, run.runId)}"`);
      process.exit(EXIT_INTERRUPTED);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => { process.off('SIGINT', onSignal); process.off('SIGTERM', onSignal); };
}
