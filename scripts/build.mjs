#!/usr/bin/env node
// `npm run build` (and `prepare`, so `npm install`/`npm ci` run it): the harness, suites and
// sim compiled to plain JS in dist/ by tsc, plus the files they read at run time (fixture
// templates, sim profiles, the OpenAPI proto). cli/wincheck.js runs dist/ when it is at least
// as new as the sources, else the TypeScript through tsx, so a stale build is never used.

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
// --tolerant (the prepare step): a failed build must not fail `npm install`; without dist/BUILT
// the bin simply runs the TypeScript through tsx.
const tolerant = process.argv.includes('--tolerant');
rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });
} catch (e) {
  if (!tolerant) throw e;
  console.error('note: the JS build failed; the wincheck bin will run the TypeScript through tsx (slower to start).');
  process.exit(0);
}
// Fixture templates sit beside the features that declare them (lib/catalog/<prefix>/fixtures/).
const fixtureDirs = [
  'lib/fixtures/templates',
  ...readdirSync(join(root, 'lib/catalog'), { withFileTypes: true })
    .filter(d => d.isDirectory() && existsSync(join(root, 'lib/catalog', d.name, 'fixtures')))
    .map(d => `lib/catalog/${d.name}/fixtures`),
];
const assets = [
  ...fixtureDirs.map(d => [d, d]),
  ['sim/profiles/builtin', 'sim/profiles/builtin'],
  ['sim/api/openapi/openapiv2.proto', 'sim/api/openapi/openapiv2.proto'],
];
for (const [from, to] of assets) {
  mkdirSync(dirname(join(dist, to)), { recursive: true });
  cpSync(join(root, from), join(dist, to), { recursive: true });
}
// `wincheck list` reads the catalog's entries from here instead of loading every feature module.
const { loadCatalog } = await import(join(dist, 'lib/catalog/registry.js'));
const { catalogEntries, CATALOG_INDEX } = await import(join(dist, 'lib/catalog/listing.js'));
writeFileSync(CATALOG_INDEX, JSON.stringify(catalogEntries(await loadCatalog())));
// Written last: its mtime is what the bin shim compares the sources with.
writeFileSync(join(dist, 'BUILT'), `${new Date().toISOString()}\n`);
