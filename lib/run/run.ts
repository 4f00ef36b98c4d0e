// `wincheck run`: the run as tasks (lib/run/tasks/: preflight → namespace → deploy fixtures →
// checks, teardowns in reverse: cleanup last), then the reports. Returns the exit code; throws
// UsageError / ClusterUnreachableError / MissingPermissionsError before anything is reported.

import { setMaxListeners } from 'node:events';
import { errorText } from '../../util/errorText.ts';
import { loadCatalog } from '../catalog/registry.ts';
import { selectFeatures } from '../catalog/select.ts';
import type { Feature } from '../catalog/types.ts';
import { cleanupCommand } from '../cluster/cleanup.ts';
import { makeClients } from '../cluster/client.ts';
import { loadKubeConfig, type CredentialInfo } from '../cluster/kubeconfig.ts';
import { authOf } from '../cluster/credentials.ts';
import { refusalLine } from '../cluster/refusal.ts';
import { waitTimeoutForPodReady } from '../cluster/podWait.ts';
import { PER_NODE_COMMANDS } from '../config/resolve.ts';
import type { RunConfig } from '../config/types.ts';
import { hasExitCode, UsageError } from '../errors.ts';
import { generateSecretValues, Redactor } from '../fixtures/secrets.ts';
import { RUN_LABEL } from '../labels.ts';
import { NodeAccess, type NodeTransportFactory } from '../transports/nodeAccess.ts';
import type { RunEvents, RunInfo } from './events.ts';
import { KeyedLimiter, Limiter } from '../../util/limiter.ts';
import { SharedPodWaits } from '../cluster/sharedPodWaits.ts';
import { namespaceFor, newRunId } from './runId.ts';
import { signalsReceived } from './signals.ts';
import type { RunState } from './state.ts';
import { TaskRunner } from './taskRunner.ts';
import { checksTask, selectedOf } from './tasks/checks.ts';
import { deployTask } from './tasks/deploy.ts';
import { namespaceTask } from './tasks/namespace.ts';
import { preflightTask } from './tasks/preflight.ts';
import { EXIT_INTERRUPTED, reportRun } from './tasks/reports.ts';
import { windowsNodesNotVisited } from '../discovery/nodes.ts';

export { EXIT_INTERRUPTED };

export interface RunOptions {
  /** Where the run's events go: the reporters (lib/report's createReporters). */
  events: RunEvents;
  /** Lines the run itself prints (the signal handlers' words); default stdout. */
  out?: (line: string) => void;
  nodeTransport?: NodeTransportFactory;
  /** Install SIGINT/SIGTERM handlers (the CLI does; tests may not). */
  handleSignals?: boolean;
  catalog?: Feature[];
}

export async function runWincheck(config: RunConfig, opts: RunOptions): Promise<number> {
  const out = opts.out ?? ((l: string) => process.stdout.write(l + '\n'));
  // 1. What to run: name errors are usage errors, found before touching any cluster.
  const features = selectFeatures(opts.catalog ?? (await loadCatalog()), { suites: config.suites, features: config.features, skip: config.skip });
  if (!features.length) throw new UsageError('no feature selected: --skip excluded everything');
  // 2. Which cluster.
  const { kc, source, credentials } = loadKubeConfig(config);
  // Every call of the run's clients ends on Ctrl-C or the deadline; teardown has its own clients,
  // without that signal, so cleanup still runs after an interrupt.
  const abort = new AbortController();
  const kube = makeClients(kc, { signal: abort.signal });
  const teardownKube = makeClients(kc);
  const runId = newRunId();
  const secrets = generateSecretValues();
  const events = opts.events;
  // HostProcess pod or SSH per node (lib/transports); SSH connections are closed after the run.
  const nodeAccess = opts.nodeTransport ? undefined : new NodeAccess();
  const run: RunState = {
    config,
    kube,
    runId,
    namespace: namespaceFor(runId),
    labels: { [RUN_LABEL]: runId },
    features,
    fixtures: new Map(),
    secrets,
    redactor: new Redactor(Object.values(secrets)),
    reporter: events,
    results: [],
    abort,
    nodeTransport: opts.nodeTransport ?? nodeAccess!.transportFor,
    errors: [],
    slots: { exec: new Limiter(config.parallel), perNode: new KeyedLimiter(PER_NODE_COMMANDS) },
    podWaits: new SharedPodWaits((namespace, name, timeoutMs) => waitTimeoutForPodReady(kube, namespace, name, timeoutMs, { signal: abort.signal })),
    log: line => events.onLog(line),
  };
  // Every check listens on the run's signal at once (they all run concurrently).
  setMaxListeners(0, run.abort.signal);
  const started = Date.now();
  let begun = false;
  const cleanupHint = cleanupCommand(kube, {
    kubeconfig: config.kubeconfig,
    context: config.context,
    cluster: config.cluster,
    user: config.user,
    as: config.as,
    asGroups: config.asGroups,
    asUid: config.asUid,
    runId,
  });
  let cleanupFailed = false;
  // A credential refused mid-run even after a fresh one: one run error naming the user and
  // context (the calls it failed end as errors themselves); cleanup still runs, with fresh ones.
  const auth = authOf(kc);
  if (auth) {
    let told = false;
    auth.onRefused = what => {
      if (told) return;
      told = true;
      const line = refusalLine(kc, ` mid-run (${what})`);
      run.errors.push(line);
      if (begun) events.onError(line);
    };
  }
  const removeSignals = opts.handleSignals ? installSignalHandlers(run, out, cleanupHint) : () => undefined;

  const tasks = new TaskRunner<RunState>({
    abort: run.abort,
    timeoutMs: config.timeoutMs,
    onError: (title, e) => {
      const message = run.redactor.redact(`${title}: ${errorText(e)}`);
      run.errors.push(message);
      if (begun) events.onError(message);
    },
  });
  const deployment = deployTask();
  tasks
    .add(
      preflightTask(kc, async r => {
        await events.onBegin(runInfo(r, source, credentials, started));
        begun = true;
      }),
    )
    .add(
      namespaceTask({
        teardownKube,
        cleanupHint,
        onCleanupFailed: () => {
          cleanupFailed = true;
        },
      }),
    )
    .add(deployment.task)
    .add(checksTask(deployment, events));

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
        out(
          `${result.status === 'timedout' ? 'Timed out' : 'Interrupted'} before any check ran${cleanupFailed ? `; the cleanup failed: run "${cleanupHint}"` : ''}.`,
        );
        return result.status === 'interrupted' && !cleanupFailed ? EXIT_INTERRUPTED : 1;
      }
      // Nothing was reported: the failure is the answer (exit 2 or 3 via the error type).
      const e = result.firstError;
      if (hasExitCode(e)) throw e;
      throw new Error(`wincheck run failed before any check: ${errorText(e)}`, { cause: e });
    }
    return await reportRun(run, events, { status: result.status, started, cleanupFailed, cleanupHint, out });
  } finally {
    removeSignals();
  }
}

function runInfo(r: RunState, source: string, credentials: CredentialInfo, started: number): RunInfo {
  // A cluster the sim serves says so (discovery reads its advertisement), even through --kubeconfig.
  const advertised = r.cluster!.simulated;
  const notVisited = windowsNodesNotVisited(r.cluster!.nodes, r.config);
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
    ...(notVisited.length ? { notVisited } : {}),
    credentials,
  };
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
      out(
        `${sig} again: exiting now without finishing the cleanup; namespace ${run.namespace} and other objects of run ${run.runId} may remain. Remove them with:\n  ${cleanupHint}`,
      );
      process.exit(1);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
