// Benchmark 1: parallel fixture deployment. The harness deploys every fixture of the selected
// features up front and in parallel, so a run of K features should cost about one pod start, not
// K. Measures runWincheck selecting K independent features against the sim vs the sum of K runs
// selecting one feature each.
//
// ratio = whole / sum-of-singles, expected < THRESHOLD.
//
// Each measured run gets a fresh, settled sim from the same profile: the sim's kubelets cache
// pulled images per node, so on a shared sim every run after the first would skip the pull that
// the first one paid, and the comparison would measure run order instead of the harness.
// A second, informational ratio is taken on one shared, warm sim (image cache full): there
// only the fixed cost per run (preflight, discovery, namespace, cleanup) is amortised.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../lib/config/resolve.ts';
import { runWincheck } from '../lib/run/run.ts';
import { loadProfile } from '../sim/index.ts';
import type { Profile } from '../sim/index.ts';
import { fmtMs, median, report, simSettled, startSimRetrying } from './support.ts';
import { createReporters } from '../lib/report/index.ts';

const NAME = 'parallel-deploy';

/**
 * Independent features whose fixture pods mostly use different images (IIS + a Linux agnhost
 * helper, agnhost, agnhost, Nano Server twice): a run that started its fixtures one after the
 * other would pay pull after pull, as K single runs do, instead of overlapping them.
 */
const FEATURES = ['work.iis-pod', 'cfg.secret-env', 'cfg.configmap-env', 'sec.run-as-username'];
/** Cold runs: repeats of (one whole run + K single runs), each on its own sim. */
const COLD_REPEATS = 3;
/** Warm runs on one shared sim (informational), after one unmeasured warm-up run. */
const WARM_REPEATS = 3;
/** First image pull per image per node. Real Windows images take minutes; this keeps a pull the dominant cost of a pod start, as on a real cluster, while the benchmark stays short. */
const PULL_LATENCY_MS = 400;
/**
 * Parallel deployment measures 0.25-0.32 (single repeats up to 0.36 under heavy load); the same
 * harness changed to wait for each fixture's pods before deploying the next measured 0.70-0.75
 * (bench/README.md): 0.5 sits between them.
 */
const THRESHOLD = 0.5;

const out = (l: string) => process.stdout.write(l + '\n');

async function main(): Promise<void> {
  const started = performance.now();
  const profile: Profile = { ...loadProfile('default'), imagePullLatencyMs: PULL_LATENCY_MS };
  out(
    `${NAME}: ${FEATURES.length} features (${FEATURES.join(', ')}); profile default, imagePullLatencyMs ${PULL_LATENCY_MS}; ${COLD_REPEATS} cold + ${WARM_REPEATS} warm repeats`,
  );

  const reportRoot = mkdtempSync(join(tmpdir(), 'wincheck-bench-reports-'));
  let runs = 0;
  /** One runWincheck against a settled sim; returns its wall time in ms (sim start/settle/stop not included). */
  const timedRun = async (kubeconfig: string, features: string[]): Promise<number> => {
    const config = resolveConfig({ kubeconfig, feature: features, reportDir: join(reportRoot, String(runs++)) }, {}, {});
    config.simulated = true;
    config.simProfile = profile.name;
    const lines: string[] = [];
    const t0 = performance.now();
    const code = await runWincheck(config, { out: l => lines.push(l), events: createReporters({ reportDir: config.reportDir, out: l => lines.push(l) }) });
    const ms = performance.now() - t0;
    // A run that regressed or errored is not the thing measured: its timing means nothing.
    if (code !== 0) throw new Error(`run of ${features.join(', ')} exited ${code}:\n${lines.slice(-15).join('\n')}`);
    return ms;
  };
  /** A run on its own fresh sim: cold image caches, add-ons settled before the clock starts. */
  const coldRun = async (features: string[]): Promise<number> => {
    const sim = await startSimRetrying(profile, out);
    try {
      await simSettled(sim);
      return await timedRun(sim.kubeconfigFile, features);
    } finally {
      await sim.stop();
      sim.cleanupDir();
    }
  };

  try {
    // Informational, and the warm-up (module loading, JIT, the suites' first import): one shared
    // sim whose image caches a first, unmeasured run fills.
    const warmWholes: number[] = [];
    const warmSums: number[] = [];
    const sim = await startSimRetrying(profile, out);
    try {
      await simSettled(sim);
      await timedRun(sim.kubeconfigFile, FEATURES);
      for (let i = 0; i < WARM_REPEATS; i++) {
        warmWholes.push(await timedRun(sim.kubeconfigFile, FEATURES));
        let sum = 0;
        for (const f of FEATURES) sum += await timedRun(sim.kubeconfigFile, [f]);
        warmSums.push(sum);
      }
    } finally {
      await sim.stop();
      sim.cleanupDir();
    }
    out(`  warm (one shared sim, images cached): whole ${warmWholes.map(fmtMs).join(', ')} ms; sum of singles ${warmSums.map(fmtMs).join(', ')} ms`);

    // The measurement: every run on its own fresh sim (cold image caches).
    const wholes: number[] = [];
    const sums: number[] = [];
    for (let i = 0; i < COLD_REPEATS; i++) {
      // Alternate the order so a drift of the machine's speed does not favour one side.
      const singlesFirst = i % 2 === 1;
      let whole = 0;
      if (!singlesFirst) whole = await coldRun(FEATURES);
      const singles: number[] = [];
      for (const f of FEATURES) singles.push(await coldRun([f]));
      if (singlesFirst) whole = await coldRun(FEATURES);
      const sum = singles.reduce((a, b) => a + b, 0);
      wholes.push(whole);
      sums.push(sum);
      out(`  cold #${i + 1}: whole ${fmtMs(whole)} ms; singles ${singles.map(fmtMs).join(' + ')} = ${fmtMs(sum)} ms; ratio ${(whole / sum).toFixed(3)}`);
    }

    const whole = median(wholes);
    const sum = median(sums);
    const ratio = median(wholes.map((w, i) => w / sums[i]));
    const warmRatio = median(warmWholes.map((w, i) => w / warmSums[i]));
    out(`  median: whole ${fmtMs(whole)} ms, sum of singles ${fmtMs(sum)} ms`);
    await report(
      {
        name: NAME,
        ratioOf: 'whole / sum-of-singles (cold, median)',
        ratio,
        threshold: THRESHOLD,
        measurements: { whole, sumOfSingles: sum, warmWhole: median(warmWholes), warmSumOfSingles: median(warmSums) },
        repeats: COLD_REPEATS,
        notes: [`warm shared-sim ratio (informational, no threshold): ${warmRatio.toFixed(3)}`],
      },
      started,
    );
  } finally {
    rmSync(reportRoot, { recursive: true, force: true });
  }
}

await main();
