// Smoke test of the benchmark runner: it lists the benchmarks. No timing here: the
// benchmarks themselves run with `npm run bench`, never under `npm test`.

import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';

const ROOT = resolve(import.meta.dirname, '../..');
const NAMES = ['critical-path', 'node-scale', 'big', 'sim-memory', 'parallel-deploy', 'watch-vs-poll', 'api-overhead'];

describe('bench/run.ts --list', () => {
  it('names the benchmarks, each with its script', async () => {
    const r = await execa(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/run.ts'), '--list'], { cwd: ROOT, reject: false });
    expect(r.exitCode, String(r.stderr)).to.equal(0);
    const listed = String(r.stdout)
      .split('\n')
      .filter(Boolean)
      .map(l => l.split(/\s+/)[0]);
    expect(listed).to.deep.equal(NAMES);
    for (const n of NAMES) expect(existsSync(join(ROOT, 'bench', `${n}.ts`)), `bench/${n}.ts`).to.equal(true);
  });
});

describe("bench/runLines.ts: a run read from outside (the installed bin's console and results.json)", () => {
  const lines = [
    'Created namespace wincheck-abc.',
    'Deploying 3 fixture(s): net-win, hpa, iis.',
    'Pre-pulled 2/2 image(s) in 0.5s.',
    '[ 1/3] work.hpa                 supported  (0.3s)',
    '[ 2/3] net.w2l                  regressed  (12.0s)  no pass within the 30s warm-up',
    '[ 3/3] net.session-affinity     limited    (14.0s)',
    'Deleting namespace wincheck-abc...',
  ];

  it('marks the timeline once per step (the last check: the latest), outcomes and failures per check', async () => {
    const { addMark, failuresOf, outcomesOf } = await import('../../bench/runLines.ts');
    const marks: Record<string, number> = {};
    lines.forEach((l, i) => addMark(marks, l, i * 100));
    expect(marks).to.deep.equal({ namespace: 0, deploying: 100, prepulled: 200, firstCheck: 300, lastCheck: 500, cleanup: 600 });
    expect(outcomesOf(lines)).to.deep.equal({ 'work.hpa': 'supported', 'net.w2l': 'regressed', 'net.session-affinity': 'limited' });
    expect(failuresOf(lines)).to.deep.equal([lines[4]]);
  });

  it('per-build instances keep their build in the key, and their failures are found', async () => {
    const { failuresOf, outcomesOf } = await import('../../bench/runLines.ts');
    const perBuild = ['[ 1/2] net.w2l [ltsc2019]  supported  (1.0s)', '[ 2/2] net.w2l [ltsc2022]  error  (2.0s)  pull failed'];
    expect(outcomesOf(perBuild)).to.deep.equal({ 'net.w2l [ltsc2019]': 'supported', 'net.w2l [ltsc2022]': 'error' });
    expect(failuresOf(perBuild)).to.deep.equal([perBuild[1]]);
  });

  it("each check's span, from results.json, ms from the run's start", async () => {
    const { checkSpans } = await import('../../bench/runLines.ts');
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    const spans = checkSpans(
      {
        run: { startedAt: '2026-01-01T00:00:00.000Z' },
        summary: {
          durationMs: 20_000,
          results: [
            { id: 'a', startedAt: '2026-01-01T00:00:01.500Z', durationMs: 12_000 },
            { id: 'n/a-one', durationMs: 0 },
          ],
        },
      },
      start,
    );
    expect(spans).to.deep.equal({ a: [1_500, 13_500] });
    expect(checkSpans(undefined, start)).to.equal(undefined);
  });
});
