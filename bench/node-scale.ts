// node-scale: the whole node suite on 100 Windows nodes against the same suite on 2, in two
// latency modes: `zero` (profiles scale-100 vs default: no pull or start latency, so every cost
// of the harness and the sim shows) and `realistic` (scale-100-realistic vs realistic: per-OS
// pull and container-start latencies time-scaled 1:30 from real clusters, where pod starts
// dominate a real node suite). Node-level checks visit every Windows node; what costs is bounded
// per node and run-wide (util/limiter.ts) and nothing waits node after node, so 50x the nodes
// must cost at most 2x the time.
//
// Each run on a fresh sim in its own process, the harness in another; the clock is the harness
// run's own (sim start and settle excluded, and measured apart). Per mode, REPEATS repeats in
// alternating order; the median of the per-repeat ratios is the mode's ratio. The verdict is the
// realistic mode's (see bench/README.md, 0b, for why); the zero-latency ratio is printed beside
// it, not hidden. Every verdict on 100 nodes must equal the one on 2, and no check may end as
// error.
//
//   npx tsx bench/node-scale.ts [--repeats N] [--modes zero,realistic]

import { makeClients } from '../lib/cluster/client.ts';
import { RUN_LABEL } from '../lib/labels.ts';
import type { ChildRun } from './result.ts';
import { apiRequestTotal } from './apiRequests.ts';
import { clusterSettled, kubeConfigOf, runHarnessChild, startSimProcess, tempDir } from './processes.ts';
import { argValue, fmtMs, loadAverage, median, report } from './support.ts';

const NAME = 'node-scale';
/** The goal: the node suite on 100 nodes takes at most twice its time on 2. */
const THRESHOLD = 2;
const MODES = {
  zero: { many: 'scale-100', few: 'default' },
  realistic: { many: 'scale-100-realistic', few: 'realistic' },
} as const;
type Mode = keyof typeof MODES;
/** The mode whose ratio is the verdict (bench/README.md 0b says why). */
const VERDICT_MODE: Mode = 'realistic';
const MANY_WINDOWS = 100;
const FEW_WINDOWS = 2;

const out = (l: string) => process.stdout.write(l + '\n');

interface SuiteRun {
  run: ChildRun;
  rssMB: number;
  requests: number;
  startMs: number;
  settleMs: number;
}

async function nodeSuite(profile: string, reports: string): Promise<SuiteRun> {
  const t0 = performance.now();
  const sim = await startSimProcess(profile, out);
  const startMs = performance.now() - t0;
  try {
    await clusterSettled(sim.kubeconfig, 300_000);
    const settleMs = performance.now() - t0;
    const kc = kubeConfigOf(sim.kubeconfig);
    const before = await apiRequestTotal(kc);
    const h = await runHarnessChild(['--kubeconfig', sim.kubeconfig, '--report-dir', reports, '--suite', 'node', 'full'], 15 * 60_000);
    const requests = (await apiRequestTotal(kc)) - before;
    const run = h.result.runs[0];
    // Nothing left behind: no namespace or pod of the run (some 200 pods on 100 nodes) after its cleanup.
    const kube = makeClients(kc);
    const left = [
      ...(await kube.core.listNamespace({ labelSelector: RUN_LABEL })).items.map(n => `namespace ${n.metadata?.name}`),
      ...(await kube.core.listPodForAllNamespaces({ labelSelector: RUN_LABEL })).items.map(p => `pod ${p.metadata?.namespace}/${p.metadata?.name}`),
    ];
    if (left.length) run.failures = [...(run.failures ?? []), `left behind after cleanup: ${left.length} object(s): ${left.slice(0, 5).join(', ')}`];
    // Checks that ended as error are named (a note, and the verdict fails) but the time still counts.
    if (run.code !== 0 && !run.failures?.length) throw new Error(`node suite on ${profile} exited ${run.code}: ${run.tail.join(' | ')}`);
    return { run, rssMB: h.peakRssKB / 1024, requests, startMs, settleMs };
  } finally {
    await sim.stop();
  }
}

const spread = (xs: number[]) => `${fmtMs(Math.min(...xs))}-${fmtMs(Math.max(...xs))}`;

async function main(): Promise<void> {
  const started = performance.now();
  const repeats = Number(argValue('--repeats') ?? 3);
  const modes = (argValue('--modes') ?? 'zero,realistic').split(',') as Mode[];
  for (const m of modes) if (!(m in MODES)) throw new Error(`--modes: unknown mode "${m}" (zero, realistic)`);
  out(
    `${NAME}: --suite node on ${MANY_WINDOWS} Windows nodes vs ${FEW_WINDOWS}; modes ${modes.join(', ')}; ${repeats} repeats each, alternating order; sim and harness in separate processes; load average ${loadAverage()}`,
  );
  const reports = tempDir('wincheck-bench-ns-');
  const failures: string[] = [];
  const notes: string[] = [];
  const measurements: Record<string, number> = {};
  const ratios: Partial<Record<Mode, number>> = {};
  try {
    for (const mode of modes) {
      const { many, few } = MODES[mode];
      const per: { many: SuiteRun[]; few: SuiteRun[]; ratios: number[] } = { many: [], few: [], ratios: [] };
      for (let i = 0; i < repeats; i++) {
        const order = i % 2 ? [many, few] : [few, many];
        const got: Record<string, SuiteRun> = {};
        for (const p of order) {
          got[p] = await nodeSuite(p, `${reports.path}/${mode}-${i}-${p}`);
          for (const f of got[p].run.failures ?? []) failures.push(`${mode} ${p} #${i + 1}: ${f}`);
        }
        const a = got[many],
          b = got[few];
        per.many.push(a);
        per.few.push(b);
        const ratio = a.run.wallMs / b.run.wallMs;
        per.ratios.push(ratio);
        // The same verdict on 100 nodes as on 2, feature by feature.
        for (const [id, outcome] of Object.entries(b.run.outcomes))
          if (a.run.outcomes[id] !== outcome)
            failures.push(`${mode} #${i + 1}: ${id} is ${a.run.outcomes[id] ?? 'missing'} on ${MANY_WINDOWS} nodes, ${outcome} on ${FEW_WINDOWS}`);
        out(
          `  ${mode} #${i + 1} (${order.join(' then ')}): ${MANY_WINDOWS} nodes ${fmtMs(a.run.wallMs)} ms, ${FEW_WINDOWS} nodes ${fmtMs(b.run.wallMs)} ms, ratio ${ratio.toFixed(2)}; API requests ${a.requests} vs ${b.requests}; load average ${loadAverage()}`,
        );
      }
      const m = median(per.ratios);
      ratios[mode] = m;
      const perNode = median(per.many.map((r, i) => (r.requests - per.few[i].requests) / (MANY_WINDOWS - FEW_WINDOWS)));
      out(
        `  ${mode}: ratio median ${m.toFixed(2)} (per repeat ${per.ratios.map(r => r.toFixed(2)).join(', ')}); ${MANY_WINDOWS} nodes ${fmtMs(median(per.many.map(r => r.run.wallMs)))} ms (${spread(per.many.map(r => r.run.wallMs))}), ${FEW_WINDOWS} nodes ${fmtMs(median(per.few.map(r => r.run.wallMs)))} ms (${spread(per.few.map(r => r.run.wallMs))}); API requests per extra Windows node ${perNode.toFixed(1)}; ${many} sim start ${fmtMs(median(per.many.map(r => r.startMs)))} ms, start+settle ${fmtMs(median(per.many.map(r => r.settleMs)))} ms; harness peak RSS on ${MANY_WINDOWS} nodes ${Math.max(...per.many.map(r => r.rssMB)).toFixed(0)} MB`,
      );
      Object.assign(measurements, {
        [`${mode}Nodes100`]: median(per.many.map(r => r.run.wallMs)),
        [`${mode}Nodes2`]: median(per.few.map(r => r.run.wallMs)),
        [`${mode}Ratio`]: m,
        [`${mode}RequestsPerNode`]: perNode,
        [`${mode}Start100`]: median(per.many.map(r => r.settleMs)),
        [`${mode}HarnessRssMB100`]: Math.max(...per.many.map(r => r.rssMB)),
      });
      if (mode !== VERDICT_MODE && m >= THRESHOLD)
        notes.push(`${mode} latencies: ratio ${m.toFixed(2)} (not the verdict's mode; shown so harness costs are not hidden behind latencies)`);
    }
  } finally {
    reports.remove();
  }
  const verdictMode = ratios[VERDICT_MODE] !== undefined ? VERDICT_MODE : modes[0];
  await report(
    {
      name: NAME,
      ratioOf: `node suite on ${MANY_WINDOWS} Windows nodes / on ${FEW_WINDOWS} (${verdictMode} latencies, median)`,
      ratio: ratios[verdictMode]!,
      threshold: THRESHOLD,
      measurements,
      repeats,
      notes: [...notes, ...failures],
      failures,
    },
    started,
  );
}

main().catch(e => {
  process.stderr.write(`${NAME}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
