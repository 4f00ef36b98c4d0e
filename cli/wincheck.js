#!/usr/bin/env -S node --max-semi-space-size=2
// The npm bin shim. Runs the build in dist/ (plain JS, `npm run build`, done by `prepare` on
// npm install) when no source is newer than it: `wincheck --help` then answers without tsx
// compiling anything. Otherwise (a fresh edit, no build) it registers tsx and runs the
// TypeScript. Both in this process: signals sent to this pid reach the harness itself
// (cli/launcher.ts covers npx's own). --max-semi-space-size=2 (MB): a small young generation
// keeps the harness's peak RSS about 50 MB lower (bench/critical-path.ts measures it); the
// harness waits far more than it computes.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', 'BUILT');

/** Newest mtime of the sources dist/ is built from (a few hundred stats: milliseconds). */
function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (/\.(ts|yaml|proto)$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function buildIsFresh() {
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  return ['cli', 'lib', 'sim', 'util'].every(d => !existsSync(join(root, d)) || newestSource(join(root, d)) <= built);
}

if (process.env.WINCHECK_FROM_SOURCE !== '1' && buildIsFresh()) {
  await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('./main.ts');
}
