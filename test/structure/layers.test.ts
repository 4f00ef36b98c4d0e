// The layers, drawn from the code's imports: an import may only go to the same or an earlier
// layer, the simulated cluster imports only util/, and there is no import circle inside lib/ nor
// inside sim/runtime/shell. Type-only imports count (a type pulls its module's layer with it).

import { expect } from 'chai';
import { circles, graphOf, importsOf, sourceFiles } from './imports.ts';

/** Ranks: a file may import files of its own rank or lower. */
const LAYERS: [rank: number, name: string, prefixes: string[]][] = [
  [0, 'util', ['util/']],
  [1, 'lib/facts', ['lib/facts/']],
  [2, 'lib/cluster, lib/config', ['lib/cluster/', 'lib/config/', 'lib/errors.ts', 'lib/labels.ts', 'lib/version.ts', 'lib/process.ts']],
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

/**
 * Imports that still run up the layers while the re-layout lands, each removed as its import
 * goes ("from → to"). Must shrink to empty.
 */
const ALLOWED_UPWARD: string[] = [
  'lib/cluster/exec.ts → lib/probes/types.ts',
  'lib/cluster/preflight.ts → lib/discovery/types.ts',
  'lib/facts/sources.ts → lib/version.ts',
];

/** Import circles inside lib/ still being broken (as `circles()` prints them). Must shrink to empty. */
const ALLOWED_LIB_CIRCLES: string[] = [];

/** The PowerShell interpreter's own circle (interp ↔ cmdlets, members), being broken. Must shrink to empty. */
const ALLOWED_SHELL_CIRCLES: string[] = [
  '5 files (sim/runtime/shell/ps/cmdlets.ts, sim/runtime/shell/ps/interp.ts, sim/runtime/shell/ps/members.ts, sim/runtime/shell/ps/netcmdlets.ts, sim/runtime/shell/ps/tcpclient.ts), e.g. sim/runtime/shell/ps/cmdlets.ts → sim/runtime/shell/ps/interp.ts → sim/runtime/shell/ps/cmdlets.ts',
];

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
    const found = upward;
    const unexpected = found.filter(u => !ALLOWED_UPWARD.includes(u));
    const stale = ALLOWED_UPWARD.filter(u => !found.includes(u));
    expect(
      unexpected,
      `imports that run up the layers (${found.length}):\n${unexpected.map(u => `  ${u} (${layerOf(u.split(' → ')[0])!.name} may not import ${layerOf(u.split(' → ')[1])?.name ?? 'outside the layers'})`).join('\n')}`,
    ).to.deep.equal([]);
    expect(stale, 'allow-listed imports that are gone: remove them from ALLOWED_UPWARD').to.deep.equal([]);
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
    const unexpected = found.filter(c => !ALLOWED_LIB_CIRCLES.includes(c));
    expect(unexpected, `import circles in lib/:\n${unexpected.join('\n')}`).to.deep.equal([]);
    const stale = ALLOWED_LIB_CIRCLES.filter(c => !found.includes(c));
    expect(stale, 'allow-listed circles that are gone: remove them from ALLOWED_LIB_CIRCLES').to.deep.equal([]);
  });

  it('none inside sim/runtime/shell', () => {
    const found = circles(graphOf(sourceFiles('sim/runtime/shell')));
    const unexpected = found.filter(c => !ALLOWED_SHELL_CIRCLES.includes(c));
    expect(unexpected, `import circles in sim/runtime/shell:\n${unexpected.join('\n')}`).to.deep.equal([]);
    const stale = ALLOWED_SHELL_CIRCLES.filter(c => !found.includes(c));
    expect(stale, 'allow-listed circles that are gone: remove them from ALLOWED_SHELL_CIRCLES').to.deep.equal([]);
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
