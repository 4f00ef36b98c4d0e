// The hard boundary of DESIGN.md: the simulated cluster and the harness never import
// each other; only the CLI wiring and the tests touch both. Type-only imports count
// too (a shared type would let a sim fact leak into the harness).

import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  const abs = join(ROOT, dir);
  let out: string[] = [];
  for (const name of readdirSync(abs)) {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) out = out.concat(sourceFiles(relative(ROOT, p)));
    else if (/\.(ts|js|mjs)$/.test(name)) out.push(p);
  }
  return out;
}

/** Top-level folders a file imports from, resolved from its relative import specifiers. */
function importedFolders(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const specs = [...src.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)]
    .map(m => m[1] ?? m[2]).filter(s => s.startsWith('.'));
  return specs.map(s => relative(ROOT, resolve(dirname(file), s)).split('/')[0]);
}

const RULES: { from: string[]; forbidden: string[] }[] = [
  { from: ['sim'], forbidden: ['lib', 'suites', 'cli', 'fixtures'] },
  { from: ['lib', 'suites'], forbidden: ['sim'] },
  { from: ['util'], forbidden: ['sim', 'lib', 'suites', 'cli'] },
];

describe('folder boundaries', () => {
  for (const rule of RULES) {
    for (const from of rule.from) {
      it(`${from}/ imports nothing from ${rule.forbidden.join(', ')}`, () => {
        const violations: string[] = [];
        let files: string[] = [];
        try { files = sourceFiles(from); } catch { /* folder absent */ }
        for (const f of files) {
          for (const target of importedFolders(f)) {
            if (rule.forbidden.includes(target)) violations.push(`${relative(ROOT, f)} imports from ${target}/`);
          }
        }
        expect(violations, violations.join('\n')).to.deep.equal([]);
      });
    }
  }
});
