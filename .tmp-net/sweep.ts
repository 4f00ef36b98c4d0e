import { runNetOnSim } from '../test/features-net/simRun.ts';
import { loadProfile, withOverrides } from '../sim/profiles/load.ts';
import type { BreakKey } from '../sim/profiles/types.ts';
const BREAKS = process.argv.slice(2) as BreakKey[];
async function main() {
  const base = await runNetOnSim(loadProfile('default'), ['net.*'], { egressUrl: 'http://egress.wincheck.test/' });
  const b = Object.fromEntries([...base.results.values()].map(r => [r.id, r.outcome]));
  for (const k of BREAKS) {
    const r = await runNetOnSim(withOverrides(loadProfile('default'), { breaks: [k] }), ['net.*'], { egressUrl: 'http://egress.wincheck.test/' });
    const diff = [...r.results.values()].filter(x => x.outcome !== b[x.id]).map(x => `${x.id}: ${b[x.id]} -> ${x.outcome} (${x.reason.slice(0, 160)})`);
    console.log(`BREAK ${k}: ${diff.length ? '\n  ' + diff.join('\n  ') : 'no change'}`);
  }
}
main();
