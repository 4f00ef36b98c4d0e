// The one container entrypoint the runtime runs as a real process of this machine: the
// wincheck image's `node /opt/wincheck/dist/cli/main.js ...` (the repository's Dockerfile).
// It runs the CLI of the tree the sim itself runs from (the build in dist/, or the sources
// through tsx: util/paths.ts cliArgv) as a child of this Node, in-cluster as a Linux pod would be: KUBERNETES_SERVICE_HOST/PORT name the
// simulated API server, and the ServiceAccount's token, ca.crt and namespace sit under
// /var/run/secrets/kubernetes.io/serviceaccount of a private root directory (named by
// WINCHECK_CONTAINER_ROOT, the sim's stand-in for the container's root file system; absolute
// paths the process is given, such as --report-dir /reports, live there too). Its stdout and
// stderr are the container log, its exit code the container's.

import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { cliArgv, PACKAGE_ROOT } from '../../util/paths.ts';
import type { InClusterApi } from './context.ts';

export const WINCHECK_ENTRYPOINT = '/opt/wincheck/dist/cli/main.js';
const SERVICEACCOUNT_DIR = 'var/run/secrets/kubernetes.io/serviceaccount';
/** After SIGTERM, what the kubelet's default grace period would allow before SIGKILL (shortened). */
const KILL_AFTER_MS = 10_000;

export function isHostEntrypoint(argv: string[]): boolean {
  return argv[0] === 'node' && argv[1] === WINCHECK_ENTRYPOINT;
}

export interface HostRun {
  argv: string[];
  env: Record<string, string>;
  namespace: string;
  serviceAccount: string;
  api: InClusterApi | undefined;
  stdout: Writable;
  stderr: Writable;
  signal: AbortSignal;
}

/** Runs the entrypoint to its exit; resolves with the exit code (128+signal when killed). */
export async function runOnHost(r: HostRun): Promise<number> {
  if (!r.api) throw new Error('this sim cannot run in-cluster processes: the runtime was started without its API server address');
  const root = await mkdtemp(join(tmpdir(), 'wincheck-container-'));
  try {
    const sa = join(root, SERVICEACCOUNT_DIR);
    await mkdir(sa, { recursive: true });
    await writeFile(join(sa, 'token'), r.api.serviceAccountToken(r.namespace, r.serviceAccount), { mode: 0o600 });
    await writeFile(join(sa, 'ca.crt'), r.api.caPem);
    await writeFile(join(sa, 'namespace'), r.namespace);
    const env = {
      ...r.env,
      KUBERNETES_SERVICE_HOST: r.api.host,
      KUBERNETES_SERVICE_PORT: String(r.api.port),
      KUBERNETES_SERVICE_PORT_HTTPS: String(r.api.port),
      WINCHECK_CONTAINER_ROOT: root,
      HOME: root,
      // The host's PATH (node, kubectl are this machine's): the image's own PATH names nothing here.
      PATH: process.env.PATH ?? '/usr/bin:/bin',
    };
    const child = spawn(process.execPath, [...cliArgv(), ...r.argv.slice(2)], {
      cwd: PACKAGE_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(r.stdout, { end: false });
    child.stderr.pipe(r.stderr, { end: false });
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
    };
    if (r.signal.aborted) onAbort();
    else r.signal.addEventListener('abort', onAbort, { once: true });
    return await new Promise<number>(done => {
      child.on('error', e => {
        r.stderr.write(`exec ${process.execPath}: ${e.message}\n`);
        done(127);
      });
      child.on('close', (code, sig) => {
        clearTimeout(killTimer);
        r.signal.removeEventListener('abort', onAbort);
        done(code ?? (sig === 'SIGKILL' ? 137 : 143));
      });
    });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
