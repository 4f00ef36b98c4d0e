// Runs the harness (runWincheck) against a simulated cluster started with a given profile and
// overrides, with only the named features selected, and returns what the run reported: the
// per-feature results of results.json, summary.md, the JUnit files, the console output. Test-only:
// the one place the feature tests touch both sim/ and lib/.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import type { CheckResult } from '../../lib/catalog/types.ts';
import { exitCodeOf } from '../../lib/errors.ts';
import { RUN_LABEL } from '../../lib/labels.ts';
import { readResults } from '../../lib/report/resultsFile.ts';
import { bucketOf, RESOURCES, resourceForKind } from '../../sim/api/resources.ts';
import type { KubeObject } from '../../sim/api/store.ts';
import type { Timeouts } from '../../lib/cluster/timeouts.ts';
import { resolveConfig, type RunFlags } from '../../lib/config/resolve.ts';
import type { NodeAccessMode } from '../../lib/config/types.ts';
import { runWincheck } from '../../lib/run/run.ts';
import { startSim, type Profile, type SimCluster } from '../../sim/index.ts';
import { loadProfile, withOverrides } from '../../sim/profiles/load.ts';
import type { BreakKey, Limitations } from '../../sim/profiles/types.ts';
import { createReporters } from '../../lib/report/index.ts';

export interface SimRun {
  exitCode: number;
  results: Map<string, CheckResult>;
  summaryMd: string;
  /** report.html. */
  html: string;
  /** JUnit file name → XML. */
  junit: Record<string, string>;
  output: string[];
  /** Pod name → pod IP, as the sim assigned them during the run (the probing pods' own addresses). */
  podIPs: Map<string, string>;
  /** Pods still carrying the run label after the run (cleanup left them behind). */
  leftover: string[];
  /** Every object still carrying the run label after the run, of any kind, and the run's namespaces still there. */
  leftoverObjects: string[];
  /** Namespaces and run-labelled objects the run created (whatever cleanup did later). */
  created: string[];
  /** With expectError: the error that stopped the run. */
  error?: string;
  /** Every file the run left under its report dir: relative path → text. */
  reportFiles?: Record<string, string>;
  /** The values of the Secrets the run created (decoded), to look for where they must not be. */
  secretValues?: string[];
}

export interface SimRunOptions {
  /** Built-in profile name (default "default") or a Profile; the overrides below apply on top. */
  base?: string | Profile;
  limitations?: Limitations;
  breaks?: BreakKey[];
  /** Add-ons switched on or off on top of the base profile. */
  addons?: Partial<Profile['addons']>;
  /** Edits the profile after the overrides (kubelet versions, SSH off...). In-process only. */
  edit?: (p: Profile) => void;
  /** Sees the started sim before the run (other tenants acting during it...). In-process only. */
  onSim?: (sim: SimCluster) => void;
  nodeAccess?: NodeAccessMode;
  /** Give the harness the sim's SSH material (--ssh-user/--ssh-key/--ssh-known-hosts). */
  ssh?: boolean;
  /** Replace the sim's known_hosts (a wrong key). In-process only. */
  knownHosts?: (simKnownHosts: string) => string;
  egressUrl?: string;
  /** --nodes: the Windows nodes node-level checks visit (globs). */
  nodes?: string[];
  /** --include-cordoned: node-level checks visit cordoned nodes too. */
  includeCordoned?: boolean;
  /** --disruptive --disruptive-node NODE. */
  disruptiveNode?: string;
  /**
   * Over the run's timeouts. podStart defaults to 30 s: it bounds the waits that end at a
   * deadline when a limitation holds (resize, HPA metrics), and the sim starts pods in well
   * under a second.
   */
  timeouts?: Partial<Timeouts>;
  /** Run in a child process, so that several runs can go at once (see inProcessTurn). */
  inChild?: boolean;
  /** An RBAC manifest (`wincheck rbac` output) to apply; the run then uses a token of its ServiceAccount. */
  rbac?: string;
  skipUnpermitted?: boolean;
  /** false: --no-diagnostics. */
  diagnostics?: boolean;
  /** The run may stop with an error (exit 2/3): return it in SimRun.error rather than rejecting. */
  expectError?: boolean;
  /** The kubeconfig shape the run uses instead of the sim's own (in-process only): a file, environment, flags. */
  kubeconfigFor?: (sim: SimCluster, dir: string) => KubeconfigShape | Promise<KubeconfigShape>;
}

export interface KubeconfigShape {
  /** --kubeconfig; unset: none (KUBECONFIG from env decides). */
  kubeconfig?: string;
  /** Set in process.env during the run (KUBECONFIG, HTTPS_PROXY...). */
  env?: Record<string, string>;
  flags?: Partial<RunFlags>;
  /** Stopped after the run (proxies, fronts). */
  close?: () => Promise<void>;
}

/** Shortened network periods (upstream: 30 s warm-up, 10 s steady, 1 s poll, 10 s connect), a minute per pod start. */
export const FAST_NET: Partial<Timeouts> = { netWarmup: 2_500, netSteady: 1_000, netPoll: 250, netConnect: 1_000, netLoadBalancer: 5_000, podStart: 60_000 };

export function runOnSim(features: string[], o: SimRunOptions = {}): Promise<SimRun> {
  return o.inChild ? runInChild(features, o) : runInProcess(features, o);
}

/**
 * runWincheck runs one at a time per process: mocha's globals and the current session
 * (lib/run/session.ts) are per process. The sims may start meanwhile; the runs take turns.
 */
let inProcessTurn: Promise<unknown> = Promise.resolve();

async function runInProcess(features: string[], o: SimRunOptions): Promise<SimRun> {
  const dir = mkdtempSync(join(tmpdir(), 'wincheck-simrun-'));
  const loaded = withOverrides(typeof o.base === 'object' ? o.base : loadProfile(o.base ?? 'default'), { limitations: o.limitations, breaks: o.breaks });
  const profile: Profile = { ...loaded, addons: { ...loaded.addons, ...o.addons } };
  o.edit?.(profile);
  const sim = await startSharedSim(profile, join(dir, 'kubeconfig'));
  o.onSim?.(sim);
  const output: string[] = [];
  const podIPs = new Map<string, string>();
  const created: string[] = [];
  const secretValues: string[] = [];
  let shapeClose: (() => Promise<void>) | undefined;
  const seen = sim.store.onAny((bucket, e) => {
    if (e.type === 'ADDED' && (bucket === 'namespaces' || e.object.metadata.labels?.[RUN_LABEL]))
      created.push(`${bucket}/${e.object.metadata.namespace ? `${e.object.metadata.namespace}/` : ''}${e.object.metadata.name}`);
    const secret = e.object as { data?: Record<string, string>; stringData?: Record<string, string> };
    if (bucket === 'secrets' && e.type === 'ADDED' && e.object.metadata.labels?.[RUN_LABEL])
      for (const v of [...Object.values(secret.data ?? {}).map(b => Buffer.from(b, 'base64').toString()), ...Object.values(secret.stringData ?? {})])
        if (!secretValues.includes(v)) secretValues.push(v);
    const pod = e.object as { metadata: { name?: string }; status?: { podIP?: string } };
    if (bucket === 'pods' && pod.metadata.name && pod.status?.podIP) podIPs.set(pod.metadata.name, pod.status.podIP);
  });
  try {
    const reports = join(dir, 'reports');
    const shape = o.kubeconfigFor ? await o.kubeconfigFor(sim, dir) : undefined;
    shapeClose = shape?.close;
    const kubeconfig = shape ? shape.kubeconfig : o.rbac ? await serviceAccountKubeconfig(sim, o.rbac, dir) : join(dir, 'kubeconfig');
    const flags: RunFlags = {
      ...shape?.flags,
      kubeconfig,
      feature: features,
      reportDir: reports,
      nodeAccess: o.nodeAccess,
      egressUrl: o.egressUrl,
      nodes: o.nodes,
      includeCordoned: o.includeCordoned,
      ...(o.disruptiveNode ? { disruptive: true, disruptiveNode: o.disruptiveNode } : {}),
      skipUnpermitted: o.skipUnpermitted,
      diagnostics: o.diagnostics,
    };
    if (sim.ssh && o.ssh) {
      writeFileSync(join(dir, 'ssh_key'), sim.ssh.privateKey, { mode: 0o600 });
      writeFileSync(join(dir, 'known_hosts'), o.knownHosts ? o.knownHosts(sim.ssh.knownHosts) : sim.ssh.knownHosts);
      Object.assign(flags, { sshUser: sim.ssh.user, sshKey: join(dir, 'ssh_key'), sshKnownHosts: join(dir, 'known_hosts') });
    }
    const config = resolveConfig(flags, {}, {});
    Object.assign(config.timeouts, { podStart: 30_000 }, o.timeouts);
    config.simulated = true;
    config.simProfile = profile.name;
    const turn = inProcessTurn.then(() =>
      withEnv(shape?.env ?? {}, () =>
        runWincheck(config, { out: l => output.push(l), events: createReporters({ reportDir: config.reportDir, out: l => output.push(l) }) }),
      ),
    );
    inProcessTurn = turn.catch(() => undefined);
    let exitCode: number;
    try {
      exitCode = await turn;
    } catch (e) {
      if (!o.expectError) throw e;
      return {
        exitCode: exitCodeOf(e),
        error: (e as Error).message,
        results: new Map(),
        summaryMd: '',
        html: '',
        junit: {},
        output,
        podIPs,
        leftover: [],
        leftoverObjects: [],
        created,
      };
    }
    // Read as merge and --rerun-failed read it: a per-build result keyed "<id> [<build>]".
    const json = readResults(join(reports, 'results.json'));
    const junit: Record<string, string> = {};
    for (const f of readdirSync(reports)) if (f.startsWith('junit')) junit[f] = readFileSync(join(reports, f), 'utf8');
    const leftover = sim.store
      .list('pods')
      .items.filter(p => p.metadata.labels?.['wincheck.io/run-id'])
      .map(p => `${p.metadata.namespace}/${p.metadata.name}`);
    const leftoverObjects = [...new Set(RESOURCES.map(bucketOf))].flatMap(b =>
      sim.store
        .list(b)
        .items.filter(
          o =>
            o.metadata.labels?.[RUN_LABEL] ||
            (b === 'namespaces' && created.includes(`namespaces/${o.metadata.name}`) && o.metadata.name?.startsWith('wincheck-')),
        )
        .map(o => `${b}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`),
    );
    return {
      exitCode,
      results: new Map(json.summary.results.map(r => [r.id, r])),
      summaryMd: readFileSync(join(reports, 'summary.md'), 'utf8'),
      html: readFileSync(join(reports, 'report.html'), 'utf8'),
      junit,
      output,
      podIPs,
      leftover,
      leftoverObjects,
      created,
      reportFiles: readTree(reports),
      secretValues,
    };
  } finally {
    seen.stop();
    await shapeClose?.();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file under dir, by its path relative to dir (with /). */
function readTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (e.isFile()) out[relative(dir, join(e.parentPath, e.name)).split(sep).join('/')] = readFileSync(join(e.parentPath, e.name), 'utf8');
  return out;
}

/** Applies an RBAC manifest (ServiceAccount, ClusterRole, binding) and writes a kubeconfig with a token of its ServiceAccount. */
async function serviceAccountKubeconfig(sim: SimCluster, manifest: string, dir: string): Promise<string> {
  const docs = parseAllDocuments(manifest).map(d => d.toJS() as KubeObject);
  for (const o of docs) {
    const rt = resourceForKind(o.apiVersion!, o.kind!);
    if (!rt) throw new Error(`rbac manifest: the sim does not serve ${o.kind}`);
    sim.store.create(bucketOf(rt), o);
  }
  const sa = docs.find(o => o.kind === 'ServiceAccount')!;
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig);
  const tr = await kc
    .makeApiClient(CoreV1Api)
    .createNamespacedServiceAccountToken({ namespace: sa.metadata.namespace!, name: sa.metadata.name!, body: { spec: { audiences: [] } } });
  const user = kc.getCurrentUser()!;
  kc.users = kc.users.map(u => (u.name === user.name ? { ...u, token: tr.status!.token } : u));
  const path = join(dir, 'kubeconfig-sa');
  writeFileSync(path, kc.exportConfig(), { mode: 0o600 });
  return path;
}

/** process.env with `env` set while fn runs (the kubeconfig loader reads KUBECONFIG and the proxy variables there). */
async function withEnv<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = Object.keys(env).map(k => [k, process.env[k]] as const);
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** The sim's address blocks are in use: other sims run on this machine (at most four at once). */
const ADDRESS_BUSY = /EADDRINUSE|address blocks are in use/;

/** startSim, retried while other test runs hold the sim's address blocks: wait for one to free up rather than fail. */
async function startSharedSim(profile: Profile, kubeconfigOut: string): Promise<SimCluster> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      return await startSim({ profile, kubeconfigOut });
    } catch (e) {
      const text = `${String((e as Error).message)} ${String((e as { cause?: Error }).cause?.message)}`;
      if (!ADDRESS_BUSY.test(text) || Date.now() > deadline) throw e;
      await new Promise(r => setTimeout(r, 2_000));
    }
  }
}

/** What simRunMain.ts writes back: a SimRun with its maps as arrays. */
export interface SimRunJson extends Omit<SimRun, 'results' | 'podIPs'> {
  results: CheckResult[];
  podIPs: [string, string][];
}

export function simRunToJson(run: SimRun): SimRunJson {
  return { ...run, results: [...run.results.values()], podIPs: [...run.podIPs] };
}

async function runInChild(features: string[], o: SimRunOptions): Promise<SimRun> {
  if (o.edit || o.knownHosts || o.onSim || o.kubeconfigFor)
    throw new Error('runOnSim: edit, onSim, knownHosts and kubeconfigFor are functions and need an in-process run (inChild: false)');
  const dir = mkdtempSync(join(tmpdir(), 'wincheck-simrun-req-'));
  try {
    const request = join(dir, 'request.json');
    const result = join(dir, 'result.json');
    writeFileSync(request, JSON.stringify({ features, options: { ...o, inChild: false } }));
    const main = join(import.meta.dirname, 'simRunMain.ts');
    await new Promise<void>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', main, request, result], { maxBuffer: 64 * 1024 * 1024 }, (err, _out, stderr) => {
        if (err) reject(new Error(`harness run failed: ${err.message}\n${stderr}`));
        else resolve();
      });
    });
    const json = JSON.parse(readFileSync(result, 'utf8')) as SimRunJson;
    return { ...json, results: new Map(json.results.map(r => [r.id, r])), podIPs: new Map(json.podIPs) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
