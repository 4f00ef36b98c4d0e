// Scale: on a cluster with many Windows nodes, the node-level checks visit every one of them
// (release qualification needs all), or exactly those --nodes selects. Sized to stay fast (20
// nodes); the timing of 100 nodes against 2 is bench/node-scale.ts.

import { expect } from 'chai';
import { loadProfile } from '../../sim/profiles/load.ts';
import type { Profile } from '../../sim/profiles/types.ts';
import { runOnSim } from '../support/simRun.ts';

const WINDOWS_NODES = 20;
const FEATURES = ['node.services', 'node.hns-network', 'node.pause-image'];

function manyNodes(): Profile {
  const base = loadProfile('default');
  const win = base.nodes.find(n => n.os === 'windows')!;
  const linux = base.nodes.filter(n => n.os === 'linux');
  return { ...base, name: 'many-nodes', nodes: [...linux, ...Array.from({ length: WINDOWS_NODES }, (_, i) => ({ ...win, name: `win-${i + 1}` }))] };
}

/** Windows node names a result mentions (summary, evidence, steps). */
function nodesNamed(r: { summary: string; evidence: unknown[]; steps: string[] }): Set<string> {
  const text = [r.summary, ...r.steps, ...r.evidence.map(e => (typeof e === 'string' ? e : JSON.stringify(e)))].join('\n');
  return new Set([...text.matchAll(/\bwin-(\d+)\b/g)].map(m => `win-${m[1]}`));
}

describe(`node-level checks on ${WINDOWS_NODES} Windows nodes`, function () {
  this.timeout(240_000);

  it('visit every Windows node, each verdict as on two nodes', async () => {
    const run = await runOnSim(FEATURES, { base: manyNodes() });
    const all = Array.from({ length: WINDOWS_NODES }, (_, i) => `win-${i + 1}`);
    for (const id of FEATURES) {
      const r = run.results.get(id)!;
      expect(r.outcome, `${id}: ${r.reason}`).to.equal('supported');
      if (id !== 'node.pause-image') expect([...nodesNamed(r)].sort(), id).to.deep.equal([...all].sort());
    }
    expect(run.leftover).to.deep.equal([]);
  });

  it('--nodes: only the selected nodes are visited', async () => {
    const run = await runOnSim(['node.services'], { base: manyNodes(), nodes: ['win-1?'] });
    const r = run.results.get('node.services')!;
    expect(r.outcome, r.reason).to.equal('supported');
    expect([...nodesNamed(r)].sort()).to.deep.equal(Array.from({ length: 10 }, (_, i) => `win-1${i}`).sort());
  });

  it('--nodes matching no Windows node is an error naming the selection', async () => {
    const run = await runOnSim(['node.services'], { base: manyNodes(), nodes: ['linux-*'] });
    const r = run.results.get('node.services')!;
    expect(r.outcome).to.equal('error');
    expect(r.reason).to.contain('--nodes linux-*');
  });
});
