import { runNetOnSim } from '../test/features-net/simRun.ts';
import { loadProfile } from '../sim/profiles/load.ts';
async function main() {
  const t = Date.now();
  const r = await runNetOnSim(loadProfile('default'), ['net.*'], { egressUrl: 'http://egress.wincheck.test/' });
  for (const x of r.results.values()) console.log(x.id.padEnd(30), x.outcome.padEnd(10), x.summary.slice(0, 250));
  console.log('exit', r.exitCode, (Date.now() - t) / 1000);
  console.log(r.output.filter(l => /error|fail/i.test(l)).slice(0, 20).join('\n'));
  console.log(r.summaryMd.split('## Connectivity')[1]);
}
main();
