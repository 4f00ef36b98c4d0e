import { runNetOnSim } from '../test/features-net/simRun.ts';
import { loadProfile, withOverrides } from '../sim/profiles/load.ts';
describe('two', function () {
  this.timeout(600000);
  it('runs twice', async () => {
    for (let i = 0; i < 2; i++) {
      const p = i === 0 ? loadProfile('default') : withOverrides(loadProfile('default'), { limitations: { icmpEgress: false }, breaks: ['w2l'] });
      const r = await runNetOnSim(p, ['net.*'], { egressUrl: 'http://egress.wincheck.test/' });
      for (const x of r.results.values()) if (x.outcome === 'error' || i === 1) console.log(i, x.id.padEnd(30), x.outcome.padEnd(10), x.reason.slice(0, 200));
      console.log(r.output.filter(l => /rror/.test(l)).slice(0, 5).join('\n'));
    }
  });
});
