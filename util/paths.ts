// Where the running code is, from the one place that knows both layouts: the sources run by tsx
// (<package>/util/paths.ts) and the build run by the bin (<package>/dist/util/paths.js).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** ".ts" from the sources (tsx: npm test), ".js" from the build in dist/: the extension of modules loaded by path. */
export const MODULE_EXT: '.ts' | '.js' = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/** The top of the code tree that is running: the package root for the sources, <package>/dist for the build. */
export const CODE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The package root (the folder of wincheck's package.json), in either layout. */
export const PACKAGE_ROOT = findPackageRoot(CODE_ROOT);

/** A module of the running tree by its source path ("sim/index.ts"), with the running extension. */
export function codeModule(sourcePath: string): string {
  return join(CODE_ROOT, sourcePath.replace(/\.ts$/, MODULE_EXT));
}

/**
 * Node's arguments that start this same tree's command line: `dist/cli/main.js` from the build,
 * `--import tsx cli/main.ts` from the sources (not the bin shim, which picks by freshness).
 */
export function cliArgv(): string[] {
  const main = codeModule('cli/main.ts');
  return MODULE_EXT === '.ts' ? ['--import', 'tsx', main] : [main];
}

function findPackageRoot(from: string): string {
  for (let dir = from, i = 0; i < 4; i++, dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'wincheck') return dir;
  }
  return from;
}
