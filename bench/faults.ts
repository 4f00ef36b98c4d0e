// Reliability sweep (not a timing ratio, so not in run.ts's list): the whole catalog on the
// default profile once clean, then under 5% API errors (429 with Retry-After, 500), dropped
// watches (some resumed ones 410 Expired), connection resets, slow answers (1-3 s) and a node
// flapping NotReady, for N seeds; every verdict must equal the clean run's, and nothing may be
// left behind. Exit 1 on any difference.
//
//   npx tsx bench/faults.ts                    10 seeds (1-10), every feature
//   npx tsx bench/faults.ts 3 net.*            3 seeds, matching features only
//   npx tsx bench/faults.ts 10 --first 11      seeds 11-20
//   npx tsx bench/faults.ts 5 --heavy          30% API errors, 10% resets: a check that cannot get
//                                              through may end as `error` naming the fault, never
//                                              as another verdict

import { loadCatalog } from '../lib/catalog/registry.ts';
import { selectFeatures } from '../lib/catalog/select.ts';
import { FAULT_WORDS, faulty } from '../test/support/faults.ts';
import { FAST_NET, runOnSim } from '../test/support/simRun.ts';

const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : (args.splice(i, name === '--heavy' ? 1 : 2)[1] ?? name);
};
const first = Number(option('--first') ?? 1);
const heavy = option('--heavy') !== undefined;
const seeds = Number(args[0] ?? 10);
const globs = args.slice(1);
const features = selectFeatures(await loadCatalog(), { features: globs }).map(f => f.id);
const out = (l: string) => process.stdout.write(l + '\n');

const t0 = Date.now();
const clean = await runOnSim(features, { timeouts: FAST_NET });
out(
  `clean: ${features.length} features in ${((Date.now() - t0) / 1000).toFixed(1)}s${clean.leftoverObjects.length ? `; left behind: ${clean.leftoverObjects.join(', ')}` : ''}`,
);
let differences = 0;
let namedErrors = 0;
let leftovers = 0;
for (let seed = first; seed < first + seeds; seed++) {
  const t = Date.now();
  const r = await runOnSim(features, { timeouts: FAST_NET, edit: faulty(seed, heavy ? { apiErrorRate: 0.3, connResetRate: 0.1 } : {}), expectError: heavy });
  if (r.error) {
    // Stopped before any check (preflight, RBAC questions): fine under heavy faults if it names the fault.
    const named = FAULT_WORDS.test(r.error);
    if (!named) differences++;
    out(`seed ${String(seed).padStart(2)}: the run stopped before any check${named ? ', naming the fault' : ''}: ${r.error.split('\n')[0]}`);
    continue;
  }
  const other = features.filter(id => r.results.get(id)?.outcome !== clean.results.get(id)?.outcome);
  const faultErrors = heavy
    ? other.filter(id => r.results.get(id)?.outcome === 'error' && FAULT_WORDS.test(`${r.results.get(id)?.reason} ${r.results.get(id)?.error ?? ''}`))
    : [];
  const diff = other.filter(id => !faultErrors.includes(id));
  differences += diff.length;
  namedErrors += faultErrors.length;
  leftovers += r.leftoverObjects.length;
  out(
    `seed ${String(seed).padStart(2)}: ${diff.length ? `${diff.length} differ` : 'all equal'}${faultErrors.length ? ` (${faultErrors.length} error(s) naming the fault)` : ''} in ${((Date.now() - t) / 1000).toFixed(1)}s${r.leftoverObjects.length ? `; left behind: ${r.leftoverObjects.join(', ')}` : ''}`,
  );
  for (const id of diff)
    out(`  ${id}: clean ${clean.results.get(id)?.outcome}, faulty ${r.results.get(id)?.outcome}: ${r.results.get(id)?.reason.split('\n')[0]}`);
  for (const id of faultErrors) out(`  ${id}: error: ${r.results.get(id)?.reason.split('\n')[0].slice(0, 200)}`);
}
out(
  `faults${heavy ? ' (heavy)' : ''}: seeds ${first}-${first + seeds - 1} x ${features.length} feature(s): ${differences} verdict(s) differ from the clean run${heavy ? ` (${namedErrors} error(s) naming the fault allowed)` : ''}, ${leftovers} object(s) left behind ${differences || leftovers ? 'FAIL' : 'OK'}`,
);
process.exit(differences || leftovers ? 1 : 0);
