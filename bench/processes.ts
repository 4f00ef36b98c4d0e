// The sim and the harness as separate processes (bench/critical-path.ts, bench/node-scale.ts):
// `wincheck sim` in one child, bench/harness-child.ts in another, so the harness's peak RSS is
// its own and the two never share an event loop or a CPU core's time slice, as on a real cluster.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KubeConfig, type V1Pod } from '@kubernetes/client-node';
import { makeClients } from '../lib/cluster/client.ts';
import { watchUntil } from '../lib/cluster/watch.ts';
import { CHILD_PREFIX, type ChildResult, type ChildRun } from './result.ts';
import { addMark, checkSpans, failuresOf, outcomesOf, readResults } from './runLines.ts';
import { podReady } from './support.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/** The node and loader flags (tsx) this process runs with, for children that run TypeScript. */
function tsNode(args: string[], nodeFlags: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeFlags, ...process.execArgv, ...args], { stdio: ['ignore', 'pipe', 'pipe'], cwd: root });
}

/** The V8 flags the installed `wincheck` bin runs with (its shebang, cli/wincheck.js). */
export const HARNESS_NODE_FLAGS = ['--max-semi-space-size=2'];

export interface SimProcess {
  kubeconfig: string;
  egressUrl?: string;
  pid: number;
  stop(): Promise<void>;
}

const ADDRESS_BUSY = /EADDRINUSE|address blocks are in use/;

/** `wincheck sim --profile P` in a child; resolves once it has written its kubeconfig. Retries while other sims hold the address blocks. */
export async function startSimProcess(profile: string, log: (l: string) => void, deadlineMs = 5 * 60_000): Promise<SimProcess> {
  const deadline = Date.now() + deadlineMs;
  for (let attempt = 1; ; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), 'wincheck-bench-sim-'));
    const kubeconfig = join(dir, 'kubeconfig');
    const child = tsNode([join(root, 'cli', 'main.ts'), 'sim', '--profile', profile, '--kubeconfig-out', kubeconfig]);
    const exited = new Promise<number | null>(resolve => child.once('exit', code => resolve(code)));
    const stop = async () => {
      if (child.exitCode === null) child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    };
    let stdout = '';
    let stderr = '';
    const ready = await new Promise<{ egressUrl?: string } | undefined>(resolve => {
      child.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString('utf8');
        if (/Press Ctrl-C to stop/.test(stdout)) resolve({ egressUrl: /Egress URL[^:]*: (\S+)/.exec(stdout)?.[1] });
      });
      child.stderr!.on('data', (d: Buffer) => {
        stderr += d.toString('utf8');
      });
      void exited.then(() => resolve(undefined));
    });
    if (ready) return { kubeconfig, egressUrl: ready.egressUrl, pid: child.pid!, stop };
    await stop();
    if (!ADDRESS_BUSY.test(stderr + stdout) || Date.now() > deadline)
      throw new Error(`wincheck sim --profile ${profile} did not start: ${(stderr || stdout).trim().split('\n').slice(-3).join(' | ')}`);
    if (attempt === 1) log('  (sim address blocks busy: other sims are running; retrying)');
    // A pause before retrying the start, not a wait on cluster state.
    await new Promise(r => setTimeout(r, 2_000 + Math.random() * 2_000));
  }
}

export function kubeConfigOf(file: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromFile(file);
  return kc;
}

/** Resolves once every pod of the cluster (the add-ons) is Ready or Succeeded, by watch. */
export async function clusterSettled(kubeconfig: string, timeoutMs = 120_000): Promise<void> {
  const kube = makeClients(kubeConfigOf(kubeconfig));
  const pods = new Map<string, V1Pod>();
  const settled = () => pods.size > 0 && [...pods.values()].every(p => podReady(p) || p.status?.phase === 'Succeeded');
  await watchUntil<V1Pod, true>({
    kube,
    path: '/api/v1/pods',
    list: () => kube.core.listPodForAllNamespaces(),
    onList: items => {
      pods.clear();
      for (const p of items) pods.set(`${p.metadata?.namespace}/${p.metadata?.name}`, p);
      return settled() || undefined;
    },
    check: (p, type) => {
      const key = `${p.metadata?.namespace}/${p.metadata?.name}`;
      if (type === 'DELETED') pods.delete(key);
      else pods.set(key, p);
      return settled() || undefined;
    },
    what: 'every add-on pod to be Ready',
    describe: () =>
      [...pods.values()]
        .filter(p => !podReady(p))
        .map(p => `${p.metadata?.namespace}/${p.metadata?.name} ${p.status?.phase}`)
        .join(', ') || 'no pods',
    timeoutMs,
  });
}

/** VmHWM (peak resident set) of a live process, in kB, or undefined once it is gone. */
export function vmHWM(pid: number): number | undefined {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

export interface HarnessOutcome {
  result: ChildResult;
  peakRssKB: number;
  processWallMs: number;
}

interface Measured {
  code: number | null;
  stdout: string;
  stderr: string;
  polledKB: number;
  wallMs: number;
}

/** Runs node with these arguments, polling its peak RSS (VmHWM only grows: the last value seen before it exits). */
async function runMeasured(nodeArgs: string[], timeoutMs: number, onLine?: (line: string) => void): Promise<Measured> {
  const t0 = performance.now();
  const child = spawn(process.execPath, nodeArgs, { stdio: ['ignore', 'pipe', 'pipe'], cwd: root });
  let stdout = '';
  let stderr = '';
  let partial = '';
  let polledKB = 0;
  const poll = setInterval(() => {
    polledKB = Math.max(polledKB, vmHWM(child.pid!) ?? 0);
  }, 100);
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  child.stdout!.on('data', (d: Buffer) => {
    const text = d.toString('utf8');
    stdout += text;
    if (!onLine) return;
    const parts = (partial + text).split('\n');
    partial = parts.pop()!;
    for (const l of parts) onLine(l);
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const code = await new Promise<number | null>(resolve => child.once('exit', c => resolve(c)));
  clearInterval(poll);
  clearTimeout(killer);
  return { code, stdout, stderr, polledKB, wallMs: performance.now() - t0 };
}

/** bench/harness-child.ts with these arguments; its peak RSS both from /proc (polled) and from its own getrusage. */
export async function runHarnessChild(args: string[], timeoutMs: number): Promise<HarnessOutcome> {
  const m = await runMeasured([...HARNESS_NODE_FLAGS, ...process.execArgv, join(here, 'harness-child.ts'), ...args], timeoutMs);
  const line = m.stdout.split('\n').find(l => l.startsWith(CHILD_PREFIX));
  if (m.code !== 0 || !line)
    throw new Error(`harness child ${args.join(' ')} exited ${m.code}: ${(m.stderr || m.stdout).trim().split('\n').slice(-5).join(' | ')}`);
  const result = JSON.parse(line.slice(CHILD_PREFIX.length)) as ChildResult;
  return { result, peakRssKB: Math.max(m.polledKB, result.maxRssKB), processWallMs: m.wallMs };
}

/**
 * The form users run: `npm run build` (as `npm install` does through `prepare`), so dist/ is
 * fresh and the bin runs it without the tsx loader. Throws if the build fails: the bin would
 * then quietly run the TypeScript, and the figures would not be of the built form.
 */
export function buildDist(): void {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
}

/**
 * One `wincheck run` through the installed bin (cli/wincheck.js, with its shebang's V8 flags),
 * with these run flags (--report-dir among them). The run's wall time is its own clock
 * (results.json: from before preflight to the end of cleanup), not the process's start.
 */
export async function runWincheckBin(runArgs: string[], timeoutMs: number): Promise<HarnessOutcome> {
  const reportDir = runArgs[runArgs.indexOf('--report-dir') + 1];
  const lines: { line: string; at: number }[] = [];
  const m = await runMeasured([...HARNESS_NODE_FLAGS, join(root, 'cli', 'wincheck.js'), 'run', ...runArgs], timeoutMs, line =>
    lines.push({ line, at: Date.now() }),
  );
  const results = readResults(reportDir);
  if (!results)
    throw new Error(
      `wincheck run ${runArgs.join(' ')} exited ${m.code} without results.json: ${(m.stderr || m.stdout).trim().split('\n').slice(-5).join(' | ')}`,
    );
  const wallStart = Date.parse(results.run.startedAt);
  const marks: Record<string, number> = {};
  for (const { line, at } of lines) addMark(marks, line, at - wallStart);
  const text = lines.map(l => l.line);
  const f = runArgs.flatMap((a, i) => (runArgs[i - 1] === '--feature' ? [a] : []));
  const run: ChildRun = {
    features: f,
    wallMs: results.summary.durationMs,
    code: m.code ?? 1,
    outcomes: outcomesOf(text),
    tail: text.slice(-12),
    marks,
    failures: failuresOf(text),
    checks: checkSpans(results, wallStart),
  };
  return { result: { runs: [run], maxRssKB: 0 }, peakRssKB: m.polledKB, processWallMs: m.wallMs };
}

export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}
