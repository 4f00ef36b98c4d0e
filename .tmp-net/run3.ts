import { runNetOnSim } from '../test/features-net/simRun.ts';
import { loadProfile } from '../sim/profiles/load.ts';
async function main() {
  for (let i = 0; i < 2; i++) {
    const r = await runNetOnSim(loadProfile('default'), ['net.w2l', 'net.pod-ip'], { egressUrl: 'http://egress.wincheck.test/' });
    for (const x of r.results.values()) console.log(i, x.id.padEnd(30), x.outcome.padEnd(10), x.reason.slice(0, 300));
  }
}
main();
