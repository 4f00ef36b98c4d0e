// Runs the harness in-process against a simulated cluster with one profile, only the named
// features selected, and returns results.json's per-feature results. Test-only: the one place
// these tests touch both sim/ and lib/. SSH material comes from the sim (or is overridden).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckResult } from '../../lib/catalog/types.ts';
import type { NodeAccessMode } from '../../lib/config/types.ts';
import { resolveConfig } from '../../lib/config/resolve.ts';
import { runWincheck } from '../../lib/run/run.ts';
import { startSim, type Profile, type SimCluster } from '../../sim/index.ts';
import { loadProfile, withOverrides } from '../../sim/profiles/load.ts';
import type { BreakKey, Limitations } from '../../sim/profiles/types.ts';

export interface SimRun {
  exitCode: number;
  results: Map<string, CheckResult>;
  output: string[];
  /** Everything written under the report dir, for secret/evidence checks. */
  reportText: string;
}

/** The sim serves a few instances per machine; other test runs may hold them: wait for one. */
async function startSharedSim(profile: Profile, kubeconfigOut: string): Promise<SimCluster> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      return await startSim({ profile, kubeconfigOut });
    } catch (e) {
      if (!/EADDRINUSE/.test(String((e as Error).message)) || Date.now() > deadline) throw e;
      await new Promise(r => setTimeout(r, 2_000));
    }
  }
}

export interface SimRunOptions {
  base?: string;
  limitations?: Limitations;
  breaks?: BreakKey[];
  /** Edits the profile after the overrides (kubelet versions, SSH off...). */
  edit?: (p: Profile) => void;
  nodeAccess?: NodeAccessMode;
  /** Give the harness the sim's SSH material (default true). */
  ssh?: boolean;
  /** Replace the sim's known_hosts (a wrong key). */
  knownHosts?: (simKnownHosts: string) => string;
  podStartMs?: number;
}

export async function runOnSim(features: string[], o: SimRunOptions = {}): Promise<SimRun> {
  const dir = mkdtempSync(join(tmpdir(), 'wincheck-risn-'));
  const profile = withOverrides(loadProfile(o.base ?? 'default'), { limitations: o.limitations, breaks: o.breaks });
  o.edit?.(profile);
  const sim = await startSharedSim(profile, join(dir, 'kubeconfig'));
  const output: string[] = [];
  try {
    const flags: Parameters<typeof resolveConfig>[0] = { kubeconfig: join(dir, 'kubeconfig'), feature: features, reportDir: join(dir, 'reports'), nodeAccess: o.nodeAccess };
    if (sim.ssh && o.ssh !== false) {
      writeFileSync(join(dir, 'ssh_key'), sim.ssh.privateKey, { mode: 0o600 });
      writeFileSync(join(dir, 'known_hosts'), o.knownHosts ? o.knownHosts(sim.ssh.knownHosts) : sim.ssh.knownHosts);
      Object.assign(flags, { sshUser: sim.ssh.user, sshKey: join(dir, 'ssh_key'), sshKnownHosts: join(dir, 'known_hosts') });
    }
    const config = resolveConfig(flags, {}, {});
    config.timeouts.podStart = o.podStartMs ?? 30_000;
    config.timeouts.rollout = o.podStartMs ?? 30_000;
    config.simulated = true;
    config.simProfile = profile.name;
    const exitCode = await runWincheck(config, { out: l => output.push(l) });
    const raw = readFileSync(join(dir, 'reports', 'results.json'), 'utf8');
    const json = JSON.parse(raw) as { summary: { results: CheckResult[] } };
    const reportText = ['results.json', 'summary.md'].map(f => { try { return readFileSync(join(dir, 'reports', f), 'utf8'); } catch { return ''; } }).join('\n');
    return { exitCode, results: new Map(json.summary.results.map(r => [r.id, r])), output, reportText };
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
