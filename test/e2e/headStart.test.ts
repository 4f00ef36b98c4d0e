// The critical path's head start (lib/run/priority.ts headStart, lib/run/waves.ts): the longest
// check's fixtures are created first and the others only once its pods are Ready, so its pods
// and first commands do not queue behind a hundred others. Seen from the sim's store: the order
// pods were created in, and when the head's became Ready.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { FIXTURE_LABEL } from '../../lib/labels.ts';
import { isPodReady } from '../../lib/cluster/podState.ts';
import type { SimCluster } from '../../sim/index.ts';
import { FAST_NET, runOnSim } from '../support/simRun.ts';

const HEAD = new Set(['net-win', 'net-win-peer', 'net-win-peer2']);

describe('the critical path goes first', function () {
  this.timeout(5 * 60_000);

  it("the others' pods are created only once the longest check's pods are Ready", async () => {
    const seen: string[] = [];
    let headReadyAt = -1;
    const ready = new Set<string>();
    const record = (sim: SimCluster) => {
      sim.store.onAny((bucket, e) => {
        if (bucket !== 'pods' || !e.object.metadata.namespace?.startsWith('wincheck-')) return;
        const fixture = e.object.metadata.labels?.[FIXTURE_LABEL];
        if (!fixture || fixture === 'prepull') return;
        if (e.type === 'ADDED') seen.push(fixture);
        if (HEAD.has(fixture) && isPodReady(e.object as V1Pod)) ready.add(fixture);
        if (headReadyAt < 0 && ready.size === HEAD.size) headReadyAt = seen.length;
      });
    };
    const r = await runOnSim(['net.session-affinity-timeout', 'sched.os-selector', 'cfg.configmap-env'], { timeouts: FAST_NET, onSim: record });
    expect(r.output.join('\n')).to.match(/Deploying the critical path's \d+ fixture\(s\) first \(net\.session-affinity-timeout\)/);
    const firstOther = seen.findIndex(f => !HEAD.has(f));
    expect(firstOther, seen.join(', ')).to.be.greaterThan(0);
    // Every head pod was created, and Ready, before the first of the others was created.
    expect(seen.slice(0, firstOther).sort()).to.deep.equal([...HEAD].sort());
    expect(headReadyAt, `head Ready after ${headReadyAt} pod(s) created; order ${seen.join(', ')}`).to.be.within(0, firstOther);
    expect(r.results.get('net.session-affinity-timeout')!.outcome).to.not.equal('error');
    expect(r.results.get('sched.os-selector')!.outcome).to.equal('supported');
    expect(r.leftover).to.deep.equal([]);
  });
});
