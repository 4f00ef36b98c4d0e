// Capacity taken by others after planning: the run planned its fixtures into
// room the nodes had, then another tenant's pods took that room before the scheduler placed them.
// The check ends as `error` naming the numbers (what the pod requests; per node allocatable, used
// by this run, used by others), never as a verdict on the feature. Plus the words that say "no
// room": the scheduler's Insufficient/Too many pods and the kubelet's OutOfcpu.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { failFastReason } from '../../lib/cluster/podState.ts';
import { podStartMeans } from '../../lib/cluster/meansError.ts';
import { podRequests } from '../../sim/controllers/fit.ts';
import { parseQuantity } from '../../util/quantity.ts';
import type { SimCluster } from '../../sim/index.ts';
import { FAST_NET, runOnSim } from '../support/simRun.ts';

/**
 * When the run's first pod appears (its plan is made by then), another team's pod is bound to
 * every Windows node, requesting all the cpu left there but 100m.
 */
function otherTeamTakesTheCpu(sim: SimCluster): void {
  let done = false;
  const sub = sim.store.onAny((bucket, e) => {
    if (done || bucket !== 'pods' || e.type !== 'ADDED' || !e.object.metadata.namespace?.startsWith('wincheck-')) return;
    done = true;
    sub.stop();
    sim.store.create('namespaces', {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'other-team' },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
    for (const node of sim.store.list('nodes').items.filter(n => n.metadata.labels?.['kubernetes.io/os'] === 'windows')) {
      const name = node.metadata.name!;
      const used = sim.store
        .list('pods')
        .items.filter(p => (p as V1Pod).spec?.nodeName === name)
        .reduce((s, p) => s + podRequests(p as V1Pod).cpu, 0);
      const left = parseQuantity(String((node.status as { allocatable: Record<string, string> }).allocatable.cpu))! - used;
      sim.store.create('pods', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: `batch-${name}`, namespace: 'other-team' },
        spec: {
          nodeName: name,
          nodeSelector: { 'kubernetes.io/os': 'windows' },
          tolerations: [{ operator: 'Exists' }],
          containers: [
            { name: 'c', image: 'mcr.microsoft.com/oss/kubernetes/pause:3.9', resources: { requests: { cpu: `${Math.floor((left - 0.1) * 1000)}m` } } },
          ],
        },
      });
    }
  });
}

describe('capacity taken by others after planning', function () {
  this.timeout(5 * 60_000);

  it('the scheduler finds no room: error with the numbers (requested, allocatable, used by this run, used by others), never a verdict', async () => {
    const r = await runOnSim(['res.cpu-limit-enforced'], { timeouts: FAST_NET, onSim: otherTeamTakesTheCpu });
    const res = r.results.get('res.cpu-limit-enforced')!;
    expect(res.outcome, r.output.join('\n')).to.equal('error');
    expect(res.reason).to.match(/the harness's own means failed \(capacity\)/);
    expect(res.reason).to.match(/Insufficient cpu/);
    expect(res.reason).to.match(/pod wincheck-\w+\/cpu-burner requests cpu 500m, memory 512Mi/);
    expect(res.reason).to.match(
      /win-2022-1: allocatable cpu \d+m, memory \d+Mi, \d+ pods; used by this run cpu \d+m, memory \d+Mi, \d+ pod\(s\); used by others cpu \d+m/,
    );
    expect(res.reason).to.match(/largest: other-team\/batch-win-2022-1 cpu \d+m/);
    expect(r.leftover).to.deep.equal([]);
  });

  it("no room in the scheduler's and the kubelet's words is capacity; other refusals are not", () => {
    expect(podStartMeans('FailedScheduling', "0/5 nodes are available: 2 Insufficient cpu, 3 node(s) didn't match Pod's node affinity/selector.")).to.equal(
      'capacity',
    );
    expect(podStartMeans('FailedScheduling', '0/3 nodes are available: 1 Too many pods, 2 node(s) had untolerated taint {os: windows}.')).to.equal('capacity');
    expect(podStartMeans('FailedScheduling', '0/3 nodes are available: 3 node(s) had untolerated taint {os: windows}.')).to.equal('scheduling');
    expect(podStartMeans('OutOfcpu', "Pod was rejected: Node didn't have enough resource: cpu, requested: 500, used: 3900, capacity: 4000")).to.equal(
      'capacity',
    );
    const rejected: V1Pod = { status: { phase: 'Failed', reason: 'OutOfcpu', message: "Pod was rejected: Node didn't have enough resource: cpu" } };
    expect(failFastReason(rejected)).to.equal('OutOfcpu');
    expect(failFastReason({ status: { phase: 'Failed' } })).to.equal('Failed');
  });
});
