// Which events on a LoadBalancer Service say a provisioner acts: any component's but wincheck's.

import { expect } from 'chai';
import type { CoreV1Event } from '@kubernetes/client-node';
import { noIngressReason, provisionerActed } from '../../../../lib/catalog/net/loadBalancer.ts';

const ev = (reason: string, by: { source?: string; reporting?: string }, kind = 'Service'): CoreV1Event => ({
  metadata: { name: 'e' },
  involvedObject: { kind, name: 'lb' },
  reason,
  source: by.source ? { component: by.source } : undefined,
  reportingComponent: by.reporting,
});

describe('net LoadBalancer provisioner evidence', () => {
  it('counts any component acting on the Service, in its own words', () => {
    expect(provisionerActed(ev('EnsuringLoadBalancer', { source: 'service-controller' }))).to.equal(true);
    expect(provisionerActed(ev('IPAllocated', { source: 'metallb-controller' }))).to.equal(true);
    expect(provisionerActed(ev('SuccessfullyReconciled', { reporting: 'service' }))).to.equal(true);
    expect(provisionerActed(ev('SomethingNew', {}))).to.equal(true);
  });

  it('does not count wincheck itself nor events about other kinds', () => {
    expect(provisionerActed(ev('Created', { source: 'wincheck' }))).to.equal(false);
    expect(provisionerActed(ev('Created', { reporting: 'wincheck' }))).to.equal(false);
    expect(provisionerActed(ev('Scheduled', { source: 'default-scheduler' }, 'Pod'))).to.equal(false);
  });

  it('says what acted, or that nothing did', () => {
    expect(noIngressReason('lb', { acted: 'event IPAllocated from metallb-controller: ok', waitedMs: 4000 }).error).to.match(
      /acted on service lb \(event IPAllocated/,
    );
    expect(noIngressReason('lb', { waitedMs: 2000 }).notApplicable).to.match(/within 2s .*no event on it from any component/);
  });

  it('names the bound that ended the wait, not the wall time a loaded machine took', () => {
    expect(noIngressReason('lb', { waitedMs: 7_400, boundMs: 2_000 }).notApplicable).to.match(/within 2s /);
    expect(noIngressReason('lb', { acted: 'event AllocationFailed from metallb-controller: no IPs', waitedMs: 13_900, boundMs: 8_000 }).error).to.match(
      /gave it no address within 8s$/,
    );
  });
});
