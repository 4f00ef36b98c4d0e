// Starts `wincheck sim` as a separate process, the way a user would, and waits
// (on its output, with a deadline) until it has said where the kubeconfig is and all else it prints
// when ready.

import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa, type ResultPromise } from 'execa';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface SimProcess {
  kubeconfig: string;
  proc: ResultPromise;
  output(): string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | undefined>;
}

/** Node's arguments that run the CLI from the sources (the default) or from the build. */
export const SOURCE_CLI = ['--import', 'tsx', join(ROOT, 'cli/main.ts')];
export const BUILT_CLI = [join(ROOT, 'dist/cli/main.js')];

export async function startSimProcess(args: string[] = [], deadlineMs = 60_000, cli = SOURCE_CLI): Promise<SimProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'wincheck-sim-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const proc = execa('node', [...cli, 'sim', '--kubeconfig-out', kubeconfig, ...args], {
    cwd: ROOT,
    reject: false,
    all: true,
    buffer: false,
  });
  let out = '';
  proc.all?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  await new Promise<void>((resolveReady, rejectReady) => {
    const timer = setTimeout(() => rejectReady(new Error(`wincheck sim did not write ${kubeconfig} within ${deadlineMs} ms; output:\n${out}`)), deadlineMs);
    const check = () => {
      // The ready block ends with this line: what it says before (client certificates...) may come in later chunks.
      if (out.includes(kubeconfig) && out.includes('Press Ctrl-C to stop.') && existsSync(kubeconfig)) {
        clearTimeout(timer);
        resolveReady();
      }
    };
    proc.all?.on('data', check);
    proc.on('exit', code => {
      clearTimeout(timer);
      rejectReady(new Error(`wincheck sim exited with ${code} before serving; output:\n${out}`));
    });
  });
  return {
    kubeconfig,
    proc,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      proc.kill(signal);
      const r = await proc;
      return r.exitCode;
    },
  };
}
