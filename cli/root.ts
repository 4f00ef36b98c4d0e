// The wincheck command line: flags → config → one action per command. Exit codes:
// 0 nothing regressed or errored; 1 a regression or error (or lifted under --strict);
// 2 bad usage or configuration; 3 cluster unreachable or preflight failed; 130 interrupted.

import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { errorText } from '../util/errorText.ts';
import { selectFeatures } from '../lib/catalog/select.ts';
import { rbacManifest } from '../lib/run/rbacManifest.ts';
import { defaultTimeouts } from '../lib/cluster/timeouts.ts';
import { loadConfigFile } from '../lib/config/load.ts';
import { resolveConfig, type RunFlags } from '../lib/config/resolve.ts';
import { durationMs, MAX_ARG_LENGTH, problemWithRegistry, validateRunInputs } from '../lib/config/validate.ts';
import type { FileConfig, RunConfig } from '../lib/config/types.ts';
import { formatClusterInfo } from '../lib/discovery/format.ts';
import { sshReachable } from '../lib/discovery/sshReachable.ts';
import { exitCodeOf, MissingPermissionsError, UsageError } from '../lib/errors.ts';
import { formatCatalog, LIST_FORMATS, loadCatalogEntries, type ListFormat } from '../lib/catalog/listing.ts';
import { rewriteImage } from '../lib/fixtures/images.ts';
import { DEFAULT_LIST_BUILDS } from '../lib/facts/windows.ts';
import { formatImageList, imagesNeeded } from '../lib/run/imageList.ts';
import { failedFeatureIds, readResults } from '../lib/report/resultsFile.ts';
import { WINCHECK_VERSION } from '../lib/facts/wincheck.ts';
import { stringify as toYaml } from 'yaml';
import { simProfileNames, startSimulatedCluster, type StartedSim } from './simWiring.ts';

// Modules that load @kubernetes/client-node or the whole catalog (half a second or more) are
// imported by the commands that need them, so `wincheck --help` and `wincheck list` answer at once.
const clusterModules = async () => {
  const [cleanup, client, kubeconfig, discovery, preflight] = await Promise.all([
    import('../lib/cluster/cleanup.ts'),
    import('../lib/cluster/client.ts'),
    import('../lib/cluster/kubeconfig.ts'),
    import('../lib/discovery/discover.ts'),
    import('../lib/cluster/preflight.ts'),
  ]);
  return { ...cleanup, ...client, ...kubeconfig, ...discovery, ...preflight };
};
const loadCatalog = async () => (await import('../lib/catalog/registry.ts')).loadCatalog();

const collect = (v: string, prev: string[]) => [...prev, v];
const out = (l: string) => process.stdout.write(l + '\n');

export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = buildProgram(c => {
    code = c;
  });
  try {
    checkArgLengths(argv.slice(2));
    await program.parseAsync(argv);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help / --version exit 0; any other commander error is bad usage (already printed).
      return e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : 2;
    }
    // One line, except a list the user must read whole (missing permissions).
    process.stderr.write(`Error: ${e instanceof MissingPermissionsError ? errorText(e) : errorText(e).split('\n')[0]}\n`);
    return exitCodeOf(e);
  }
}

function buildProgram(setCode: (c: number) => void): Command {
  const program = new Command('wincheck')
    .description('Checks what works on the Windows nodes of a Kubernetes cluster, feature by feature.')
    .version(WINCHECK_VERSION)
    // Before the subcommands are added, so they inherit it: usage errors must exit 2, not 1.
    .exitOverride();

  const clusterFlags = (cmd: Command) =>
    cmd
      .option('--kubeconfig <file>', 'kubeconfig (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)')
      .option('--context <name>', 'kubeconfig context (default: its current context)')
      .option('--cluster <name>', "kubeconfig cluster to use instead of the context's (as kubectl --cluster)")
      .option('--user <name>', "kubeconfig user to use instead of the context's (as kubectl --user)")
      .option('--as <user>', 'impersonate this user (as kubectl --as; needs the impersonate permission)')
      .option('--as-group <group>', 'impersonate this group too (repeatable, as kubectl --as-group)', collect, [])
      .option('--as-uid <uid>', 'impersonate this uid (as kubectl --as-uid)');
  const profiles = simProfileNames();
  const simOption = (what: string) =>
    new Option(
      '--sim [profile]',
      `start the simulated cluster and ${what}; profile: ${profiles.length ? `${profiles.join(', ')} (default: default)` : 'a built-in name'} or a YAML file`,
    ).conflicts(['kubeconfig', 'context', 'cluster', 'user']);
  const sshFlags = (cmd: Command) =>
    cmd
      .option('--ssh-user <user>', 'SSH user on the Windows nodes (node features)')
      .option('--ssh-key <file>', 'SSH private key')
      .option('--ssh-known-hosts <file>', "known_hosts with the nodes' host keys (unknown keys are refused)");

  const runCmd = clusterFlags(program.command('run').description('run the checks and write JUnit, summary.md and results.json'))
    .addOption(simOption('run against it'))
    .option('--suite <glob>', 'run the features of matching suites (repeatable)', collect, [])
    .option('--feature <glob>', 'run matching feature ids (repeatable)', collect, [])
    .option('--skip <glob>', 'skip matching feature ids or suites (repeatable)', collect, [])
    .option('--report-dir <dir>', 'where reports go (default: $ARTIFACTS, else reports/)')
    .option('--timeout <duration>', 'deadline for the whole run, with a unit: 90s, 30m, 1h (default: none; each wait has its own deadline)')
    .option('--prepull-timeout <duration>', 'deadline of the pre-pull phase that pulls every Windows image on its nodes first (default 30m)')
    .option('--no-prepull', 'skip the pre-pull phase (fixture pods then pull their images themselves)')
    .option(
      '--no-diagnostics',
      'do not save diagnostics (pods, events, logs, node logs, HNS state) of regressed and error results under <report-dir>/diagnostics/',
    )
    .option('--keep', 'keep the run namespace and its objects')
    .option('--strict', 'a lifted limitation fails the run')
    .option('--skip-unpermitted', 'run as n/a the features whose RBAC permissions are missing, instead of exiting 3')
    .option('--parallel <n>', 'exec sessions at once, in pods and on nodes (default 12); checks all start at once and wait without holding one')
    .option('--image-registry <host>', 'pull every fixture image from this mirror (air-gapped clusters)')
    .option('--config <file>', 'YAML config file (flags win over it)')
    .option('--rerun-failed <results.json>', 'run again only the features that regressed or errored in that results.json')
    .option(
      '--results-configmap <name>',
      "also store summary.md, results.json and the JUnit files in this ConfigMap of the pod's (in-cluster) or the context's namespace; kept after the run",
    )
    .option('--print-summary', 'print summary.md at the end (the default in a pod, so `kubectl logs` ends with it)')
    .option('--sonobuoy', 'Sonobuoy plugin mode: reports into $SONOBUOY_RESULTS_DIR, packed, and the done file written (ci/sonobuoy/)');
  sshFlags(runCmd)
    .addOption(
      new Option('--node-access <mode>', 'how node checks reach Windows nodes: auto (HostProcess pod, else SSH), hostprocess or ssh').choices([
        'auto',
        'hostprocess',
        'ssh',
      ]),
    )
    .option('--egress-url <url>', 'an address outside the cluster for egress checks')
    .option('--nodes <glob>', 'Windows nodes the node-level checks visit (repeatable; default: every Ready Windows node that is not cordoned)', collect, [])
    .option('--include-cordoned', 'node-level checks visit cordoned Windows nodes too (never NotReady ones)')
    .option('--disruptive', 'also run the disruptive checks (reboot, graceful shutdown, memory-pressure eviction) on the --disruptive-node')
    .option('--disruptive-node <node>', 'the one Ready Windows node the disruptive checks may disrupt (only with --disruptive)')
    .action(async (o: Record<string, unknown>) => setCode(await runAction(o)));

  program
    .command('list')
    .description('list the catalog: suites and feature ids')
    .option('--suite <glob>', 'only matching suites (repeatable)', collect, [])
    .option('--feature <glob>', 'only matching feature ids (repeatable)', collect, [])
    .addOption(new Option('-o, --output <format>', 'output format').choices(LIST_FORMATS).default('text'))
    .action(async (o: { suite: string[]; feature: string[]; output: ListFormat }) => {
      out(formatCatalog(selectFeatures(await loadCatalogEntries(), { suites: o.suite, features: o.feature }), o.output));
    });

  program
    .command('rbac')
    .description('print the least-privilege ClusterRole, ServiceAccount and binding a run of the selection needs')
    .option('--suite <glob>', 'only matching suites (repeatable)', collect, [])
    .option('--feature <glob>', 'only matching feature ids (repeatable)', collect, [])
    .option('--skip <glob>', 'skip matching feature ids or suites (repeatable)', collect, [])
    .option('--service-account <namespace/name>', 'the ServiceAccount to bind', 'default/wincheck')
    .option('--name <name>', 'name of the ClusterRole and ClusterRoleBinding', 'wincheck')
    .action(async (o: { suite: string[]; feature: string[]; skip: string[]; serviceAccount: string; name: string }) => {
      const m = /^([a-z0-9-]+)\/([a-z0-9.-]+)$/.exec(o.serviceAccount);
      if (!m) throw new UsageError(`--service-account ${o.serviceAccount} is not <namespace>/<name>`);
      const features = selectFeatures(await loadCatalog(), { suites: o.suite, features: o.feature, skip: o.skip });
      process.stdout.write(rbacManifest(features, { name: o.name, serviceAccount: { namespace: m[1], name: m[2] } }));
    });

  program
    .command('images')
    .description('list every image a selection of features pulls, per Windows build (for air-gapped mirrors)')
    .option('--suite <glob>', 'only matching suites (repeatable)', collect, [])
    .option('--feature <glob>', 'only matching feature ids (repeatable)', collect, [])
    .option('--skip <glob>', 'skip matching feature ids or suites (repeatable)', collect, [])
    .option('--build <build>', 'Windows build such as 10.0.20348 (repeatable; default 2019, 2022, 23H2 and 2025)', collect, [])
    .option('--image-registry <host>', 'also show where each image goes in this mirror')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (o: { suite: string[]; feature: string[]; skip: string[]; build: string[]; imageRegistry?: string; output: string }) => {
      for (const b of o.build) if (!/^10\.0\.\d{5}(\.\d+)?$/.test(b)) throw new UsageError(`--build ${b} is not a Windows build such as 10.0.20348`);
      const registryProblem = o.imageRegistry === undefined ? undefined : problemWithRegistry(o.imageRegistry);
      if (registryProblem) throw new UsageError(`--image-registry: ${registryProblem}`);
      const features = selectFeatures(await loadCatalog(), { suites: o.suite, features: o.feature, skip: o.skip });
      const list = imagesNeeded(features, o.build.length ? o.build.map(b => b.split('.').slice(0, 3).join('.')) : DEFAULT_LIST_BUILDS);
      if (o.output === 'json')
        out(
          JSON.stringify(
            list.map(b => ({ ...b, ...(o.imageRegistry ? { mirror: b.images.map(i => rewriteImage(i, o.imageRegistry)) } : {}) })),
            null,
            2,
          ),
        );
      else out(formatImageList(list, o.imageRegistry));
    });

  const discoverCmd = clusterFlags(program.command('discover').description('print what the harness finds out about the cluster'))
    .addOption(simOption('discover it'))
    .option('--config <file>', 'YAML config file: its kubeconfig, context and ssh settings (flags win over it)')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json', 'yaml']).default('text'));
  sshFlags(discoverCmd).action(
    async (o: {
      kubeconfig?: string;
      context?: string;
      sim?: string | true;
      config?: string;
      output: string;
      sshUser?: string;
      sshKey?: string;
      sshKnownHosts?: string;
    }) => {
      const file: FileConfig = o.config ? loadConfigFile(o.config) : {};
      let ssh = { user: o.sshUser ?? file.ssh?.user, key: o.sshKey ?? file.ssh?.key, knownHosts: o.sshKnownHosts ?? file.ssh?.knownHosts };
      let sim: StartedSim | undefined;
      if (o.sim !== undefined) {
        sim = await startSimulatedCluster({ profile: typeof o.sim === 'string' ? o.sim : undefined });
        if (!ssh.user && sim.ssh) ssh = { user: sim.ssh.user, key: sim.ssh.keyPath, knownHosts: sim.ssh.knownHostsPath };
      }
      try {
        const { loadKubeConfig, discover, makeClients, preflight } = await clusterModules();
        const { kc } = loadKubeConfig(
          sim
            ? { kubeconfig: sim.kubeconfigPath, ...identityFlags(o) }
            : { kubeconfig: o.kubeconfig ?? file.kubeconfig, context: o.context ?? file.context, ...identityFlags(o) },
        );
        const version = await preflight(kc, defaultTimeouts().preflightConnect);
        const info = await discover(makeClients(kc), { version, loadBalancer: file.loadBalancer, sshCheck: sshReachable(ssh) });
        out(o.output === 'json' ? JSON.stringify(info, null, 2) : o.output === 'yaml' ? toYaml(info).trimEnd() : formatClusterInfo(info));
      } finally {
        await sim?.stop();
      }
    },
  );

  clusterFlags(program.command('cleanup').description('delete every namespace and object carrying the wincheck run label'))
    .option('--run-id <id>', 'only this run')
    .option('--force', 'delete runs that are still in progress too (by default their live lease protects them)')
    .action(async (o: { kubeconfig?: string; context?: string; runId?: string; force?: boolean } & IdentityFlags) => {
      const { loadKubeConfig, makeClients, cleanupRuns, cleanupCommand, preflight } = await clusterModules();
      const { kc } = loadKubeConfig({ ...o, ...identityFlags(o) });
      await preflight(kc, defaultTimeouts().preflightConnect);
      // Ctrl-C or SIGTERM ends every call and wait at once (exit 130; what is left stays listed).
      const stop = new AbortController();
      const onSignal = (sig: NodeJS.Signals) => stop.abort(new Error(`interrupted by ${sig}`));
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const kube = makeClients(kc, { signal: stop.signal });
      const report = await cleanupRuns(kube, { runId: o.runId, timeoutMs: defaultTimeouts().namespaceDelete, log: out, force: o.force });
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      out(`Deleted ${report.namespaces.length} namespace(s) and ${report.clusterObjects.length} cluster-scoped object(s).`);
      if (report.skipped.length)
        out(`Skipped ${report.skipped.length} run(s) still in progress: ${report.skipped.join(', ')} (use --force to delete them anyway).`);
      if (report.errors.length) {
        for (const e of report.errors) process.stderr.write(`Error: ${e}\n`);
        if (report.leftovers.length)
          process.stderr.write(
            `Left behind: ${report.leftovers.join(', ')}; run "${cleanupCommand(kube, { kubeconfig: o.kubeconfig, ...identityFlags(o), runId: o.runId })}" again.\n`,
          );
        setCode(1);
      }
    });

  const report = program.command('report').description('work with the reports of earlier runs');
  report
    .command('merge')
    .description('one matrix across runs: feature × Kubernetes version × Windows build, with the cluster of each')
    .argument('<dir...>', 'report directories (each holding results.json), or folders of them')
    .option('--baseline <dir...>', 'earlier report directories: mark every cell that changed since')
    .option('--out <dir>', 'where merged.md, merged.html and merged.json go', join('reports', 'merged'))
    .action(async (dirs: string[], o: { baseline?: string[]; out: string }) => {
      const { loadRuns, mergeRuns, renderMergedHtml, renderMergedMarkdown } = await import('../lib/report/merge.ts');
      const merged = mergeRuns(loadRuns(dirs), o.baseline ? loadRuns(o.baseline) : undefined);
      mkdirSync(o.out, { recursive: true });
      writeFileSync(join(o.out, 'merged.md'), renderMergedMarkdown(merged));
      writeFileSync(join(o.out, 'merged.html'), renderMergedHtml(merged));
      writeFileSync(join(o.out, 'merged.json'), JSON.stringify(merged, null, 2) + '\n');
      out(
        `Merged ${merged.features.length} features × ${merged.columns.length} columns (Kubernetes version × Windows build) from ${new Set(merged.columns.map(c => c.file)).size} runs.`,
      );
      if (merged.changes)
        out(
          `${merged.changes.length} cell(s) changed since the baseline${
            merged.changes.length
              ? `: ${merged.changes
                  .slice(0, 5)
                  .map(ch => `${ch.feature} ${ch.from} → ${ch.to}`)
                  .join(', ')}${merged.changes.length > 5 ? ', …' : ''}`
              : ''
          }.`,
        );
      out(`Written to ${join(o.out, 'merged.md')}, merged.html and merged.json.`);
    });

  program
    .command('sim')
    .description('serve the simulated mixed cluster until Ctrl-C')
    .option('--profile <name|file>', 'built-in profile name or YAML file', 'default')
    .requiredOption('--kubeconfig-out <file>', 'where to write the kubeconfig')
    .option('--port <n>', 'API server port (default: any free port)')
    .option(
      '--client-cert <user[=group,...]>',
      'also hand out a client certificate for this user and groups (CN, O), with a kubeconfig naming it, beside the kubeconfig (repeatable)',
      collect,
      [],
    )
    .action(async (o: { profile: string; kubeconfigOut: string; port?: string; clientCert: string[] }) => {
      const port = o.port === undefined ? undefined : Number(o.port);
      if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new UsageError(`--port ${o.port} is not a port number`);
      const clientCertificates = o.clientCert.map(parseClientCertFlag);
      const sim = await startSimulatedCluster({ profile: o.profile, port, kubeconfigOut: o.kubeconfigOut, clientCertificates });
      // Listen before saying where the kubeconfig is: a caller may signal as soon as it reads that.
      const stopped = new Promise<void>(resolve => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      out(`Simulated cluster (profile ${sim.profileName}) serving at ${sim.server}.`);
      out(`Kubeconfig written to ${sim.kubeconfigPath}.`);
      for (const c of sim.clientCertificates)
        out(`Client certificate for ${c.user}${c.groups?.length ? ` (groups ${c.groups.join(', ')})` : ''}: kubeconfig ${c.kubeconfig}.`);
      if (sim.egressUrl) out(`Egress URL (a host outside the cluster): ${sim.egressUrl}`);
      out('Next, in another shell:');
      out(`  ${nextRunCommand(sim)}`);
      out('Press Ctrl-C to stop.');
      await stopped;
      await sim.stop();
      out('Simulated cluster stopped.');
    });
  return program;
}

/** --client-cert jane=devs,ops: user jane in groups devs and ops. */
function parseClientCertFlag(v: string): { user: string; groups: string[] } {
  const at = v.indexOf('=');
  const user = at < 0 ? v : v.slice(0, at);
  const groups =
    at < 0
      ? []
      : v
          .slice(at + 1)
          .split(',')
          .filter(Boolean);
  if (!user) throw new UsageError(`--client-cert ${v}: no user name before "="`);
  return { user, groups };
}

interface IdentityFlags {
  cluster?: string;
  user?: string;
  as?: string;
  asGroup?: string[];
  asUid?: string;
}

/** --cluster, --user, --as, --as-group, --as-uid as loadKubeConfig takes them. */
function identityFlags(o: IdentityFlags | Record<string, unknown>) {
  const f = o as IdentityFlags;
  return { cluster: f.cluster, user: f.user, as: f.as, asGroups: f.asGroup?.length ? f.asGroup : undefined, asUid: f.asUid };
}

async function runAction(o: Record<string, unknown>): Promise<number> {
  if (!o.sonobuoy) return runChecks(o);
  if (o.reportDir !== undefined) throw new UsageError('--sonobuoy writes into $SONOBUOY_RESULTS_DIR: drop --report-dir');
  const { runAsSonobuoyPlugin, sonobuoyResultsDir } = await import('../lib/report/sonobuoy.ts');
  const dir = sonobuoyResultsDir();
  return runAsSonobuoyPlugin(dir, () => runChecks({ ...o, reportDir: dir }), out);
}

async function runChecks(o: Record<string, unknown>): Promise<number> {
  const file: FileConfig = typeof o.config === 'string' ? loadConfigFile(o.config) : {};
  if (typeof o.rerunFailed === 'string') {
    if ((o.feature as string[]).length || (o.suite as string[]).length)
      throw new UsageError('--rerun-failed picks the features itself: drop --feature/--suite');
    const ids = failedFeatureIds(readResults(o.rerunFailed));
    if (!ids.length) {
      out(`Nothing to rerun: nothing regressed or errored in ${o.rerunFailed}.`);
      return 0;
    }
    out(`Rerunning ${ids.length} feature(s) that regressed or errored in ${o.rerunFailed}: ${ids.join(', ')}.`);
    o.feature = ids;
  }
  const flags: RunFlags = {
    kubeconfig: o.kubeconfig as string | undefined,
    context: o.context as string | undefined,
    ...identityFlags(o),
    suite: o.suite as string[],
    feature: o.feature as string[],
    skip: o.skip as string[],
    reportDir: o.reportDir as string | undefined,
    timeoutMs: o.timeout === undefined ? undefined : durationMs('--timeout', o.timeout as string),
    keep: o.keep as boolean | undefined,
    strict: o.strict as boolean | undefined,
    skipUnpermitted: o.skipUnpermitted as boolean | undefined,
    parallel: o.parallel === undefined ? undefined : positiveIntFlag('--parallel', o.parallel as string),
    imageRegistry: o.imageRegistry as string | undefined,
    egressUrl: o.egressUrl as string | undefined,
    nodes: o.nodes as string[],
    includeCordoned: o.includeCordoned as boolean | undefined,
    disruptive: o.disruptive as boolean | undefined,
    disruptiveNode: o.disruptiveNode as string | undefined,
    sshUser: o.sshUser as string | undefined,
    sshKey: o.sshKey as string | undefined,
    sshKnownHosts: o.sshKnownHosts as string | undefined,
    nodeAccess: o.nodeAccess as RunFlags['nodeAccess'],
    // commander sets prepull: true unless --no-prepull; only the negation is a flag given.
    prepull: o.prepull === false ? false : undefined,
    diagnostics: o.diagnostics === false ? false : undefined,
    prepullTimeoutMs: o.prepullTimeout === undefined ? undefined : durationMs('--prepull-timeout', o.prepullTimeout as string),
  };
  const config = resolveConfig(flags, file);
  validateRunInputs(flags, file, typeof o.config === 'string' ? basename(o.config) : undefined, { dir: config.reportDir, from: reportDirSource(flags, file) });
  const { runWincheck } = await import('../lib/run/run.ts');
  if (o.sim === undefined) {
    if (typeof o.resultsConfigmap === 'string') (await import('../lib/run/inCluster.ts')).checkConfigMapName(o.resultsConfigmap);
    const { inClusterRoot, usesInClusterConfig } = await import('../lib/cluster/kubeconfig.ts');
    const inCluster = usesInClusterConfig(config);
    // In a pod, absolute paths live in the container's root (a stand-in root in the sim: sim/runtime/hostProcess.ts).
    const root = inClusterRoot();
    if (inCluster && root && isAbsolute(config.reportDir)) config.reportDir = join(root, config.reportDir);
    // Loaded before the run, not after: between the run's end (its signal handlers gone) and the
    // exit nothing slow is left, so a late Ctrl-C has no window to land in.
    await import('../lib/run/inCluster.ts');
    const code = await runWincheck(config, { handleSignals: true, events: await consoleAndFiles(config.reportDir) });
    return finishInCluster(config, code, { configMap: o.resultsConfigmap as string | undefined, printSummary: inCluster || o.printSummary === true });
  }

  // Check names before starting anything: unknown ones are usage errors either way.
  selectFeatures(await loadCatalog(), { suites: config.suites, features: config.features, skip: config.skip });
  const profile = typeof o.sim === 'string' ? o.sim : undefined;
  const sim = await startSimulatedCluster({ profile });
  try {
    return await runWincheck(
      {
        ...config,
        kubeconfig: sim.kubeconfigPath,
        context: undefined,
        simulated: true,
        simProfile: sim.profileName,
        ssh: config.ssh.user ? config.ssh : sim.ssh ? { user: sim.ssh.user, key: sim.ssh.keyPath, knownHosts: sim.ssh.knownHostsPath } : config.ssh,
        // The simulated cluster has its own "outside" host; a given --egress-url still wins.
        egressUrl: config.egressUrl ?? sim.egressUrl,
      },
      { handleSignals: true, events: await consoleAndFiles(config.reportDir) },
    );
  } finally {
    await sim.stop();
  }
}

/** After a run: the results ConfigMap (a write that fails is a lost result: exit 1), then summary.md last. */
async function finishInCluster(config: RunConfig, code: number, o: { configMap?: string; printSummary: boolean }): Promise<number> {
  const { storeResultsConfigMap, summaryText } = await import('../lib/run/inCluster.ts');
  const { inClusterNamespace, loadKubeConfig } = await import('../lib/cluster/kubeconfig.ts');
  if (o.configMap) {
    const { kc } = loadKubeConfig(config);
    const namespace = inClusterNamespace() ?? kc.getContextObject(kc.getCurrentContext())?.namespace ?? 'default';
    try {
      const omitted = await storeResultsConfigMap(kc, config.reportDir, namespace, o.configMap);
      out(
        `Stored the reports in ConfigMap ${namespace}/${o.configMap}${omitted.length ? `; left out for its size limit: ${omitted.join(', ')} (listed in its OMITTED.txt)` : ''}.`,
      );
    } catch (e) {
      out(`Error: could not store the reports in ConfigMap ${namespace}/${o.configMap}: ${e instanceof Error ? e.message : String(e)}`);
      code = code === 0 ? 1 : code;
    }
  }
  const summary = o.printSummary ? summaryText(config.reportDir) : undefined;
  if (summary) out(`\n${summary.trimEnd()}`);
  return code;
}

/** The exact `wincheck run` line that tests this sim, egress target and node SSH included. */
export function nextRunCommand(sim: StartedSim): string {
  return [
    'wincheck run',
    `--kubeconfig ${sim.kubeconfigPath}`,
    ...(sim.egressUrl ? [`--egress-url ${sim.egressUrl}`] : []),
    ...(sim.ssh ? [`--ssh-user ${sim.ssh.user}`, `--ssh-key ${sim.ssh.keyPath}`, `--ssh-known-hosts ${sim.ssh.knownHostsPath}`] : []),
  ].join(' ');
}

function positiveIntFlag(flag: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} ${v} is not a positive integer`);
  return n;
}

function reportDirSource(flags: RunFlags, file: FileConfig): string {
  if (flags.reportDir !== undefined) return '--report-dir';
  if (file.reportDir !== undefined) return "the config file's reportDir";
  return process.env.ARTIFACTS ? '$ARTIFACTS' : 'the default report directory';
}

/** Oversized arguments are refused before any parsing (a 100 KB glob once crashed picomatch). */
function checkArgLengths(args: string[]): void {
  args.forEach((a, i) => {
    if (a.length <= MAX_ARG_LENGTH) return;
    const flag = a.startsWith('--') ? a.split('=')[0] : args[i - 1]?.startsWith('-') ? args[i - 1] : 'an argument';
    throw new UsageError(`${flag}: a value of ${a.length} characters is too long (at most ${MAX_ARG_LENGTH})`);
  });
}

/** The reporters of a run from the command line: report files, and the console on stdout. */
async function consoleAndFiles(reportDir: string) {
  const { createReporters } = await import('../lib/report/index.ts');
  return createReporters({ reportDir, tty: process.stdout.isTTY === true });
}
