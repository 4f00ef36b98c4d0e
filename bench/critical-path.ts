// critical-path: is a full run as short as its slowest feature? Per profile (default, and
// realistic: time-scaled pull and container start latencies), side by side:
//   - the full run's wall time, on a fresh sim;
//   - the slowest feature alone: the 3 slowest features of the sequential baseline, each run
//     alone on a fresh sim, the slowest of them (the full run is gated by it);
//   - their ratio (goal <= 1.10, issue 19);
//   - the sequential baseline: one run per feature, one after another, on one sim (deploy, wait,
//     probe, delete per feature, as the upstream e2e anchors run), and our speed-up over it (goal >= 5);
//   - API requests of the full run (the API server's apiserver_request_total, before/after);
//   - the harness's own peak RSS in the full run, the sim being another process (goal <= 200 MB).
// The sim and the harness are separate processes (bench/processes.ts).
//
//   npx tsx bench/critical-path.ts                       both profiles
//   npx tsx bench/critical-path.ts --profiles default    one
//   npx tsx bench/critical-path.ts --harness tsx         the runs timed alone and the full run through
//       bench/harness-child.ts under the tsx loader (the default is the installed bin, as users run it)
//   npx tsx bench/critical-path.ts --candidates net.pod-to-clusterip,work.hpa
//       while iterating: no sequential baseline (most of the time); the named features are timed
//       alone instead of the baseline's slowest. No speed-up and no verdict comparison, so the
//       benchmark's verdict is FAIL (partial); the full mode is the verdict.

import { apiRequestTotal } from './apiRequests.ts';
import type { ChildRun } from './result.ts';
import {
  buildDist,
  clusterSettled,
  kubeConfigOf,
  runHarnessChild,
  runWincheckBin,
  startSimProcess,
  tempDir,
  type HarnessOutcome,
  type SimProcess,
} from './processes.ts';
import { fmtMs, report } from './support.ts';

const NAME = 'critical-path';
const RATIO_GOAL = 1.1;
const SPEEDUP_GOAL = 5;
const RSS_GOAL_MB = 200;
/** Features of the sequential baseline re-run alone on a fresh sim to find the slowest. */
const CANDIDATES = 3;
const RUN_TIMEOUT_MS = 15 * 60_000;

const out = (l: string) => process.stdout.write(l + '\n');

interface ProfileFigures {
  profile: string;
  fullMs: number;
  slowestAloneMs: number;
  slowestFeature: string;
  ratio: number;
  sequentialMs: number;
  speedup: number;
  apiRequests: number;
  rssMB: number;
  candidates: { id: string; ms: number }[];
  mismatches: string[];
}

/** "12.3-27.0" seconds into the run, for a check's span. */
const spanText = (s: [number, number] | undefined) => (s ? `${(s[0] / 1000).toFixed(1)}-${(s[1] / 1000).toFixed(1)} s` : 'not seen');

async function withSim<T>(profile: string, fn: (sim: SimProcess) => Promise<T>): Promise<T> {
  const sim = await startSimProcess(profile, out);
  try {
    await clusterSettled(sim.kubeconfig);
    return await fn(sim);
  } finally {
    await sim.stop();
  }
}

function childArgs(sim: SimProcess, reports: string): string[] {
  return ['--kubeconfig', sim.kubeconfig, '--report-dir', reports, ...(sim.egressUrl ? ['--egress-url', sim.egressUrl] : [])];
}

/** How the runs timed alone and the full run are made: the installed bin (dist/, as users run it) or harness-child.ts under tsx. */
type HarnessForm = 'bin' | 'tsx';

function timedRun(form: HarnessForm, sim: SimProcess, reports: string, features: string[]): Promise<HarnessOutcome> {
  return form === 'bin'
    ? runWincheckBin([...childArgs(sim, reports), ...features.flatMap(f => ['--feature', f])], RUN_TIMEOUT_MS)
    : runHarnessChild([...childArgs(sim, reports), 'full', ...features], RUN_TIMEOUT_MS);
}

function failedRun(r: ChildRun): string | undefined {
  return r.code === 0
    ? undefined
    : `run of ${r.features.length === 1 ? r.features[0] : `${r.features.length} features`} exited ${r.code}: ${r.tail.join(' | ')}`;
}

async function measure(profile: string, form: HarnessForm, named?: string[]): Promise<ProfileFigures> {
  const reports = tempDir('wincheck-bench-cp-');
  try {
    // 1. Sequential baseline on one sim (its image cache warms as it goes, as on a real cluster).
    let seq: { runs: ChildRun[] } | undefined;
    let ids = named ?? [];
    if (!named) {
      out(`  ${profile}: sequential baseline (one run per feature)...`);
      seq = await withSim(profile, async sim => (await runHarnessChild([...childArgs(sim, `${reports.path}/seq`), 'sequential'], 60 * 60_000)).result);
      const seqFailed = seq.runs.map(failedRun).filter(Boolean);
      if (seqFailed.length) throw new Error(seqFailed[0]);
      const bySlowness = [...seq.runs].sort((a, b) => b.wallMs - a.wallMs);
      out(
        `    ${seq.runs.length} runs, ${fmtMs(seq.runs.reduce((a, r) => a + r.wallMs, 0))} ms; slowest: ${bySlowness
          .slice(0, 5)
          .map(r => `${r.features[0]} ${fmtMs(r.wallMs)}`)
          .join(', ')}`,
      );
      ids = bySlowness.slice(0, CANDIDATES).map(r => r.features[0]);
    } else out(`  ${profile}: no sequential baseline (--candidates ${named.join(',')})`);
    const sequentialMs = seq ? seq.runs.reduce((a, r) => a + r.wallMs, 0) : NaN;

    // 2. The slowest few alone, each on a fresh sim (cold caches, as the full run has).
    const candidates: { id: string; ms: number; span?: [number, number] }[] = [];
    for (const id of ids) {
      const alone = await withSim(profile, async sim => (await timedRun(form, sim, `${reports.path}/alone-${id}`, [id])).result.runs[0]);
      const failed = failedRun(alone);
      if (failed) throw new Error(failed);
      candidates.push({ id, ms: alone.wallMs, span: alone.checks?.[id] });
      out(
        `    alone on a fresh sim: ${id} ${fmtMs(alone.wallMs)} ms (its check ${spanText(alone.checks?.[id])}; ${Object.entries(alone.marks ?? {})
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')})`,
      );
    }
    const slowest = candidates.reduce((a, b) => (b.ms > a.ms ? b : a));

    // 3. The full run on a fresh sim: wall time, API requests, the harness's peak RSS.
    const full = await withSim(profile, async sim => {
      const kc = kubeConfigOf(sim.kubeconfig);
      const before = await apiRequestTotal(kc);
      const h = await timedRun(form, sim, `${reports.path}/full`, []);
      const after = await apiRequestTotal(kc);
      return { run: h.result.runs[0], requests: after - before, rssKB: h.peakRssKB };
    });
    const failed = failedRun(full.run);
    if (failed) throw new Error(failed);
    // The same verdicts either way: speed must not change what is seen.
    const mismatches = (seq?.runs ?? []).flatMap(r =>
      Object.entries(r.outcomes)
        .filter(([id, o]) => full.run.outcomes[id] !== o)
        .map(([id, o]) => `${id}: alone ${o}, full run ${full.run.outcomes[id] ?? 'missing'}`),
    );
    out(`    full run: ${fmtMs(full.run.wallMs)} ms, ${full.requests} API requests, harness peak RSS ${(full.rssKB / 1024).toFixed(0)} MB`);
    out(
      `    full run timeline (ms): ${Object.entries(full.run.marks ?? {})
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    // Where a candidate lost time in the full run: a later start (fixtures, pulls) or a longer check (contention).
    for (const c of candidates) out(`    ${c.id}: its check alone ${spanText(c.span)}, in the full run ${spanText(full.run.checks?.[c.id])}`);
    const last = Object.entries(full.run.checks ?? {})
      .sort((a, b) => b[1][1] - a[1][1])
      .slice(0, 5);
    out(`    last checks to end in the full run: ${last.map(([id, sp]) => `${id} ${spanText(sp)}`).join(', ')}`);
    return {
      profile,
      fullMs: full.run.wallMs,
      slowestAloneMs: slowest.ms,
      slowestFeature: slowest.id,
      ratio: full.run.wallMs / slowest.ms,
      sequentialMs,
      speedup: sequentialMs / full.run.wallMs,
      apiRequests: full.requests,
      rssMB: full.rssKB / 1024,
      candidates,
      mismatches,
    };
  } finally {
    reports.remove();
  }
}

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map(r => r[i].length)));
  return rows.map(r =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
}

async function main(argv: string[]): Promise<void> {
  const started = performance.now();
  const i = argv.indexOf('--profiles');
  const profiles = i >= 0 ? argv[i + 1].split(',') : ['default', 'realistic'];
  const c = argv.indexOf('--candidates');
  const named = c >= 0 ? argv[c + 1]?.split(',').filter(Boolean) : undefined;
  if (named && !named.length) throw new Error('--candidates needs feature ids, comma-separated');
  const h = argv.indexOf('--harness');
  const form = (h >= 0 ? argv[h + 1] : 'bin') as HarnessForm;
  if (form !== 'bin' && form !== 'tsx') throw new Error(`--harness is bin or tsx, not ${String(form)}`);
  // The bin runs dist/ only when it is at least as new as the sources: build it, as npm install does.
  if (form === 'bin') buildDist();
  out(
    `${NAME}: full run vs its slowest feature alone vs the sequential baseline; profiles ${profiles.join(', ')}; sim and harness in separate processes; runs timed ${form === 'bin' ? 'through the installed bin (cli/wincheck.js running dist/)' : 'in bench/harness-child.ts under the tsx loader'}`,
  );
  const figures: ProfileFigures[] = [];
  for (const p of profiles) figures.push(await measure(p, form, named));

  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  out('');
  for (const l of table([
    ['profile', 'full run', 'slowest feature alone', 'ratio', 'sequential baseline', 'speed-up', 'API requests', 'harness peak RSS'],
    ...figures.map(f => [
      f.profile,
      s(f.fullMs),
      `${s(f.slowestAloneMs)} (${f.slowestFeature})`,
      f.ratio.toFixed(2),
      named ? 'skipped' : s(f.sequentialMs),
      named ? '-' : `${f.speedup.toFixed(1)}x`,
      String(f.apiRequests),
      `${f.rssMB.toFixed(0)} MB`,
    ]),
    ['goal', '', '', `<= ${RATIO_GOAL}`, '', `>= ${SPEEDUP_GOAL}x`, '', `<= ${RSS_GOAL_MB} MB`],
  ]))
    out(l);

  const notes: string[] = [];
  if (named) notes.push('partial (--candidates): no sequential baseline, so no speed-up and no verdict comparison; the full mode is the verdict');
  for (const f of figures) {
    if (!named && f.speedup < SPEEDUP_GOAL) notes.push(`${f.profile}: speed-up ${f.speedup.toFixed(1)}x is below the goal of ${SPEEDUP_GOAL}x`);
    if (f.rssMB > RSS_GOAL_MB) notes.push(`${f.profile}: harness peak RSS ${f.rssMB.toFixed(0)} MB is above the goal of ${RSS_GOAL_MB} MB`);
    for (const m of f.mismatches) notes.push(`${f.profile}: verdict differs between the full run and the feature alone: ${m}`);
  }
  const measurements: Record<string, number> = {};
  for (const f of figures)
    Object.assign(measurements, {
      [`${f.profile}.full`]: f.fullMs,
      [`${f.profile}.slowestAlone`]: f.slowestAloneMs,
      ...(named ? {} : { [`${f.profile}.sequential`]: f.sequentialMs, [`${f.profile}.speedup`]: f.speedup }),
      [`${f.profile}.apiRequests`]: f.apiRequests,
      [`${f.profile}.rssMB`]: f.rssMB,
    });
  await report(
    {
      name: NAME,
      ratioOf: 'full run / slowest feature alone (worst profile)',
      ratio: Math.max(...figures.map(f => f.ratio)),
      threshold: RATIO_GOAL,
      measurements,
      repeats: 1,
      notes,
      failures: notes,
    },
    started,
  );
}

main(process.argv.slice(2)).catch(e => {
  process.stderr.write(`${NAME}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
