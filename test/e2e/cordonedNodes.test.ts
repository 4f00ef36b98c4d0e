// Node access follows the placement rules: a HostProcess pod is bound by node name, past the
// scheduler and so past the cordon, so the harness itself keeps it off a cordoned or NotReady
// node, names that node as not visited (log, reports, the check's own evidence), and visits a
// cordoned one only when --include-cordoned says so.

import { expect } from 'chai';
import type { NodeSpec, Profile } from '../../sim/profiles/types.ts';
import type { SimCluster } from '../../sim/index.ts';
import { RUN_LABEL } from '../../lib/labels.ts';
import { runOnSim } from '../support/simRun.ts';

const FEATURES = ['node.services', 'node.hns-network'];

/** win-2022-1 cordoned, and a third Windows node that is NotReady. */
function cordonOne(p: Profile): void {
  const [first] = p.nodes.filter(n => n.os === 'windows');
  first.unschedulable = true;
  p.nodes.push({ ...structuredClone(first), name: 'win-2022-notready', unschedulable: false, ready: false } as NodeSpec);
}

/** Node name → the pods of the run bound to it, as the sim saw them created. */
function podsByNode(sim: SimCluster, into: Map<string, string[]>): void {
  sim.store.onAny(
    (_b, e) => {
      const o = e.object as { metadata: { name?: string; labels?: Record<string, string> }; spec?: { nodeName?: string } };
      if (e.type !== 'ADDED' || !o.metadata.labels?.[RUN_LABEL] || !o.spec?.nodeName) return;
      into.set(o.spec.nodeName, [...(into.get(o.spec.nodeName) ?? []), o.metadata.name ?? '']);
    },
    ['pods'],
  );
}

describe('node access and cordoned or NotReady nodes (sim)', function () {
  this.timeout(5 * 60_000);

  it('puts no pod on a cordoned or NotReady node and names both as not visited', async () => {
    const placed = new Map<string, string[]>();
    const r = await runOnSim(FEATURES, { edit: cordonOne, onSim: sim => podsByNode(sim, placed) });
    expect(placed.get('win-2022-1') ?? [], 'pods on the cordoned node').to.deep.equal([]);
    expect(placed.get('win-2022-notready') ?? [], 'pods on the NotReady node').to.deep.equal([]);
    expect(placed.get('win-2022-2')).to.have.length.greaterThan(0);
    for (const id of FEATURES) {
      const res = r.results.get(id)!;
      expect(res.outcome, `${id}: ${res.reason}`).to.equal('supported');
      expect(res.summary).to.contain('win-2022-2; not visited: win-2022-1 (cordoned');
      expect(res.summary).to.contain('win-2022-notready (NotReady)');
    }
    const log = r.output.join('\n');
    expect(log).to.match(
      /Not visited by node-level checks: win-2022-1 \(cordoned \(spec.unschedulable; --include-cordoned visits it\)\), win-2022-notready \(NotReady\)/,
    );
    expect(r.summaryMd).to.contain('- Not visited by node-level checks: win-2022-1 (cordoned');
    expect(r.html).to.contain('Not visited by node-level checks: win-2022-1');
    expect(r.exitCode).to.equal(0);
  });

  it('--include-cordoned visits the cordoned node, never the NotReady one', async () => {
    const placed = new Map<string, string[]>();
    const r = await runOnSim(FEATURES, { edit: cordonOne, includeCordoned: true, onSim: sim => podsByNode(sim, placed) });
    expect(placed.get('win-2022-1')).to.have.length.greaterThan(0);
    expect(placed.get('win-2022-notready') ?? []).to.deep.equal([]);
    const res = r.results.get('node.services')!;
    expect(res.outcome, res.reason).to.equal('supported');
    expect(res.summary).to.match(/running on win-2022-1, win-2022-2; not visited: win-2022-notready \(NotReady\)$/);
  });
});
