// Runs the harness in-process against a simulated cluster with only the networking features
// selected, and returns the report files. Test-only: the one place these tests touch both sim/
// and lib/. Node paths use the harness's own node access (HostProcess pods, lib/transports).

import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckResult } from '../../lib/catalog/types.ts';
import { resolveConfig } from '../../lib/config/resolve.ts';
import { runWincheck } from '../../lib/run/run.ts';
import { startSim, type Profile, type SimCluster } from '../../sim/index.ts';

export interface NetSimRun {
  exitCode: number;
  results: Map<string, CheckResult>;
  summaryMd: string;
  junit: Record<string, string>;
  output: string[];
  /** Pod name → pod IP, as the sim assigned them during the run (the probing pods' own addresses). */
  podIPs: Map<string, string>;
  /** Pods still carrying the run label after the run (cleanup left them behind). */
  leftover: string[];
}

/** Shortened periods (upstream: 30 s warm-up, 10 s steady, 1 s poll, 10 s connect). */
export const FAST_NET = { netWarmup: 2_500, netSteady: 1_000, netPoll: 250, netConnect: 1_000, netLoadBalancer: 5_000 };

async function startSharedSim(profile: Profile, kubeconfigOut: string): Promise<SimCluster> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      return await startSim({ profile, kubeconfigOut });
    } catch (e) {
      // Another engineer's test may hold the loopback addresses: wait for them to free up.
      if (!/EADDRINUSE/.test(String((e as Error).message) + String((e as { cause?: Error }).cause?.message)) || Date.now() > deadline) throw e;
      await new Promise(r => setTimeout(r, 2_000));
    }
  }
}

export async function runNetOnSim(profile: Profile, features: string[], o: { egressUrl?: string } = {}): Promise<NetSimRun> {
  const dir = mkdtempSync(join(tmpdir(), 'wincheck-net-'));
  const sim = await startSharedSim(profile, join(dir, 'kubeconfig'));
  const output: string[] = [];
  const podIPs = new Map<string, string>();
  const seen = sim.store.onAny((bucket, e) => {
    const pod = e.object as { metadata: { name?: string }; status?: { podIP?: string } };
    if (bucket === 'pods' && pod.metadata.name && pod.status?.podIP) podIPs.set(pod.metadata.name, pod.status.podIP);
  });
  try {
    const config = resolveConfig({ kubeconfig: join(dir, 'kubeconfig'), feature: features, reportDir: join(dir, 'reports'), egressUrl: o.egressUrl }, {}, {});
    Object.assign(config.timeouts, FAST_NET, { podStart: 60_000 });
    config.simulated = true;
    config.simProfile = profile.name;
    const exitCode = await runWincheck(config, { out: l => output.push(l) });
    const reports = join(dir, 'reports');
    const json = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as { summary: { results: CheckResult[] } };
    const junit: Record<string, string> = {};
    for (const f of readdirSync(reports)) if (f.startsWith('junit')) junit[f] = readFileSync(join(reports, f), 'utf8');
    const leftover = sim.store.list('pods').items.filter(p => p.metadata.labels?.['wincheck.io/run-id']).map(p => `${p.metadata.namespace}/${p.metadata.name}`);
    return { exitCode, results: new Map(json.summary.results.map(r => [r.id, r])), summaryMd: readFileSync(join(reports, 'summary.md'), 'utf8'), junit, output, podIPs, leftover };
  } finally {
    seen.stop();
    await sim.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
