// The only place the harness meets the simulated cluster: `wincheck run --sim` and `wincheck sim`.
// Imported lazily so the harness works (against real clusters) even without sim/.

import { existsSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from '../lib/errors.ts';
import { codeModule } from '../util/paths.ts';
import { processExists } from '../lib/process.ts';

export interface StartedSim {
  kubeconfigPath: string;
  server: string;
  profileName: string;
  /** SSH material for the Windows nodes, written to files for --ssh-* (when the sim serves SSH). */
  ssh?: { user: string; keyPath: string; knownHostsPath: string };
  /** A URL on the sim's host outside the cluster, the default egress target of a sim run. */
  egressUrl?: string;
  /** Client certificates handed out beside the kubeconfig, each with a kubeconfig naming them. */
  clientCertificates: ClientCertificateFiles[];
  stop(): Promise<void>;
}

interface ClientCertificateFiles {
  user: string;
  groups?: string[];
  kubeconfig: string;
}

interface SimStartOptions {
  profile?: string;
  port?: number;
  kubeconfigOut?: string;
  clientCertificates?: { user: string; groups?: string[] }[];
}

const simEntry = codeModule('sim/index.ts');
const builtinProfiles = join(dirname(simEntry), 'profiles', 'builtin');

/** Built-in sim profile names, for --help (read from the folder: loading sim/ costs seconds). */
export function simProfileNames(): string[] {
  if (!existsSync(builtinProfiles)) return [];
  return readdirSync(builtinProfiles)
    .filter(f => f.endsWith('.yaml'))
    .map(f => f.slice(0, -'.yaml'.length))
    .sort();
}

interface SimModule {
  startSim(opts: SimStartOptions): Promise<{
    kubeconfigPath?: string;
    kubeconfig: string;
    server: string;
    profileName: string;
    ssh?: { knownHosts: string; user: string; privateKey: string };
    egressUrl?: string;
    clientCertificateFiles: ClientCertificateFiles[];
    stop(): Promise<void>;
  }>;
  ProfileError: new (...args: never[]) => Error;
}

export async function startSimulatedCluster(opts: SimStartOptions): Promise<StartedSim> {
  if (!existsSync(simEntry)) throw new UsageError('the simulated cluster is not available in this checkout (sim/index.ts is missing)');
  const sim = (await import(simEntry)) as SimModule;
  removeStaleSimDirs();
  const dir = await mkdtemp(join(tmpdir(), `${DIR_PREFIX}${process.pid}-`));
  // The dir holds the admin kubeconfig and the nodes' SSH key: removed however the process ends
  // (SIGKILL excepted: the next start removes dirs whose process is gone).
  const removeOnExit = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeOnExit);
  let started;
  try {
    started = await sim.startSim({ ...opts, kubeconfigOut: opts.kubeconfigOut ?? join(dir, 'kubeconfig') });
  } catch (e) {
    process.off('exit', removeOnExit);
    await rm(dir, { recursive: true, force: true });
    if (e instanceof sim.ProfileError) throw new UsageError(e.message.split('\n')[0]);
    throw new Error('the simulated cluster failed to start', { cause: e });
  }
  const kubeconfigPath = started.kubeconfigPath ?? join(dir, 'kubeconfig');
  if (!started.kubeconfigPath) await writeFile(kubeconfigPath, started.kubeconfig, { mode: 0o600 });
  let ssh: StartedSim['ssh'];
  if (started.ssh) {
    const keyPath = join(dir, 'ssh_key');
    const knownHostsPath = join(dir, 'known_hosts');
    await writeFile(keyPath, started.ssh.privateKey, { mode: 0o600 });
    await writeFile(knownHostsPath, started.ssh.knownHosts);
    ssh = { user: started.ssh.user, keyPath, knownHostsPath };
  }
  return {
    kubeconfigPath,
    server: started.server,
    profileName: started.profileName,
    ssh,
    egressUrl: started.egressUrl,
    clientCertificates: started.clientCertificateFiles,
    stop: async () => {
      await started.stop();
      process.off('exit', removeOnExit);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Per-process temp dirs are named wincheck-sim-<pid>-XXXXXX. */
const DIR_PREFIX = 'wincheck-sim-';

/** Removes temp dirs of sim runs whose process no longer exists (killed with SIGKILL). */
export function removeStaleSimDirs(root = tmpdir()): string[] {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return removed;
  }
  for (const name of names) {
    const pid = new RegExp(`^${DIR_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (!pid || processExists(Number(pid))) continue;
    rmSync(join(root, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
