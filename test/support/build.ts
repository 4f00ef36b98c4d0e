// The JS build in dist/ as the bin runs it: made (npm run build) when missing or older than the
// sources, with the same freshness rule as cli/wincheck.js.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { ROOT } from './cli.ts';

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : /\.(ts|yaml|proto)$/.test(e.name) ? statSync(p).mtimeMs : 0);
  }
  return newest;
}

export function buildIsFresh(): boolean {
  const stamp = join(ROOT, 'dist/BUILT');
  return existsSync(stamp) && ['cli', 'lib', 'sim', 'util'].every(d => newestSource(join(ROOT, d)) <= statSync(stamp).mtimeMs);
}

/** Runs `npm run build` unless dist/ is fresh; throws with the build's output when it fails. */
export async function ensureBuilt(): Promise<void> {
  if (buildIsFresh()) return;
  const r = await execa(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, reject: false, all: true });
  if (r.exitCode !== 0 || !buildIsFresh()) throw new Error(`npm run build failed (exit ${r.exitCode}):\n${String(r.all)}`);
}
