// Writes docs/upstream-e2e.md: the upstream Windows e2e spec map against the current catalog.
import { writeFileSync } from 'node:fs';
import { loadCatalog } from '../lib/catalog/registry.ts';
import { renderUpstreamDoc } from '../test/data/upstreamE2e.ts';

const ids = new Set((await loadCatalog()).map(f => f.id));
writeFileSync(new URL('../docs/upstream-e2e.md', import.meta.url), renderUpstreamDoc(ids));
