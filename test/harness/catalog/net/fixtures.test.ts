// The networking fixtures render for a cluster: run labels, Windows pods pinned to the target
// node with the taint tolerated, Linux pods selecting Linux, Services selecting the right pods.

import { expect } from 'chai';
import type { V1Pod, V1Service } from '@kubernetes/client-node';
import { FX } from '../../../../lib/catalog/net/netexec.ts';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import { RUN_LABEL, renderFixture } from '../../../../lib/fixtures/render.ts';
import type { RenderContext } from '../../../../lib/fixtures/types.ts';

const ctx: RenderContext = {
  runId: 'abc',
  namespace: 'wincheck-abc',
  windowsBuild: '10.0.20348',
  windowsNode: 'win-1',
  multipleBuilds: false,
  windowsTaints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }],
  secrets: {},
};

describe('networking fixtures', () => {
  it('every fixture a networking feature declares renders, carrying the run label', async () => {
    const specs = (await loadCatalog()).filter(f => f.id.startsWith('net.')).flatMap(f => f.fixtures);
    const byId = new Map(specs.map(s => [s.id, s]));
    for (const [id, spec] of byId) {
      for (const other of specs.filter(s => s.id === id)) expect(other, `${id} declared identically`).to.deep.equal(spec);
      const r = renderFixture(spec, ctx);
      expect(r.objects.length, id).to.be.greaterThan(0);
      for (const o of r.objects) {
        expect(o.metadata?.labels?.[RUN_LABEL], id).to.equal('abc');
        expect(o.metadata?.namespace, id).to.equal('wincheck-abc');
      }
    }
  });

  it('pins Windows netexec pods to the target node, tolerating its taint; Linux pods select Linux', () => {
    const win = renderFixture(FX.winPeer, ctx).objects[0] as V1Pod;
    expect(win.spec?.nodeName).to.equal('win-1');
    expect(win.spec?.nodeSelector).to.deep.equal({ 'kubernetes.io/os': 'windows' });
    expect(win.spec?.tolerations).to.deep.include({ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' });
    expect(win.spec?.containers[0].args).to.deep.equal(['netexec', '--http-port=8080', '--udp-port=8081']);
    expect(win.spec?.containers[0].ports).to.deep.include({ containerPort: 8081, protocol: 'UDP' });
    expect(win.metadata?.labels).to.include({ 'wincheck.io/net-backend': 'yes', 'wincheck.io/net-win-backend': 'yes' });
    const lin = renderFixture(FX.linux, ctx).objects[0] as V1Pod;
    expect(lin.spec?.nodeSelector).to.deep.equal({ 'kubernetes.io/os': 'linux' });
    expect(lin.spec?.nodeName).to.equal(undefined);
    expect(lin.metadata?.labels).to.include({ 'wincheck.io/net-backend': 'yes', 'wincheck.io/net-win-backend': 'no' });
  });

  it('renders the Services: mixed ClusterIP, ClientIP affinity with and without a timeout, Local NodePort, annotated LB', () => {
    const svc = (f: typeof FX.svcMixed) => renderFixture(f, ctx).objects[0] as V1Service;
    expect(svc(FX.svcMixed).spec?.selector).to.deep.equal({ 'wincheck.io/net-backend': 'yes' });
    expect(svc(FX.svcMixed).spec?.ports?.[0]).to.include({ port: 80, targetPort: 8080 });
    expect(svc(FX.svcAffinity).spec?.sessionAffinity).to.equal('ClientIP');
    expect(svc(FX.svcAffinity).spec?.sessionAffinityConfig?.clientIP?.timeoutSeconds).to.equal(10800);
    expect(svc(FX.svcAffinityTimeout).spec?.sessionAffinityConfig?.clientIP?.timeoutSeconds).to.equal(2);
    expect(svc(FX.svcLocal).spec).to.include({ type: 'NodePort', externalTrafficPolicy: 'Local' });
    expect(svc(FX.svcNodePort).spec).to.include({ type: 'NodePort', externalTrafficPolicy: 'Cluster' });
    expect(svc(FX.svcLbPreserve).metadata?.annotations).to.deep.equal({ 'preserve-destination': 'true' });
    expect(svc(FX.svcHairpin).spec?.selector).to.deep.equal({ app: 'net-win' });
    expect(svc(FX.svcIpv6).spec).to.deep.include({ ipFamilyPolicy: 'SingleStack', ipFamilies: ['IPv6'] });
  });

  it('renders the DNS pods as upstream dns.go and the HostProcess host-network pod', () => {
    const dns = renderFixture(FX.dnsConfig, ctx).objects[0] as V1Pod;
    expect(dns.spec?.dnsPolicy).to.equal('None');
    expect(dns.spec?.dnsConfig?.nameservers).to.deep.equal(['1.1.1.1']);
    const host = renderFixture(FX.hostnetDns, ctx).objects[0] as V1Pod;
    expect(host.spec).to.include({ hostNetwork: true, dnsPolicy: 'ClusterFirstWithHostNet', nodeName: 'win-1' });
    expect(host.spec?.securityContext?.windowsOptions).to.deep.equal({ hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' });
  });
});
