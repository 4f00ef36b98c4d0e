// Runs the benchmarks, each in its own process (a fresh event loop, so a leaked listener shows
// as that benchmark's failure), one after the other (they measure time: never two at once),
// then prints a table. Exit 1 when a ratio is outside its threshold or a benchmark failed.
//
//   npm run bench                       all of them
//   npx tsx bench/run.ts watch-vs-poll  only the named ones
//   npx tsx bench/run.ts --list         their names

import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULT_PREFIX, type BenchResult } from './result.ts';

/** Each is bench/<name>.ts. */
export const BENCHMARKS: readonly { name: string; what: string; timeoutMs?: number }[] = [
  { name: 'critical-path', what: 'full run vs its slowest feature alone vs the sequential baseline; API requests; harness peak RSS', timeoutMs: 60 * 60_000 },
  { name: 'node-scale', what: 'the node suite on 100 Windows nodes vs on 2', timeoutMs: 30 * 60_000 },
  {
    name: 'big',
    what: 'the whole catalog on the 500-node big profile vs mixed-build; requests per node, harness and sim RSS, largest response',
    timeoutMs: 30 * 60_000,
  },
  { name: 'sim-memory', what: "the sim's heap per Linux node, Windows node and background pod, each against its goal", timeoutMs: 15 * 60_000 },
  { name: 'parallel-deploy', what: 'a run of K features vs K runs of one feature (fixtures deployed up front, in parallel)' },
  { name: 'watch-vs-poll', what: "Ready → the harness's watch-based wait resolving vs a 1 s polling loop" },
  { name: 'api-overhead', what: 'list pods through the HTTPS API vs store.list in-process' },
];

/** A benchmark that has not exited by then (unless it names its own timeoutMs) is killed and reported (a hang is usually a leaked handle). */
const PER_BENCH_TIMEOUT_MS = 180_000;

const here = dirname(fileURLToPath(import.meta.url));
const out = (l: string) => process.stdout.write(l + '\n');

interface Outcome {
  name: string;
  result?: BenchResult;
  exitCode: number | null;
  error?: string;
  wallMs: number;
}

function runOne(name: string): Promise<Outcome> {
  const t0 = performance.now();
  const timeoutMs = BENCHMARKS.find(b => b.name === name)?.timeoutMs ?? PER_BENCH_TIMEOUT_MS;
  return new Promise(resolve => {
    // The same node and loader flags (tsx) this process runs with.
    const child = spawn(process.execPath, [...process.execArgv, join(here, `${name}.ts`)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let result: BenchResult | undefined;
    let buffer = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      buffer += d.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (line.startsWith(RESULT_PREFIX)) result = JSON.parse(line.slice(RESULT_PREFIX.length)) as BenchResult;
        else out(line);
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
      process.stderr.write(d);
    });
    child.on('close', code => {
      clearTimeout(timer);
      const wallMs = performance.now() - t0;
      const error = timedOut
        ? `killed after ${timeoutMs / 1000}s (hung: a leaked listener or watch?)`
        : !result
          ? `exited ${code} without a result${stderr ? `: ${stderr.trim().split('\n').slice(-1)[0]}` : ''}`
          : undefined;
      resolve({ name, result, exitCode: code, error, wallMs });
    });
  });
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

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toFixed(3));

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--list')) {
    for (const b of BENCHMARKS) out(`${b.name.padEnd(16)} ${b.what}`);
    return 0;
  }
  const known = BENCHMARKS.map(b => b.name as string);
  const unknown = argv.filter(a => !known.includes(a));
  if (unknown.length) {
    process.stderr.write(`unknown benchmark(s): ${unknown.join(', ')}; known: ${known.join(', ')}\n`);
    return 2;
  }
  const names = argv.length ? argv : known;
  const outcomes: Outcome[] = [];
  for (const name of names) {
    out(`\n=== ${name}`);
    outcomes.push(await runOne(name));
  }
  const rows = [['benchmark', 'measurements (median, ms)', 'ratio', 'threshold', 'verdict', 'wall']];
  for (const o of outcomes) {
    const r = o.result;
    const ok = !!r?.ok && o.exitCode === 0;
    rows.push([
      o.name,
      r
        ? Object.entries(r.measurements)
            .map(([k, v]) => `${k} ${fmt(v)}`)
            .join(', ')
        : (o.error ?? ''),
      r ? r.ratio.toFixed(3) : '-',
      r ? `< ${r.threshold}` : '-',
      ok ? 'ok' : 'FAIL',
      `${(o.wallMs / 1000).toFixed(1)}s`,
    ]);
  }
  out('');
  for (const l of table(rows)) out(l);
  return outcomes.every(o => o.result?.ok && o.exitCode === 0) ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
