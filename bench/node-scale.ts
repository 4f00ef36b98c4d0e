// node-scale: the whole node suite on 100 Windows nodes (profile scale-100) against the same
// suite on 2 (profile default). Node-level checks visit every Windows node; what costs is
// bounded per node and run-wide (lib/run/limiter.ts) and nothing waits node after node, so 50x
// the nodes must cost at most 2x the time. Each run on a fresh sim in its own process, the
// harness in another; the clock is the harness run's own (sim start and settle excluded).
// Alternating order over the repeats; the median of the per-repeat ratios is the verdict.
//
//   npx tsx bench/node-scale.ts

import type { ChildRun } from './result.ts';
import { clusterSettled, runHarnessChild, startSimProcess, tempDir } from './processes.ts';
import { fmtMs, median, report } from './support.ts';

const NAME = 'node-scale';
const MANY = 'scale-100';
const FEW = 'default';
const REPEATS = 2;
/** The goal: the node suite on 100 nodes takes at most twice its time on 2. */
const THRESHOLD = 2;

const out = (l: string) => process.stdout.write(l + '\n');

async function nodeSuite(profile: string, reports: string): Promise<{ run: ChildRun; rssMB: number }> {
  const sim = await startSimProcess(profile, out);
  try {
    await clusterSettled(sim.kubeconfig, 300_000);
    const h = await runHarnessChild(['--kubeconfig', sim.kubeconfig, '--report-dir', reports, '--suite', 'node', 'full'], 15 * 60_000);
    const run = h.result.runs[0];
    // Checks that ended as error are named (a note, and the verdict fails) but the time still counts.
    if (run.code !== 0 && !run.failures?.length) throw new Error(`node suite on ${profile} exited ${run.code}: ${run.tail.join(' | ')}`);
    return { run, rssMB: h.peakRssKB / 1024 };
  } finally {
    await sim.stop();
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  out(`${NAME}: --suite node on ${MANY} (100 Windows nodes) vs ${FEW} (2); ${REPEATS} repeats, alternating order; sim and harness in separate processes`);
  const reports = tempDir('wincheck-bench-ns-');
  const ratios: number[] = [];
  const many: number[] = [];
  const few: number[] = [];
  const rss: number[] = [];
  const failures: string[] = [];
  try {
    for (let i = 0; i < REPEATS; i++) {
      const order = i % 2 ? [MANY, FEW] : [FEW, MANY];
      const ms: Record<string, number> = {};
      for (const p of order) {
        const r = await nodeSuite(p, `${reports.path}/${i}-${p}`);
        ms[p] = r.run.wallMs;
        if (p === MANY) rss.push(r.rssMB);
        for (const f of r.run.failures ?? []) {
          failures.push(`${p}: ${f}`);
          out(`  ${p}: ${f}`);
        }
      }
      many.push(ms[MANY]);
      few.push(ms[FEW]);
      ratios.push(ms[MANY] / ms[FEW]);
      out(`  #${i + 1}: 100 nodes ${fmtMs(ms[MANY])} ms, 2 nodes ${fmtMs(ms[FEW])} ms, ratio ${(ms[MANY] / ms[FEW]).toFixed(2)}`);
    }
  } finally {
    reports.remove();
  }
  await report({
    name: NAME, ratioOf: 'node suite on 100 Windows nodes / on 2 (median)', ratio: median(ratios), threshold: THRESHOLD,
    measurements: { nodes100: median(many), nodes2: median(few), harnessRssMB100: Math.max(...rss) }, repeats: REPEATS,
    notes: failures, failures,
  }, started);
}

main().catch(e => {
  process.stderr.write(`${NAME}: ${e instanceof Error ? e.stack ?? e.message : String(e)}\n`);
  process.exit(1);
});
