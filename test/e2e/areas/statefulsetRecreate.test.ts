// work.statefulset-recreate against the sim: supported on the default profile (the deleted pod is
// made again under its name, its per-pod DNS name resolves to the new IP and answers); with
// statefulset-recreate broken, regressed while the control before the deletion still answers; made
// again but kept from scheduling (every Windows node cordoned meanwhile): error, never regressed.

import { expect } from 'chai';
import { FAST_NET, runOnSim } from '../../support/simRun.ts';
import type { SimCluster } from '../../../sim/index.ts';

const ID = 'work.statefulset-recreate';

describe('a StatefulSet pod deleted and made again against the sim', function () {
  this.timeout(3 * 60_000);

  it('default profile supported; statefulset-recreate broken: regressed, the control before deletion answering', async () => {
    const [ok, broken] = await Promise.all([
      runOnSim([ID], { timeouts: FAST_NET }),
      runOnSim([ID], { breaks: ['statefulset-recreate'], timeouts: { ...FAST_NET, podStart: 15_000 } }),
    ]);
    const r = ok.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error}`).to.equal('supported');
    expect(r.summary).to.match(/statefulset-recreate-1 was deleted and made again \(\S+ → \S+\); .* resolves to the new pod and answers/);
    expect(r.node).to.match(/^win-/);
    const b = broken.results.get(ID)!;
    expect(b.outcome, `${b.reason} / ${b.summary} / ${b.error}`).to.equal('regressed');
    expect(b.summary).to.match(/was not made again and Ready/);
  });

  it('made again but not schedulable (the Windows nodes cordoned after the deletion): error naming the scheduler, not regressed', async () => {
    const cordonOnDelete = (sim: SimCluster) => {
      const sub = sim.store.onAny((bucket, e) => {
        if (bucket !== 'pods' || e.type !== 'DELETED' || e.object.metadata.name !== 'statefulset-recreate-1') return;
        sub.stop();
        setImmediate(() => {
          for (const n of sim.store.list('nodes').items.filter(n => n.metadata.labels?.['kubernetes.io/os'] === 'windows'))
            sim.store.mutate('nodes', undefined, n.metadata.name!, o => ({ ...o, spec: { ...(o.spec as object), unschedulable: true } }));
        });
      });
    };
    const run = await runOnSim([ID], { timeouts: { ...FAST_NET, podStart: 15_000 }, onSim: cordonOnDelete });
    const r = run.results.get(ID)!;
    expect(r.outcome, `${r.reason} / ${r.summary} / ${r.error}`).to.equal('error');
    expect(r.reason).to.match(/the harness's own means failed \((scheduling|capacity)\)/);
    expect(r.reason).to.match(/unschedulable/);
  });
});
