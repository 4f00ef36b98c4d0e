// The shipped least-privilege role on the built-in profiles whose Windows nodes are small (AKS's 30
// pods a node, 2-vCPU nodes): the run deploys its fixtures in waves there, and releasing a wave
// deletes fixtures (delete on each kind, deletecollection on pods). As the ServiceAccount of
// ci/rbac.yaml, the whole catalog gets no 403 and the admin's verdicts and exit code.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog } from '../../lib/catalog/registry.ts';
import { parseQuantity } from '../../util/quantity.ts';
import { builtinProfileNames, loadProfile } from '../../sim/profiles/load.ts';
import { ROOT } from '../support/cli.ts';
import { FAST_NET, runOnSim, type SimRun } from '../support/simRun.ts';

const CI_RBAC = readFileSync(join(ROOT, 'ci/rbac.yaml'), 'utf8');
const EGRESS = 'http://egress.wincheck.test/';
const WAVES = /Capacity: the fixtures do not fit the nodes at once; deploying in \d+ waves/;

/** Built-in profiles with a Windows node of at most 4 vCPUs, 8 GiB or 30 pods: where the run may need waves. */
function capacityTightProfiles(): string[] {
  return builtinProfileNames().filter(name =>
    loadProfile(name).nodes.some(n => {
      if (n.os !== 'windows' || !n.capacity) return false;
      const c = n.capacity;
      return (parseQuantity(c.cpu) ?? Infinity) <= 4 || (parseQuantity(c.memory) ?? Infinity) <= 8 * 2 ** 30 || Number(c.pods ?? Infinity) <= 30;
    }),
  );
}

const forbidden = (r: SimRun) =>
  [...r.output, ...[...r.results.values()].map(x => `${x.id}: ${x.reason} ${x.error ?? ''}`)].filter(l => /\b403\b|cannot [a-z]+ resource/.test(l));

describe('the ci/rbac.yaml ServiceAccount on capacity-tight profiles (sim)', function () {
  this.timeout(40 * 60_000);

  it('releases every wave and gets the admin verdicts and exit code on each profile that needs waves', async () => {
    const ids = (await loadCatalog()).map(f => f.id);
    const profiles = capacityTightProfiles();
    expect(profiles).to.include.members(['aks', 'eks']);
    const withWaves: string[] = [];
    for (const base of profiles) {
      // One after the other: two whole runs at once on a small machine misjudge by timing.
      // Pods the scheduler turned away for want of room: the plan must leave room whatever order the pods come in.
      const turnedAway = new Set<string>();
      const admin = await runOnSim(ids, {
        base,
        egressUrl: EGRESS,
        timeouts: FAST_NET,
        onSim: sim =>
          sim.store.onAny(
            (_, e) => {
              const pod = e.object as V1Pod;
              const c = pod.status?.conditions?.find(x => x.type === 'PodScheduled' && x.status === 'False');
              if (c && /Too many pods/.test(c.message ?? '')) turnedAway.add(`${pod.metadata?.name}: ${c.message}`);
            },
            ['pods'],
          ),
      });
      if (!WAVES.test(admin.output.join('\n'))) continue;
      withWaves.push(base);
      expect([...turnedAway], `${base}: pods turned away for want of room`).to.deep.equal([]);
      const sa = await runOnSim(ids, { base, egressUrl: EGRESS, timeouts: FAST_NET, rbac: CI_RBAC });
      expect(sa.output.join('\n')).to.match(WAVES);
      expect(forbidden(sa), `${base}: 403s`).to.deep.equal([]);
      expect(sa.output.join('\n'), base).not.to.contain('releasing the fixtures of wave');
      const differing = ids
        .filter(id => sa.results.get(id)?.outcome !== admin.results.get(id)?.outcome)
        .map(id => `${id}: as the ServiceAccount ${sa.results.get(id)?.outcome} (${sa.results.get(id)?.reason}), as admin ${admin.results.get(id)?.outcome}`);
      expect(differing, base).to.deep.equal([]);
      const errors = (r: SimRun) =>
        [...r.results.values()]
          .filter(x => x.outcome === 'regressed' || x.outcome === 'error')
          .map(x => `${x.id} ${x.outcome}: ${x.reason} ${x.summary ?? ''}`)
          .join('\n');
      expect(sa.exitCode, `${base}: ${errors(sa)} / admin: ${errors(admin)}`).to.equal(admin.exitCode);
    }
    expect(withWaves, 'profiles whose run needed waves').to.include('aks');
  });
});
