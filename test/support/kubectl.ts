// Finds the kubectl binaries of several versions that sit beside the `kubectl` on
// the PATH (kubectl.1.27 … kubectl.1.33), so tests can prove the sim speaks
// Kubernetes to clients we did not write.

import { execFileSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execa } from 'execa';

function kubectlDir(): string | undefined {
  try {
    const onPath = execFileSync('sh', ['-c', 'command -v kubectl'], { encoding: 'utf8' }).trim();
    return onPath ? dirname(realpathSync(onPath)) : undefined;
  } catch {
    return undefined;
  }
}

/** Path of kubectl.<version> (e.g. "1.27"), or undefined where absent. */
export function kubectlBinary(version: string): string | undefined {
  const dir = kubectlDir();
  const p = dir && join(dir, `kubectl.${version}`);
  return p && existsSync(p) ? p : undefined;
}

export interface KubectlResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Runs kubectl against a kubeconfig; never throws on a non-zero exit (tests assert it). */
export async function kubectl(bin: string, kubeconfig: string, args: string[], opts: { timeoutMs?: number; input?: string } = {}): Promise<KubectlResult> {
  const r = await execa(bin, ['--kubeconfig', kubeconfig, ...args], {
    reject: false,
    stripFinalNewline: false,
    timeout: opts.timeoutMs ?? 120_000,
    input: opts.input,
    env: { HOME: process.env.HOME ?? '/root' },
  });
  return { stdout: String(r.stdout), stderr: String(r.stderr), exitCode: r.exitCode ?? -1 };
}
