// Provider layouts of Windows nodes: kube-proxy as the service kube-proxy or kubeproxy (AKS) or as
// a HostProcess DaemonSet (sig-windows-tools); Get-HnsNetwork present or absent (AKS downloads
// hns.psm1), with hnsdiag as the other source or "could not tell". Parsers, then the sim.

import { expect } from 'chai';
import { parseHnsdiagNetworks } from '../../lib/catalog/node/node.ts';
import type { CheckResult } from '../../lib/catalog/types.ts';
import { validateProfile } from '../../sim/profiles/profileSchema.ts';
import { loadProfile } from '../../sim/profiles/load.ts';
import type { Profile } from '../../sim/index.ts';
import { runOnSim, type SimRun } from '../support/simRun.ts';

const NODE = ['node.services', 'node.hns-network'];
const layout = (l: Profile['windowsLayout']) => (p: Profile) => {
  p.windowsLayout = l;
};
function result(run: SimRun, id: string): CheckResult {
  const r = run.results.get(id);
  expect(r, id).to.exist;
  return r!;
}
const text = (r: CheckResult) => `${r.outcome} ${r.reason} ${r.summary} ${JSON.stringify(r.evidence)}`;

describe('provider layouts of Windows nodes', function () {
  this.timeout(5 * 60_000);

  it('reads hnsdiag list networks as rows, and Name/Type blocks', () => {
    const rows =
      'Network Id                             | Name                 | Type\r\n' +
      '---------------------------------------+----------------------+-----------\r\n' +
      'A1B2C3D4-0000-0000-0000-000000000001   | nat                  | nat\r\n' +
      'A1B2C3D4-0000-0000-0000-000000000002   | azure                | L2Bridge\r\n';
    expect(parseHnsdiagNetworks(rows)).to.deep.equal([
      { name: 'nat', type: 'nat' },
      { name: 'azure', type: 'L2Bridge' },
    ]);
    expect(parseHnsdiagNetworks('Name : cbr0\r\nType : L2Bridge\r\n')).to.deep.equal([{ name: 'cbr0', type: 'L2Bridge' }]);
    expect(parseHnsdiagNetworks('')).to.deep.equal([]);
  });

  it('validates the profile layout field, naming the bad value', () => {
    const p = JSON.parse(JSON.stringify(loadProfile('default'))) as Profile;
    p.windowsLayout = { kubeProxy: 'sidecar' as 'service' };
    expect(() => validateProfile(p)).to.throw(/windowsLayout\.kubeProxy/);
  });

  it('AKS layout: the kubeproxy service and no DaemonSet; no Get-HnsNetwork, hnsdiag answers', async () => {
    const run = await runOnSim(NODE, { edit: layout({ kubeProxy: 'service', kubeProxyServiceName: 'kubeproxy', hnsModule: false }) });
    const svc = result(run, 'node.services');
    expect(svc.outcome, text(svc)).to.equal('supported');
    expect(text(svc)).to.contain('kube-proxy runs as the Windows service kubeproxy');
    const hns = result(run, 'node.hns-network');
    expect(hns.outcome, text(hns)).to.equal('supported');
    expect(text(hns))
      .to.match(/is not recognized as the name of a cmdlet/)
      .and.to.match(/HNS networks \(hnsdiag list networks\) nat \(nat\), cbr0 \(L2Bridge\)/);
    expect(run.leftover).to.deep.equal([]);
  });

  it('sig-windows-tools layout: kube-proxy only as a HostProcess DaemonSet pod; no HNS source at all is n/a', async () => {
    const run = await runOnSim(NODE, { edit: layout({ kubeProxy: 'daemonset', hnsModule: false, hnsdiag: false }) });
    const svc = result(run, 'node.services');
    expect(svc.outcome, text(svc)).to.equal('supported');
    expect(text(svc)).to.match(/kube-proxy is not a Windows service; it runs as pod kube-proxy-windows-\S+ of DaemonSet kube-proxy-windows \(HostProcess\)/);
    const hns = result(run, 'node.hns-network');
    expect(hns.outcome, text(hns)).to.equal('n/a');
    expect(hns.reason).to.match(/could not tell the HNS networks of win-2022-\d: Get-HnsNetwork is not installed there .*hnsdiag list networks failed/);
  });

  for (const [profile, proxy] of [
    ['aks', /runs as the Windows service kubeproxy/],
    ['eks', /runs as the Windows service kube-proxy/],
  ] as const) {
    it(`built-in ${profile} profile: node.services and node.hns-network hold on the provider's layout`, async () => {
      const run = await runOnSim(NODE, { base: profile });
      const svc = result(run, 'node.services');
      expect(svc.outcome, text(svc)).to.equal('supported');
      expect(text(svc)).to.match(proxy);
      const hns = result(run, 'node.hns-network');
      expect(hns.outcome, text(hns)).to.equal('supported');
      if (profile === 'aks') expect(text(hns)).to.contain('(hnsdiag list networks)');
    });
  }

  it('a stopped kubeproxy service is a regression naming the service', async () => {
    const run = await runOnSim(['node.services'], { breaks: ['node-services'], edit: layout({ kubeProxy: 'service', kubeProxyServiceName: 'kubeproxy' }) });
    const svc = result(run, 'node.services');
    expect(svc.outcome, text(svc)).to.equal('regressed');
    expect(svc.summary).to.match(/kubelet is STOPPED.*kube-proxy \(service kubeproxy\) is STOPPED/);
  });
});
