// Seeded interrupts of a real `wincheck run` (test/reliability/interrupts.test.ts, bench/interrupts.ts):
// a moment (after a phase of the run's output, plus a delay) and a signal, chosen by the seed.

import type { ResultPromise } from 'execa';
import { startWincheck, tempDir } from './cli.ts';

/** A few quick features with fixtures: pods, a Deployment, config objects. */
export const INTERRUPT_FEATURES = ['sched.os-selector', 'work.iis-pod', 'work.deployment', 'cfg.secret-env', 'cfg.configmap-env'];

/** Where a run may be interrupted, each with the longest seeded delay after its line that still falls inside the phase (measured: the run ends about 1 s after its first check line, cleanup in about 0.5 s). */
const PHASES = [
  { line: /Created namespace/, maxDelayMs: 1000 },
  { line: /Deploying \d+ fixture/, maxDelayMs: 1000 },
  { line: /\[\s*1\/\d+\]/, maxDelayMs: 400 },
  { line: /Deleting namespace/, maxDelayMs: 150 },
] as const;

const outputs = new WeakMap<object, { text: string }>();

/** Resolves with all output so far once it matches `re` (output seen before the call counts). */
export function waitForOutput(p: ResultPromise, re: RegExp, deadlineMs = 90_000): Promise<string> {
  let buf = outputs.get(p);
  if (!buf) {
    const b = { text: '' };
    outputs.set(p, b);
    p.all?.on('data', (d: Buffer) => {
      b.text += d.toString();
    });
    buf = b;
  }
  const b = buf;
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!re.test(b.text)) return false;
      clearTimeout(timer);
      clearInterval(poll);
      resolve(b.text);
      return true;
    };
    const timer = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`no ${re} within ${deadlineMs} ms; output:\n${b.text}`));
    }, deadlineMs);
    const poll = setInterval(check, 20);
    void p.finally(() =>
      setTimeout(() => {
        if (!check()) {
          clearTimeout(timer);
          clearInterval(poll);
          reject(new Error(`exited before ${re}; output:\n${b.text}`));
        }
      }, 50),
    );
  });
}

export function runIdOf(output: string): string {
  const m = /Namespace:\s+wincheck-(\S+)|namespace wincheck-([a-z0-9]+)/.exec(output);
  if (!m) throw new Error(`no namespace in the output:\n${output}`);
  return m[1] ?? m[2];
}

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Interrupted {
  exitCode: number | undefined;
  runId: string;
  moment: string;
  output: string;
  /** False when the run had already ended (a late moment): then exit 0 is right. */
  delivered: boolean;
  /** The run said it was stopping: the signal reached it while it ran (a signal that lands as the process exits is delivered but never seen). */
  seen: boolean;
  /** The run's last words: it wrote its reports (so a signal after that found nothing left to stop). */
  finished: boolean;
  /** The signal that ended the process, when one did (the default action: it came after the run's own handlers were gone). */
  killedBy?: string;
}

/** `delayScale` shrinks the seeded delay after the phase (a test retries a moment the run outran). */
export async function interruptAt(seed: number, kubeconfig: string, delayScale = 1): Promise<Interrupted> {
  const rand = rng(seed);
  const { line: phase, maxDelayMs } = PHASES[Math.floor(rand() * PHASES.length)];
  const delayMs = Math.floor(rand() * maxDelayMs * delayScale);
  const signal: NodeJS.Signals = rand() < 0.5 ? 'SIGINT' : 'SIGTERM';
  const moment = `${signal} ${delayMs} ms after ${phase}`;
  const p = startWincheck(['run', '--kubeconfig', kubeconfig, '--report-dir', tempDir(), ...INTERRUPT_FEATURES.flatMap(f => ['--feature', f])]);
  await waitForOutput(p, phase);
  await new Promise(r => setTimeout(r, delayMs));
  const delivered = p.exitCode === null && p.kill(signal);
  const r = await p;
  const output = String(r.all);
  const seen = new RegExp(`${signal}: stopping`).test(output);
  return {
    exitCode: r.exitCode,
    runId: runIdOf(output),
    moment,
    output,
    delivered,
    seen,
    finished: /Reports written to /.test(output),
    killedBy: r.signal ?? undefined,
  };
}
