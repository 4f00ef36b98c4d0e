// Smoke test of the benchmark runner: it lists the benchmarks. No timing here: the
// benchmarks themselves run with `npm run bench`, never under `npm test`.

import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execa } from 'execa';

const ROOT = resolve(import.meta.dirname, '..');
const NAMES = ['critical-path', 'node-scale', 'parallel-deploy', 'watch-vs-poll', 'api-overhead'];

describe('bench/run.ts --list', () => {
  it('names the benchmarks, each with its script', async () => {
    const r = await execa(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/run.ts'), '--list'], { cwd: ROOT, reject: false });
    expect(r.exitCode, String(r.stderr)).to.equal(0);
    const listed = String(r.stdout).split('\n').filter(Boolean).map(l => l.split(/\s+/)[0]);
    expect(listed).to.deep.equal(NAMES);
    for (const n of NAMES) expect(existsSync(join(ROOT, 'bench', `${n}.ts`)), `bench/${n}.ts`).to.equal(true);
  });
});
