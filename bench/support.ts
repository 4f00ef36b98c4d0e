// Shared pieces of the benchmarks: starting a sim (retrying while other engineers' sims hold the
// address blocks), waiting for it to settle by watching its store (never by sleeping), medians,
// the leak check and the verdict (with the result line bench/run.ts reads, see result.ts).

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig, type V1Node, type V1Pod } from '@kubernetes/client-node';
import { makeClients } from '../lib/cluster/client.ts';
import type { KubeClients } from '../lib/cluster/types.ts';
import { startSim, type Profile, type SimCluster } from '../sim/index.ts';
import { RESULT_PREFIX, type BenchResult } from './result.ts';

export function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const fmtMs = (ms: number): string => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toFixed(3));

export const errorText = (e: unknown): string => {
  const err = e as { message?: unknown; cause?: { message?: unknown; code?: unknown } } | undefined;
  return `${String(err?.message ?? e)} ${String(err?.cause?.message ?? '')} ${String(err?.cause?.code ?? '')}`;
};

const ADDRESS_BUSY = /EADDRINUSE|address blocks are in use/;

/**
 * startSim, retried while the loopback address blocks are taken by other sims (other engineers'
 * tests): a back-off between attempts to start, not a wait for cluster state.
 */
export async function startSimRetrying(
  profile: string | Profile,
  log: (l: string) => void,
  deadlineMs = 5 * 60_000,
): Promise<SimCluster & { kubeconfigFile: string; cleanupDir(): void }> {
  const dir = mkdtempSync(join(tmpdir(), 'wincheck-bench-'));
  const kubeconfigFile = join(dir, 'kubeconfig');
  const deadline = Date.now() + deadlineMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const sim = await startSim({ profile, kubeconfigOut: kubeconfigFile });
      return Object.assign(sim, { kubeconfigFile, cleanupDir: () => rmSync(dir, { recursive: true, force: true }) });
    } catch (e) {
      if (!ADDRESS_BUSY.test(errorText(e)) || Date.now() > deadline) {
        rmSync(dir, { recursive: true, force: true });
        throw e;
      }
      if (attempt === 1) log('  (sim address blocks busy: other sims are running; retrying)');
      await new Promise(r => setTimeout(r, 2_000 + Math.random() * 2_000));
    }
  }
}

/** The harness's own clients (makeClients), pointed at the sim through its kubeconfig. */
export function kubeOf(sim: SimCluster): KubeClients {
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfig);
  return makeClients(kc);
}

export function podReady(pod: V1Pod | undefined): boolean {
  return pod?.status?.conditions?.some(c => c.type === 'Ready' && c.status === 'True') ?? false;
}

/**
 * Resolves once every node and every pod in the sim is Ready (the add-ons have pulled and
 * started), judged on each store write: a freshly started sim is still booting its add-ons.
 */
export function simSettled(sim: SimCluster, timeoutMs = 60_000): Promise<void> {
  const isSettled = () => {
    const nodes = sim.store.list('nodes').items as V1Node[];
    const pods = sim.store.list('pods').items as V1Pod[];
    return (
      nodes.length > 0 &&
      pods.length > 0 &&
      nodes.every(n => n.status?.conditions?.some(c => c.type === 'Ready' && c.status === 'True')) &&
      pods.every(p => podReady(p) || p.status?.phase === 'Succeeded')
    );
  };
  return new Promise((resolve, reject) => {
    if (isSettled()) return resolve();
    const done = (err?: Error) => {
      clearTimeout(timer);
      sub.stop();
      if (err) reject(err);
      else resolve();
    };
    const sub = sim.store.onAny(bucket => {
      if ((bucket === 'pods' || bucket === 'nodes') && isSettled()) done();
    });
    const timer = setTimeout(() => done(new Error(`the sim did not settle within ${timeoutMs / 1000}s`)), timeoutMs);
  });
}

const STDIO_AND_FS = new Set(['TTYWrap', 'PipeWrap', 'FSReqCallback', 'FSReqPromise', 'FileHandle']);

/**
 * Resources still keeping the event loop alive after cleanup, other than stdio: a left-over
 * listener, socket or timer (a sim not stopped, a watch not aborted). Handles being closed are
 * listed until their close callbacks have run, so this lets the event loop turn (up to
 * drainMs) before it names what is left; it waits for no cluster state.
 */
export async function leftoverResources(drainMs = 2_000): Promise<string[]> {
  const left = () => process.getActiveResourcesInfo().filter(r => !STDIO_AND_FS.has(r));
  const deadline = performance.now() + drainMs;
  while (left().length && performance.now() < deadline) await new Promise(r => setTimeout(r, 20));
  return left();
}

/** Prints the verdict and the result line; sets the exit code (1 when outside the threshold or leaking). */
export async function report(r: Omit<BenchResult, 'ok' | 'wallMs'> & { failures?: string[] }, started: number): Promise<BenchResult> {
  const leftovers = await leftoverResources();
  const { failures = [], ...rest } = r;
  const notes = [...(rest.notes ?? [])];
  if (leftovers.length) notes.push(`left-over resources after cleanup: ${leftovers.join(', ')}`);
  // `failures`: goals besides the ratio that were missed (already among the notes).
  const ok = Number.isFinite(r.ratio) && r.ratio < r.threshold && !leftovers.length && !failures.length;
  const result: BenchResult = { ...rest, notes, ok, wallMs: Math.round(performance.now() - started) };
  const out = (l: string) => process.stdout.write(l + '\n');
  out(`${r.name}: ratio ${r.ratioOf} = ${r.ratio.toFixed(3)} (threshold < ${r.threshold}) ${ok ? 'OK' : 'FAIL'}`);
  for (const n of notes) out(`  note: ${n}`);
  out(RESULT_PREFIX + JSON.stringify(result));
  if (!ok) process.exitCode = 1;
  // Whatever leaked would keep this process alive: end it, the verdict is out (stdout is synchronous on pipes and files).
  if (leftovers.length) process.exit(1);
  return result;
}

/** The 1, 5 and 15 minute load averages, "0.9 0.4 0.1": printed beside every timing. */
export const loadAverage = (): string =>
  loadavg()
    .map(x => x.toFixed(1))
    .join(' ');

/** The value after a flag on the command line ("--repeats 3"), or undefined. */
export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
