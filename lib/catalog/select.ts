// --suite / --feature / --skip: globs (picomatch) over suite names and feature IDs.
// A pattern that matches nothing is a usage error listing the valid names.

import picomatch from 'picomatch';
import { UsageError } from '../errors.ts';
import { suiteOf } from './registry.ts';
import type { Feature } from './types.ts';

export interface Selection {
  suites?: string[];
  features?: string[];
  skip?: string[];
}

export function selectFeatures<T extends Pick<Feature, 'id' | 'suite' | 'area'>>(catalog: T[], sel: Selection): T[] {
  const suites = [...new Set(catalog.map(suiteOf))].sort();
  const ids = catalog.map(f => f.id).sort();
  checkPatterns('--suite', sel.suites, suites);
  checkPatterns('--feature', sel.features, ids);
  checkPatterns('--skip', sel.skip, [...ids, ...suites]);
  const suiteMatch = sel.suites?.length ? picomatch(sel.suites) : undefined;
  const featureMatch = sel.features?.length ? picomatch(sel.features) : undefined;
  const skipMatch = sel.skip?.length ? picomatch(sel.skip) : undefined;
  return catalog.filter(f => {
    if (skipMatch && (skipMatch(f.id) || skipMatch(suiteOf(f)))) return false;
    // --suite and --feature together: a feature is run when either selects it.
    if (!suiteMatch && !featureMatch) return true;
    return Boolean(suiteMatch?.(suiteOf(f)) || featureMatch?.(f.id));
  });
}

function checkPatterns(flag: string, patterns: string[] | undefined, valid: string[]): void {
  for (const p of patterns ?? []) {
    const match = picomatch(p);
    if (!valid.some(v => match(v))) throw new UsageError(`${flag} ${p} matches nothing; valid names: ${valid.join(', ')}`);
  }
}
