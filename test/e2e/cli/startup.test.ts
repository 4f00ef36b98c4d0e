// The command line starts fast: `wincheck --help` and `wincheck list` run the JS build (dist/,
// made by `prepare` on npm install) and load neither @kubernetes/client-node nor the catalog's
// feature modules. Checked by structure, not by the clock (timings belong in bench/): the static
// import graph of cli/main.ts, and the build's output agreeing with the sources'.

import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { ROOT, wincheck } from '../../support/cli.ts';

/** Static (non-type, non-dynamic) imports of a module, resolved: relative ones to files, others as package names. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^import\s+(?!type\b)(?:[^'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)].map(m => m[1]);
  return specs.map(s => (s.startsWith('.') ? resolve(dirname(file), s) : s));
}

/** Every module reachable from `entry` through static imports. */
function staticGraph(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    if (f.startsWith('/') && f.endsWith('.ts') && existsSync(f)) todo.push(...staticImports(f));
  }
  return seen;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : /\.(ts|yaml|proto)$/.test(e.name) ? statSync(p).mtimeMs : 0);
  }
  return newest;
}

describe('fast command line', function () {
  this.timeout(120_000);

  it('cli/main.ts reaches neither @kubernetes/client-node nor a catalog feature module by static imports', () => {
    const graph = [...staticGraph(join(ROOT, 'cli/main.ts'))];
    expect(graph.filter(m => m.startsWith('@kubernetes/client-node') || m.startsWith('kubernetes-models'))).to.deep.equal([]);
    expect(graph.filter(m => m.includes('/lib/catalog/features/') || m.endsWith('/lib/run/run.ts'))).to.deep.equal([]);
    // And the check can fail: the run module does reach the client.
    expect([...staticGraph(join(ROOT, 'lib/run/run.ts'))].some(m => m.startsWith('@kubernetes/client-node'))).to.equal(true);
  });

  it('the bin runs the build when it is fresh, and the build lists what the sources list', async function () {
    const stamp = join(ROOT, 'dist/BUILT');
    const fresh = existsSync(stamp) && ['cli', 'lib', 'sim', 'util'].every(d => newestMtime(join(ROOT, d)) <= statSync(stamp).mtimeMs);
    if (!fresh) {
      console.log('    (skipped: dist/ is missing or older than the sources; npm install or npm run build makes it)');
      this.skip();
    }
    const bin = await execa(process.execPath, [join(ROOT, 'cli/wincheck.js'), 'list', '-o', 'json'], { cwd: ROOT, reject: false });
    const source = await wincheck(['list', '-o', 'json']);
    expect(bin.exitCode, String(bin.stderr)).to.equal(0);
    expect(JSON.parse(String(bin.stdout))).to.deep.equal(JSON.parse(source.stdout));
    expect(existsSync(join(ROOT, 'dist/lib/catalog/catalog-index.json')), 'the build writes the catalog index list reads').to.equal(true);
    const help = await execa(process.execPath, [join(ROOT, 'cli/wincheck.js'), '--help'], { cwd: ROOT, reject: false });
    expect(String(help.stdout)).to.contain('Usage: wincheck');
  });
});
