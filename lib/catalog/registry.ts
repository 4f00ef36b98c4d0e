// The catalog: one folder per feature-ID prefix (sched/, work/, ...), whose index.ts exports
// `features: Feature[]`. Loaded on demand, so `wincheck --help` and `wincheck list` stay fast.

import { pathToFileURL } from 'node:url';
import { codeModule } from '../../util/paths.ts';
import type { Area, Feature } from './types.ts';

/** The areas in report order, each with the folder of its ID prefix. */
export const AREAS: readonly { area: Area; prefix: string }[] = [
  { area: 'scheduling', prefix: 'sched' },
  { area: 'workloads', prefix: 'work' },
  { area: 'config', prefix: 'cfg' },
  { area: 'storage', prefix: 'stor' },
  { area: 'resources', prefix: 'res' },
  { area: 'isolation', prefix: 'iso' },
  { area: 'security', prefix: 'sec' },
  { area: 'networking', prefix: 'net' },
  { area: 'node', prefix: 'node' },
];
const ID = /^[a-z]+\.[a-z0-9-]+$/;

let cached: Feature[] | undefined;

export async function loadCatalog(): Promise<Feature[]> {
  if (cached) return cached;
  const all: Feature[] = [];
  for (const { prefix } of AREAS) {
    const mod = (await import(pathToFileURL(codeModule(`lib/catalog/${prefix}/index.ts`)).href)) as { features?: Feature[] };
    if (!Array.isArray(mod.features)) throw new Error(`lib/catalog/${prefix}/index must export "features: Feature[]"`);
    const stray = mod.features.find(f => !f.id.startsWith(`${prefix}.`));
    if (stray) throw new Error(`feature ${stray.id} is declared in lib/catalog/${prefix}/, whose IDs start with "${prefix}."`);
    all.push(...mod.features);
  }
  checkCatalog(all);
  cached = all;
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
