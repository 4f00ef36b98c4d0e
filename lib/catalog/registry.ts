// The catalog: every file in ./features/ exports `features: Feature[]`. Loading the folder
// (rather than importing each file here) keeps adding an area a one-file change.

import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MODULE_EXT } from '../moduleExt.ts';
import type { Area, Feature } from './types.ts';

const featuresDir = join(dirname(fileURLToPath(import.meta.url)), 'features');
const AREA_ORDER: Area[] = ['scheduling', 'workloads', 'config', 'storage', 'resources', 'isolation', 'security', 'networking', 'node'];
const ID = /^[a-z]+\.[a-z0-9-]+$/;

let cached: Feature[] | undefined;

export async function loadCatalog(dir = featuresDir): Promise<Feature[]> {
  if (cached && dir === featuresDir) return cached;
  const files = readdirSync(dir).filter(f => f.endsWith(MODULE_EXT) && !f.endsWith('.d.ts') && !f.startsWith('_')).sort();
  const all: Feature[] = [];
  for (const file of files) {
    const mod = await import(pathToFileURL(join(dir, file)).href) as { features?: Feature[] };
    if (!Array.isArray(mod.features))
      throw new Error(`catalog file ${file} must export "features: Feature[]"`);
    all.push(...mod.features);
  }
  checkCatalog(all);
  // FEATURES.md order of areas, each area's features in file order.
  all.sort((a, b) => AREA_ORDER.indexOf(a.area) - AREA_ORDER.indexOf(b.area));
  if (dir === featuresDir) cached = all;
  return all;
}

/** Duplicate or malformed IDs are programming errors: fail loudly at load. */
export function checkCatalog(features: Feature[]): void {
  const seen = new Set<string>();
  for (const f of features) {
    if (!ID.test(f.id)) throw new Error(`feature id "${f.id}" must look like "area.name" (lower case, dashes)`);
    if (seen.has(f.id)) throw new Error(`feature id "${f.id}" is defined twice`);
    seen.add(f.id);
    if ((f.suite ?? f.area).includes('_')) throw new Error(`feature ${f.id}: suite names cannot contain "_" (TestGrid)`);
  }
}

export function suiteOf(f: Pick<Feature, 'suite' | 'area'>): string {
  return f.suite ?? f.area;
}
