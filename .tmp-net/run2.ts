import { runNetOnSim } from '../test/features-net/simRun.ts';
import { loadProfile, withOverrides } from '../sim/profiles/load.ts';
async function main() {
  const which = process.argv[2];
  const p = which === 'ws2019' ? loadProfile('ws2019') : withOverrides(loadProfile('default'), { limitations: { icmpEgress: false }, breaks: ['w2l'] });
  const r = await runNetOnSim(p, which === 'ws2019' ? ['net.session-affinity'] : ['net.node-to-pod', 'net.node-to-service', 'net.nodeport-local'], { egressUrl: 'http://egress.wincheck.test/' });
  for (const x of r.results.values()) console.log(x.id.padEnd(30), x.outcome.padEnd(10), x.reason.slice(0, 300), x.summary.slice(0, 300));
  console.log(r.output.slice(0, 15).join('\n'));
}
main();
