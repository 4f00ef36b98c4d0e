// Runs the harness in-process against a simulated cluster started with a given profile, with only
// the named features selected, and returns results.json's per-feature results. Test-only: the one
// place these tests touch both sim/ and lib/.

import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CheckResult } from '../../../lib/catalog/types.ts';
import { resolveConfig } from '../../../lib/config/resolve.ts';
import { runWincheck } from '../../../lib/run/run.ts';
import { startSim, type Profile, type SimCluster } from '../../../sim/index.ts';
import { loadProfile, withOverrides } from '../../../sim/profiles/load.ts';
import type { BreakKey, Limitations } from '../../../sim/profiles/types.ts';

export interface SimRun {
  exitCode: number;
  results: Map<string, CheckResult>;
  output: string[];
}

/**
 * The sim serves at most four instances per machine (loopback address plans) and other test
 * runs on this machine may hold them all: wait for one to free up rather than fail.
 */
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
  /** Built-in profile name (default "default"). */
  base?: string;
  limitations?: Limitations;
  breaks?: BreakKey[];
  /** Add-ons switched on or off on top of the base profile. */
  addons?: Partial<Profile['addons']>;
  podStartMs?: number;
}

/**
 * podStartMs bounds the waits that end at a deadline when a limitation holds (resize, HPA
 * metrics): the sim starts pods in well under a second, so 30 s is generous.
 */
export async function runOnSim(features: string[], o: SimRunOptions = {}): Promise<SimRun> {
  const dir = mkdtempSync(join(tmpdir(), 'wincheck-wcs-'));
  const loaded = withOverrides(loadProfile(o.base ?? 'default'), { limitations: o.limitations, breaks: o.breaks });
  const profile: Profile = { ...loaded, addons: { ...loaded.addons, ...o.addons } };
  const sim = await startSharedSim(profile, join(dir, 'kubeconfig'));
  const output: string[] = [];
  try {
    const config = resolveConfig({ kubeconfig: join(dir, 'kubeconfig'), feature: features, reportDir: join(dir, 'reports') }, {}, {});
    config.timeouts.podStart = o.podStartMs ?? 30_000;
    config.simulated = true;
    config.simProfile = profile.name;
    const exitCode = await runWincheck(config, { out: l => output.push(l) });
    const json = JSON.parse(readFileSync(join(dir, 'reports', 'results.json'), 'utf8')) as { summary: { results: CheckResult[] } };
    return { exitCode, results: new Map(json.summary.results.map(r => [r.id, r])), output };
  } finally {
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** runOnSim in a child process (see simRunMain.ts for why). */
export async function runOnSimInChild(features: string[], options: SimRunOptions = {}): Promise<SimRun> {
  const dir = mkdtempSync(join(tmpdir(), 'wincheck-wcs-req-'));
  try {
    const request = join(dir, 'request.json');
    const result = join(dir, 'result.json');
    writeFileSync(request, JSON.stringify({ features, options }));
    const main = join(dirname(fileURLToPath(import.meta.url)), 'simRunMain.ts');
    await new Promise<void>((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', main, request, result], { maxBuffer: 64 * 1024 * 1024 }, (err, _out, stderr) => {
        if (err) reject(new Error(`harness run failed: ${err.message}\n${stderr}`)); else resolve();
      });
    });
    const json = JSON.parse(readFileSync(result, 'utf8')) as { exitCode: number; results: CheckResult[]; output: string[] };
    return { exitCode: json.exitCode, results: new Map(json.results.map(r => [r.id, r])), output: json.output };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
