// Runs the real CLI in a child process, as a user would.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa, type Options } from 'execa';

export const ROOT = resolve(import.meta.dirname, '../..');

export function wincheck(args: string[], opts: Options = {}) {
  return execa(process.execPath, ['--import', 'tsx', join(ROOT, 'cli/main.ts'), ...args], {
    cwd: ROOT, reject: false, all: true, env: { NO_COLOR: '1' }, ...opts,
  });
}

export function tempDir(prefix = 'wincheck-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A kubeconfig pointing at a server that is not there (127.0.0.1:<closed port>). */
export function deadKubeconfig(port: number): string {
  const file = join(tempDir(), 'kubeconfig');
  writeFileSync(file, `apiVersion: v1
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
`);
  return file;
}
