// Expectations per discovered cluster (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Networking"): session affinity by build,
// DSR on/off/unknown, dual-stack and IPv6-only, LB and egress preconditions, and the catalog's
// networking rows (IDs exactly as the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/), suites, matrix paths).

import { expect } from 'chai';
import { UPSTREAM_SPECS } from '../../../data/upstreamE2e.ts';
import { unmetNeed } from '../../../../lib/catalog/needs.ts';
import { hostPortOf } from '../../../../lib/catalog/net/egress.ts';
import { DESTINATION_LABELS, SOURCE_LABELS } from '../../../../lib/catalog/net/netPath.ts';
import { loadCatalog, suiteOf } from '../../../../lib/catalog/registry.ts';
import type { Feature } from '../../../../lib/catalog/types.ts';
import type { ClusterInfo } from '../../../../lib/discovery/types.ts';
import { cluster, linuxNode, winNode } from '../../../support/clusterFixture.ts';

const FEATURES_MD_IDS = [
  'net.pod-ip',
  'net.w2w-same-node',
  'net.w2w-cross-node',
  'net.w2l',
  'net.l2w',
  'net.pod-to-clusterip',
  'net.dns-service',
  'net.dns-dotted-name',
  'net.dns-hostnet',
  'net.dns-config',
  'net.egress',
  'net.icmp-egress',
  'net.node-to-pod',
  'net.node-to-service',
  'net.nodeport-external',
  'net.nodeport-local',
  'net.lb',
  'net.session-affinity',
  'net.session-affinity-timeout',
  'net.preserve-client-ip',
  'net.preserve-destination',
  'net.dual-stack',
  'net.ipv6-only',
  'net.hairpin',
];

const ws2019 = () => cluster({ nodes: [linuxNode('linux-1'), winNode('win-1', '10.0.17763'), winNode('win-2', '10.0.17763')] });
const ws2022 = () => cluster();
const ws2025 = () => cluster({ nodes: [linuxNode('linux-1'), winNode('win-1', '10.0.26100')] });
const withNet = (c: ClusterInfo, net: Partial<ClusterInfo['network']>) => ({ ...c, network: { ...c.network, ...net } });

describe('networking catalog', () => {
  let byId: Map<string, Feature>;
  before(async () => {
    const all = await loadCatalog();
    byId = new Map(all.filter(f => f.id.startsWith('net.')).map(f => [f.id, f]));
  });
  const exp = (id: string, c: ClusterInfo) => byId.get(id)!.expect(c);

  it('has the Networking rows of FEATURES.md, and beyond them only features an upstream Windows e2e spec names, in the networking or services suite', () => {
    const upstream = new Set(UPSTREAM_SPECS.flatMap(r => [...(r.features ?? []), ...(r.planned ?? [])]));
    expect([...byId.keys()].filter(id => !FEATURES_MD_IDS.includes(id) && !upstream.has(id))).to.deep.equal([]);
    expect(FEATURES_MD_IDS.filter(id => !byId.has(id))).to.deep.equal([]);
    for (const f of byId.values()) {
      expect(f.area).to.equal('networking');
      expect(['networking', 'services']).to.include(suiteOf(f));
    }
    expect(suiteOf(byId.get('net.session-affinity')!)).to.equal('services');
    expect(suiteOf(byId.get('net.w2l')!)).to.equal('networking');
  });

  it("exercises every source and destination of the matrix with some feature's netPath", () => {
    const paths = [...byId.values()].flatMap(f => (f.netPath ? [f.netPath] : []));
    expect([...new Set(paths.map(p => p.from))].sort()).to.deep.equal(Object.keys(SOURCE_LABELS).sort());
    expect([...new Set(paths.map(p => p.to))].sort()).to.deep.equal(Object.keys(DESTINATION_LABELS).sort());
  });

  it('gives every expectation a reason and a source', () => {
    for (const c of [ws2019(), ws2022(), ws2025(), withNet(ws2022(), { dsr: false }), { ...ws2022(), dualStack: true }])
      for (const f of byId.values()) {
        const e = f.expect(c);
        expect(e.reason, f.id).to.be.a('string').and.not.empty;
        expect(e.source, f.id).to.be.an('array').and.not.empty;
      }
  });

  it('net.linux-egress dials the host and port of --egress-url (the scheme default when it names none)', () => {
    expect(hostPortOf('http://egress.example/')).to.deep.equal({ host: 'egress.example', port: 80 });
    expect(hostPortOf('https://egress.example/x')).to.deep.equal({ host: 'egress.example', port: 443 });
    expect(hostPortOf('http://[2001:db8::7]:8080/')).to.deep.equal({ host: '2001:db8::7', port: 8080 });
    expect(byId.get('net.linux-egress')!.needs).to.include.members(['linux-node', 'egress-url']);
    expect(byId.get('net.linux-egress')!.netPath).to.deep.equal({ from: 'linux-pod', to: 'outside-tcp' });
  });

  describe('session affinity (seed 003: builds >= 19551)', () => {
    it('is limited on Windows Server 2019', () => {
      const e = exp('net.session-affinity', ws2019());
      expect(e.expected).to.equal('limited');
      expect(e.reason).to.contain('17763').and.contain('19551');
    });
    it('is supported on 2022 and 2025', () => {
      expect(exp('net.session-affinity', ws2022()).expected).to.equal('supported');
      expect(exp('net.session-affinity', ws2025()).expected).to.equal('supported');
    });
    it('follows the build the fixtures target (the most common one)', () => {
      const mixed = cluster({ nodes: [linuxNode('l'), winNode('a', '10.0.17763'), winNode('b', '10.0.20348'), winNode('c', '10.0.20348')] });
      expect(exp('net.session-affinity', mixed).expected).to.equal('supported');
    });
    it('keeps the timeout limited everywhere', () => {
      for (const c of [ws2019(), ws2022(), ws2025()]) expect(exp('net.session-affinity-timeout', c).expected).to.equal('limited');
    });
  });

  describe('DSR (kube-proxy --enable-dsr)', () => {
    it('preserve-client-ip: supported with DSR on, limited with DSR off, n/a when not discoverable', () => {
      expect(exp('net.preserve-client-ip', withNet(ws2022(), { dsr: true })).expected).to.equal('supported');
      expect(exp('net.preserve-client-ip', withNet(ws2022(), { dsr: false })).expected).to.equal('limited');
      const unknown = exp('net.preserve-client-ip', withNet(ws2022(), { dsr: undefined }));
      expect(unknown.expected).to.equal('n/a');
      expect(unknown.reason).to.contain('could not tell whether the Windows kube-proxy runs with DSR');
    });
    it('preserve-destination: supported with DSR on 2022, limited on 2019 (< 1903) or without DSR', () => {
      expect(exp('net.preserve-destination', withNet(ws2022(), { dsr: true })).expected).to.equal('supported');
      expect(exp('net.preserve-destination', withNet(ws2019(), { dsr: true })).expected).to.equal('limited');
      expect(exp('net.preserve-destination', withNet(ws2022(), { dsr: false })).expected).to.equal('limited');
      expect(exp('net.preserve-destination', withNet(ws2022(), {})).expected).to.equal('n/a');
    });
  });

  describe('NetworkPolicy (the engine discovery saw)', () => {
    it('supported with Calico or Antrea; Azure NPM from 2022; n/a without an engine or with one that does not run on Windows', () => {
      expect(exp('net.network-policy', withNet(ws2022(), { cni: 'calico', policyEngine: 'calico' })).expected).to.equal('supported');
      expect(exp('net.network-policy', withNet(ws2019(), { cni: 'antrea', policyEngine: 'antrea' })).expected).to.equal('supported');
      expect(exp('net.network-policy', withNet(ws2022(), { cni: 'azure', policyEngine: 'azure-npm' })).expected).to.equal('supported');
      const old = exp('net.network-policy', withNet(ws2019(), { cni: 'azure', policyEngine: 'azure-npm' }));
      expect(old.expected).to.equal('n/a');
      expect(old.reason).to.match(/17763 < 20348: Azure NPM enforces NetworkPolicy on Windows Server 2022 and later only/);
      const none = exp('net.network-policy', ws2022());
      expect(none.expected).to.equal('n/a');
      expect(none.reason).to.match(/no NetworkPolicy engine seen in kube-system \(CNI flannel/);
      const cilium = exp('net.network-policy', withNet(ws2022(), { cni: 'cilium', policyEngine: 'cilium' }));
      expect(cilium.expected).to.equal('n/a');
      expect(cilium.reason).to.match(/cilium .* does not run on Windows nodes/);
      expect(none.source.map(c => c.url)).to.include(
        'https://github.com/kubernetes-sigs/windows-operational-readiness/blob/main/specifications/ext-network-policies/spec.yaml',
      );
    });
  });

  describe('dual-stack and IPv6-only', () => {
    it('are n/a on a single-stack cluster', () => {
      expect(exp('net.dual-stack', ws2022()).expected).to.equal('n/a');
      expect(exp('net.ipv6-only', ws2022()).expected).to.equal('n/a');
      expect(unmetNeed('dual-stack', ws2022(), {})).to.contain('not dual-stack');
    });
    it('dual-stack: supported on l2bridge with 2022, limited on overlay and on 2019', () => {
      const ds = (c: ClusterInfo, mode?: string) => withNet({ ...c, dualStack: true }, { networkMode: mode });
      expect(exp('net.dual-stack', ds(ws2022(), 'l2bridge')).expected).to.equal('supported');
      expect(exp('net.dual-stack', ds(ws2022(), 'overlay')).expected).to.equal('limited');
      expect(exp('net.dual-stack', ds(ws2019(), 'l2bridge')).expected).to.equal('limited');
      // An unknown mode could be overlay: n/a, never assumed l2bridge.
      expect(exp('net.dual-stack', ds(ws2022())).expected).to.equal('n/a');
      expect(exp('net.dual-stack', ds(ws2022())).reason).to.contain('could not tell the Windows network mode');
    });
    it('IPv6-only is limited on an IPv6-only cluster, n/a on a dual-stack one (single-family IPv6 Services are supported there, seed 003)', () => {
      expect(exp('net.ipv6-only', { ...ws2022(), ipv6Only: true }).expected).to.equal('limited');
      const ds = exp('net.ipv6-only', { ...ws2022(), dualStack: true });
      expect(ds.expected).to.equal('n/a');
      expect(ds.reason).to.contain('net.dual-stack');
    });
  });

  describe('preconditions', () => {
    it('net.lb needs a LoadBalancer provisioner: n/a when the config says none, probed when unknown', () => {
      const lb = byId.get('net.lb')!;
      expect(lb.needs).to.include('load-balancer');
      expect(unmetNeed('load-balancer', { ...ws2022(), loadBalancer: 'no' }, {})).to.contain('no LoadBalancer provisioner');
      expect(unmetNeed('load-balancer', { ...ws2022(), loadBalancer: 'unknown' }, {})).to.equal(undefined);
      expect(lb.expect({ ...ws2022(), loadBalancer: 'yes' }).expected).to.equal('supported');
    });
    it('egress, ICMP egress and the Linux egress are n/a without --egress-url (air-gapped clusters have no target)', () => {
      for (const id of ['net.egress', 'net.icmp-egress', 'net.linux-egress']) {
        expect(byId.get(id)!.needs).to.include('egress-url');
        expect(unmetNeed('egress-url', ws2022(), {})).to.contain('--egress-url');
      }
    });
    it('node paths need node access and cross-node needs two Windows nodes', () => {
      for (const id of ['net.node-to-pod', 'net.node-to-service', 'net.nodeport-local']) expect(byId.get(id)!.needs).to.include('node-access');
      expect(byId.get('net.w2w-cross-node')!.needs).to.include('two-windows-nodes');
      expect(unmetNeed('two-windows-nodes', ws2025(), {})).to.contain('has 1');
    });
    it('documented limitations are limited whatever the cluster', () => {
      for (const id of ['net.dns-dotted-name', 'net.dns-hostnet', 'net.icmp-egress', 'net.nodeport-local'])
        for (const c of [ws2019(), ws2022()]) expect(exp(id, c).expected, id).to.equal('limited');
    });
  });
});
