// Expectations follow the cluster's Kubernetes version, runtime and Windows build, each with its
// source; a fact that cannot be discovered gives n/a ("could not tell"), never a guess.

import { expect } from 'chai';
import { formatSources } from '../../../../lib/facts/sources.ts';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import type { Feature } from '../../../../lib/catalog/types.ts';
import { describeStage, HOST_PROCESS, POD_OS_FIELD, runtimeSupport, stageAt } from '../../../../lib/facts/kubernetes.ts';
import { buildSupport } from '../../../../lib/catalog/node/node.ts';
import type { ServerVersion } from '../../../../lib/facts/kubernetes.ts';
import { cluster, linuxNode, winNode } from '../../../support/clusterFixture.ts';

const v = (minor: number): ServerVersion => ({ gitVersion: `v1.${minor}.0`, major: 1, minor });
let catalog: Feature[];
const exp = (id: string, c = cluster()) => catalog.find(f => f.id === id)!.expect(c);
const docker = (name: string, build = '10.0.17763', version = '20.10.9') => winNode(name, build, { runtimeName: 'docker', runtimeVersion: version });

describe('expectations by version, runtime and build', () => {
  before(async () => {
    catalog = await loadCatalog();
  });

  it('feature stages: pod OS field alpha 1.23 / beta 1.24 / GA 1.25; HostProcess alpha 1.22 / beta 1.23 / GA 1.26', () => {
    expect([22, 23, 24, 25].map(m => stageAt(POD_OS_FIELD, v(m)))).to.deep.equal(['absent', 'alpha', 'beta', 'ga']);
    expect([21, 22, 23, 25, 26].map(m => stageAt(HOST_PROCESS, v(m)))).to.deep.equal(['absent', 'alpha', 'beta', 'beta', 'ga']);
    expect(describeStage(HOST_PROCESS, v(22)))
      .to.contain('alpha in Kubernetes v1.22.0')
      .and.contain('off by default');
  });

  it('runtime: dockershim before 1.24 (Docker EE 19.03+), containerd 1.4+ before 1.24 and 1.6+ from it', () => {
    expect(runtimeSupport(docker('w'), v(22)).ok).to.equal(true);
    expect(runtimeSupport(docker('w', '10.0.17763', '18.09.1'), v(22)).ok).to.equal(false);
    expect(runtimeSupport(docker('w'), v(24)).why).to.contain('dockershim was removed in Kubernetes 1.24');
    expect(runtimeSupport(docker('w', '10.0.17763', 'Unknown'), v(22))).to.deep.include({ ok: undefined });
    expect(runtimeSupport(docker('w', '10.0.17763', 'Unknown'), v(22)).why).to.match(/^could not tell the Docker version/);
    expect(runtimeSupport(winNode('w', '10.0.17763', { runtimeVersion: '1.5.13' }), v(22)).ok).to.equal(true);
    expect(runtimeSupport(winNode('w', '10.0.17763', { runtimeVersion: '1.5.13' }), v(24)).ok).to.equal(false);
    const e = exp('node.runtime', cluster({ version: v(22), nodes: [linuxNode('l'), docker('w')] }));
    expect(e.expected).to.equal('supported');
    expect(e.reason).to.contain('Docker EE 19.03+ (dockershim)');
    expect(formatSources(e.source)).to.contain('Intro to Windows support in Kubernetes');
  });

  it('pod OS field: limited before beta (the field is dropped), supported from 1.24', () => {
    expect(exp('sched.pod-os-field', cluster({ version: v(23) })).expected).to.equal('limited');
    expect(exp('sched.pod-os-field', cluster({ version: v(24) })).expected).to.equal('supported');
    expect(exp('sec.linux-fields-rejected', cluster({ version: v(23) })).expected).to.equal('n/a');
    expect(formatSources(exp('sec.linux-fields-rejected', cluster({ version: v(24) })).source)).to.contain('KEP-2802');
  });

  it('HostProcess: limited on 1.22 (alpha, off) and on dockershim, supported from beta on containerd 1.6+', () => {
    expect(exp('iso.hostprocess', cluster({ version: v(22) })).expected).to.equal('limited');
    expect(exp('iso.hostprocess', cluster({ version: v(23) })).expected).to.equal('supported');
    expect(exp('iso.hostprocess', cluster({ version: v(23), nodes: [linuxNode('l'), docker('w')] })).expected).to.equal('limited');
  });

  it('Hyper-V: only containerd 1.7+; a docker node is limited; mixed nodes of the build are n/a', () => {
    const hv = { hypervRuntimeClass: 'hv' };
    expect(exp('iso.hyperv-runtimeclass', cluster({ ...hv })).expected).to.equal('supported');
    expect(exp('iso.hyperv-runtimeclass', cluster({ ...hv, version: v(22), nodes: [linuxNode('l'), docker('w', '10.0.20348')] })).expected).to.equal('limited');
    const mixed = exp(
      'iso.hyperv-runtimeclass',
      cluster({ ...hv, nodes: [linuxNode('l'), winNode('a'), winNode('b', '10.0.20348', { runtimeVersion: '1.6.28' })] }),
    );
    expect(mixed.expected).to.equal('n/a');
    expect(mixed.reason).to.match(/^could not tell which runtime/);
  });

  it('Windows Server 2022 is supported from Kubernetes 1.23 on', () => {
    expect(buildSupport('10.0.20348', v(22)).ok).to.equal(false);
    expect(buildSupport('10.0.20348', v(23)).ok).to.equal(true);
  });

  it('DSR and preserve-destination only from the builds seed 003 names; unknown DSR or build is n/a', () => {
    const dsr = (nodes = cluster().nodes) => cluster({ nodes, network: { kubeProxyDaemonSets: [], notes: [], dsr: true, networkMode: 'l2bridge' } });
    expect(exp('net.preserve-client-ip', dsr()).expected).to.equal('supported');
    expect(exp('net.preserve-client-ip', dsr([linuxNode('l'), winNode('w', '10.0.14393')])).expected).to.equal('limited');
    expect(exp('net.preserve-destination', dsr([linuxNode('l'), winNode('w', '10.0.17763')])).expected).to.equal('limited');
    const unknownBuild = [
      linuxNode('l'),
      winNode('w', '10.0.20348', { windowsBuild: undefined, buildNumber: undefined, kernelVersion: '', osImage: 'Windows' }),
    ];
    for (const id of ['net.preserve-client-ip', 'net.preserve-destination', 'net.session-affinity']) {
      const e = exp(id, dsr(unknownBuild));
      expect(e.expected, id).to.equal('n/a');
      expect(e.reason, id).to.match(/^could not tell the Windows build of w/);
    }
  });

  it('dual-stack with an undiscoverable network mode (Calico overlay looks like that) is n/a, not supported', () => {
    const calico = cluster({ dualStack: true, network: { cni: 'calico', kubeProxyDaemonSets: [], notes: [] } });
    const e = exp('net.dual-stack', calico);
    expect(e.expected).to.equal('n/a');
    expect(e.reason).to.contain('could not tell the Windows network mode').and.contain('CNI calico');
  });
});
