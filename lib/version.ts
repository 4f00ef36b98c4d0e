// The wincheck version (package.json) and the version of the results.json schema: every report
// carries both, so a merged or archived report says which harness and which format made it.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Bumped when a field of results.json is renamed, removed or changes meaning (adding one is
 * compatible). `wincheck report merge` and `--rerun-failed` refuse a newer major.
 */
export const RESULTS_SCHEMA_VERSION = '1';

/** package.json's version, found by walking up from this module (source or built JS alike). */
export const WINCHECK_VERSION: string = readPackageVersion();

function readPackageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'wincheck' && pkg.version) return pkg.version;
    }
    dir = dirname(dir);
  }
  return 'unknown';
}
