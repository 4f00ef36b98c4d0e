// The wincheck version (package.json) and the version of the results.json schema: every report
// carries both, so a merged or archived report says which harness and which format made it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../util/paths.ts';

/**
 * Bumped when a field of results.json is renamed, removed or changes meaning (adding one is
 * compatible). `wincheck report merge` and `--rerun-failed` refuse a newer major.
 */
export const RESULTS_SCHEMA_VERSION = '2';
// 2: a per-build result's `id` is the feature ID and its Windows build is `build` ("ltsc2022");
//    schema 1 wrote both in `id` ("iso.hostprocess [ltsc2022]"). Both are read.

/** package.json's version, from the package root util/paths.ts finds (source or built JS alike). */
export const WINCHECK_VERSION: string = readPackageVersion();

function readPackageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'wincheck' && pkg.version) return pkg.version;
  } catch {
    /* no package.json beside the code: an unpacked copy */
  }
  return 'unknown';
}
