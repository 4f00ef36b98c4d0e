// The layers, drawn from the code's imports: an import may only go to the same or an earlier
// layer, the simulated cluster imports only util/, and there is no import circle inside lib/ nor
// inside sim/runtime/shell. Type-only imports count (a type pulls its module's layer with it).

import { expect } from 'chai';
import { circles, graphOf, importsOf, sourceFiles } from './imports.ts';

/** Ranks: a file may import files of its own rank or lower. */
const LAYERS: [rank: number, name: string, prefixes: string[]][] = [
  [0, 'util', ['util/']],
  [1, 'lib/facts', ['lib/facts/']],
  [2, 'lib/cluster, lib/config', ['lib/cluster/', 'lib/config/', 'lib/errors.ts', 'lib/labels.ts', 'lib/process.ts']],
  [3, 'lib/discovery', ['lib/discovery/']],
  [4, 'lib/probes, lib/fixtures, lib/transports', ['lib/probes/', 'lib/fixtures/', 'lib/transports/']],
  [5, 'lib/catalog', ['lib/catalog/']],
  [6, 'lib/run', ['lib/run/']],
  [7, 'lib/report', ['lib/report/']],
  [8, 'cli', ['cli/']],
];

function layerOf(file: string): { rank: number; name: string } | undefined {
  for (const [rank, name, prefixes] of LAYERS) if (prefixes.some(p => (p.endsWith('/') ? file.startsWith(p) : file === p))) return { rank, name };
  return undefined;
}

describe('layers', () => {
  it('every file of util/, lib/ and cli/ sits in a layer', () => {
    const unplaced = [...sourceFiles('util'), ...sourceFiles('lib'), ...sourceFiles('cli')].filter(f => !layerOf(f));
    expect(unplaced, `files in no layer (add them to a layer folder):\n${unplaced.join('\n')}`).to.deep.equal([]);
  });

  it('no import runs up the layers (util → lib/facts → lib/cluster, lib/config → lib/discovery → lib/probes, lib/fixtures, lib/transports → lib/catalog → lib/run → lib/report → cli)', () => {
    const upward: string[] = [];
    for (const file of [...sourceFiles('util'), ...sourceFiles('lib'), ...sourceFiles('cli')]) {
      const from = layerOf(file);
      if (!from) continue;
      for (const target of importsOf(file)) {
        // The bin shim (cli/wincheck.js) loads the build of this same tree: dist/ mirrors the sources.
        if (target.startsWith('dist/')) continue;
        const to = layerOf(target);
        if (to && to.rank > from.rank) upward.push(`${file} → ${target}`);
        if (!to && !target.startsWith('util/')) upward.push(`${file} → ${target}`);
      }
    }
    expect(
      upward,
      `imports that run up the layers (${upward.length}):\n${upward.map(u => `  ${u} (${layerOf(u.split(' → ')[0])!.name} may not import ${layerOf(u.split(' → ')[1])?.name ?? 'outside the layers'})`).join('\n')}`,
    ).to.deep.equal([]);
  });

  it('sim/ imports only sim/ and util/', () => {
    const out: string[] = [];
    for (const file of sourceFiles('sim'))
      for (const target of importsOf(file)) if (!target.startsWith('sim/') && !target.startsWith('util/')) out.push(`${file} → ${target}`);
    expect(out, `sim/ imports outside sim/ and util/:\n${out.join('\n')}`).to.deep.equal([]);
  });

  it('util/ imports only util/', () => {
    const out: string[] = [];
    for (const file of sourceFiles('util')) for (const target of importsOf(file)) if (!target.startsWith('util/')) out.push(`${file} → ${target}`);
    expect(out, out.join('\n')).to.deep.equal([]);
  });
});

describe('import circles', () => {
  it('none inside lib/', () => {
    const found = circles(graphOf(sourceFiles('lib')));
    expect(found, `import circles in lib/:\n${found.join('\n')}`).to.deep.equal([]);
  });

  it('none inside sim/runtime/shell', () => {
    const found = circles(graphOf(sourceFiles('sim/runtime/shell')));
    expect(found, `import circles in sim/runtime/shell:\n${found.join('\n')}`).to.deep.equal([]);
  });

  it('the circle finder finds a circle of type-only imports', () => {
    const g = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(g)).to.deep.equal(['3 files (a.ts, b.ts, c.ts), e.g. a.ts → b.ts → c.ts → a.ts']);
  });
});
