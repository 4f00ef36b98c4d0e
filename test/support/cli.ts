// Runs the real CLI in a child process, as a user would.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';

export const ROOT = resolve(import.meta.dirname, '../..');

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved. */
  all: string;
}

/** The CLI as a running child process (for signals). */
export function startWincheck(args: string[]) {
  return execa(process.execPath, ['--import', 'tsx', join(ROOT, 'cli/main.ts'), ...args], { cwd: ROOT, reject: false, all: true, env: { NO_COLOR: '1' } });
}

export async function wincheck(args: string[], opts: { env?: Record<string, string | undefined>; extendEnv?: boolean } = {}): Promise<CliResult> {
  const r = await execa(process.execPath, ['--import', 'tsx', join(ROOT, 'cli/main.ts'), ...args], {
    cwd: ROOT,
    reject: false,
    all: true,
    env: opts.env ?? { NO_COLOR: '1' },
    extendEnv: opts.extendEnv ?? true,
  });
  return { exitCode: r.exitCode ?? -1, stdout: String(r.stdout), stderr: String(r.stderr), all: String(r.all) };
}

export function tempDir(prefix = 'wincheck-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A kubeconfig pointing at a server that is not there (127.0.0.1:<closed port>). */
export function deadKubeconfig(port: number): string {
  const file = join(tempDir(), 'kubeconfig');
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters:
- name: dead
  cluster:
    server: https://127.0.0.1:${port}
    insecure-skip-tls-verify: true
users:
- name: u
  user:
    token: abc
contexts:
- name: dead
  context: { cluster: dead, user: u }
current-context: dead
`,
  );
  return file;
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>(r => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise(r => srv.close(r));
  return port;
}
