// Reliability sweep (not a timing ratio, so not in run.ts's list): the whole catalog on the
// default profile once clean, then under 5% API errors, dropped watches, resets, slow answers and
// a flapping node for N seeds; every verdict must equal the clean run's. Exit 1 on any difference.
//
//   npx tsx bench/faults.ts            10 seeds, every feature
//   npx tsx bench/faults.ts 3 net.*    3 seeds, matching features only

import { loadCatalog } from '../lib/catalog/registry.ts';
import { selectFeatures } from '../lib/catalog/select.ts';
import { faulty } from '../test/support/faults.ts';
import { FAST_NET, runOnSim } from '../test/support/simRun.ts';

const seeds = Number(process.argv[2] ?? 10);
const globs = process.argv.slice(3);
const features = selectFeatures(await loadCatalog(), { features: globs }).map(f => f.id);
const out = (l: string) => process.stdout.write(l + '\n');

const t0 = Date.now();
const clean = await runOnSim(features, { timeouts: FAST_NET });
out(`clean: ${features.length} features in ${((Date.now() - t0) / 1000).toFixed(1)}s${clean.leftoverObjects.length ? `; left behind: ${clean.leftoverObjects.join(', ')}` : ''}`);
let differences = 0;
let leftovers = 0;
for (let seed = 1; seed <= seeds; seed++) {
  const t = Date.now();
  const r = await runOnSim(features, { timeouts: FAST_NET, edit: faulty(seed) });
  const diff = features.filter(id => r.results.get(id)?.outcome !== clean.results.get(id)?.outcome);
  differences += diff.length;
  leftovers += r.leftoverObjects.length;
  out(`seed ${String(seed).padStart(2)}: ${diff.length ? `${diff.length} differ` : 'all equal'} in ${((Date.now() - t) / 1000).toFixed(1)}s${r.leftoverObjects.length ? `; left behind: ${r.leftoverObjects.join(', ')}` : ''}`);
  for (const id of diff) out(`  ${id}: clean ${clean.results.get(id)?.outcome}, faulty ${r.results.get(id)?.outcome}: ${r.results.get(id)?.reason.split('\n')[0]}`);
}
out(`faults: ${seeds} seed(s) x ${features.length} feature(s): ${differences} verdict(s) differ from the clean run, ${leftovers} object(s) left behind ${differences || leftovers ? 'FAIL' : 'OK'}`);
process.exit(differences || leftovers ? 1 : 0);
