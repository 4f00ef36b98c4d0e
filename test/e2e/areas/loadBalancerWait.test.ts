// net.lb on a cluster without a LoadBalancer provisioner (`minimal`) is n/a as soon as the
// evidence says so: nothing acted on the Service (no ingress, no event on it from any component,
// no finalizer) within the short bound, not at the 3-minute deadline.
// While a provisioner is seen acting, the wait goes on to the long deadline, and a provisioner that
// acted but gave no address is an error naming what it said, not "no provisioner".

import { expect } from 'chai';
import { recordEvent } from '../../../sim/controllers/events.ts';
import type { SimCluster } from '../../../sim/index.ts';
import { FAST_NET, runOnSim } from '../../support/simRun.ts';

/** A provisioner that acts on one Service in its own words (MetalLB's, not the cloud's service controller's) and fails. */
function failingProvisionerFor(service: string) {
  return (sim: SimCluster) => {
    const sub = sim.store.onAny((bucket, e) => {
      if (bucket !== 'services' || e.type !== 'ADDED' || e.object.metadata.name !== service) return;
      sub.stop();
      const svc = e.object;
      setTimeout(
        () =>
          recordEvent(
            sim.store,
            svc,
            'Warning',
            'AllocationFailed',
            `Failed to allocate IP for "${svc.metadata.namespace}/${service}": no available IPs`,
            'metallb-controller',
          ),
        1_000,
      ).unref();
    });
  };
}

describe('net.lb: the LoadBalancer wait is bounded by evidence', function () {
  this.timeout(5 * 60_000);

  it('minimal: n/a after the short bound when no provisioner acts; an acting provisioner is waited for to the deadline and its failure is an error naming it', async () => {
    const r = await runOnSim(['net.lb', 'net.preserve-destination'], {
      base: 'minimal',
      timeouts: { ...FAST_NET, netLoadBalancer: 8_000, netLoadBalancerActs: 2_000 },
      onSim: failingProvisionerFor('net-svc-lb-preserve'),
    });
    const lb = r.results.get('net.lb')!;
    expect(lb.outcome, r.output.join('\n')).to.equal('n/a');
    expect(lb.reason).to.match(
      /^no LoadBalancer provisioner acted on the Service within 2s \(service net-svc-lb: no ingress address, no event on it from any component, no finalizer\)/,
    );
    expect(lb.steps.join('\n')).to.match(/waiting up to 8s for a LoadBalancer address \(2s unless a provisioner is seen acting on the Service\)/);
    const pd = r.results.get('net.preserve-destination')!;
    expect(pd.outcome, r.output.join('\n')).to.equal('error');
    expect(pd.reason).to.match(
      /a LoadBalancer provisioner acted on service net-svc-lb-preserve \(event AllocationFailed from metallb-controller: Failed to allocate IP for .*no available IPs\) but gave it no address within 8s/,
    );
    expect(r.leftover).to.deep.equal([]);
  });
});
