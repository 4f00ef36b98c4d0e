// Discovery's pure parts: a V1Node as recorded, CNI / kube-proxy from kube-system, node access;
// and its bounded wait for a node that flaps NotReady (against the sim's API, with watch faults).

import { expect } from 'chai';
import type { V1ConfigMap, V1DaemonSet, V1Node } from '@kubernetes/client-node';
import { hostProcessPossible, isDualStack } from '../../../lib/discovery/discover.ts';
import { networkInfoOf } from '../../../lib/discovery/network.ts';
import { nodeInfoOf, targetWindowsNode, windowsTaints } from '../../../lib/discovery/nodes.ts';
import { versionAtLeast } from '../../../util/version.ts';
import { linuxNode, winNode } from '../../support/clusterFixture.ts';
import { makeClients } from '../../../lib/cluster/client.ts';
import { awaitFlappingNodes, RECENT_NOT_READY_MS } from '../../../lib/discovery/notReady.ts';
import { PROFILE, startEnv, type Env } from '../../support/simApi.ts';

const windowsNode: V1Node = {
  metadata: { name: 'win-1', labels: { 'kubernetes.io/os': 'windows', 'node.kubernetes.io/windows-build': '10.0.17763' } },
  spec: { taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }], podCIDRs: ['10.244.2.0/24', 'fd00:10:244:2::/64'] },
  status: {
    nodeInfo: {
      operatingSystem: 'windows',
      kernelVersion: '10.0.17763.6054',
      osImage: 'Windows Server 2019 Datacenter',
      containerRuntimeVersion: 'containerd://1.6.28',
      kubeletVersion: 'v1.30.4',
      architecture: 'amd64',
      bootID: '',
      kubeProxyVersion: '',
      machineID: '',
      systemUUID: '',
    },
    conditions: [{ type: 'Ready', status: 'True' }],
    allocatable: { cpu: '3500m', memory: '14Gi' },
    capacity: { cpu: '4', memory: '16Gi' },
    addresses: [{ type: 'InternalIP', address: '10.0.0.5' }],
  },
};

describe('discovery', () => {
  it('records a Windows node: build from the label, runtime split, readiness, CIDRs', () => {
    const n = nodeInfoOf(windowsNode);
    expect(n).to.include({
      name: 'win-1',
      os: 'windows',
      windowsBuild: '10.0.17763',
      buildNumber: 17763,
      runtimeName: 'containerd',
      runtimeVersion: '1.6.28',
      kubeletVersion: 'v1.30.4',
      ready: true,
      schedulable: true,
      internalIP: '10.0.0.5',
    });
    expect(n.taints).to.have.length(1);
  });

  it('falls back to kernelVersion for the build; cordoned nodes are not schedulable', () => {
    const n = nodeInfoOf({ ...windowsNode, metadata: { name: 'w', labels: { 'kubernetes.io/os': 'windows' } }, spec: { unschedulable: true } });
    expect(n.windowsBuild).to.equal('10.0.17763');
    expect(n.schedulable).to.equal(false);
  });

  it('finds the CNI, kube-proxy DaemonSets, DSR and the flannel mode', () => {
    const ds = (name: string, args: string[] = []): V1DaemonSet => ({
      metadata: { name },
      spec: { selector: {}, template: { spec: { containers: [{ name: 'c', args }] } } },
    });
    const info = networkInfoOf(
      [ds('kube-flannel-ds'), ds('kube-proxy'), ds('kube-proxy-windows', ['--enable-dsr=true', '--feature-gates=WinDSR=true'])],
      [{ metadata: { name: 'kube-flannel-cfg' }, data: { 'net-conf.json': '{"Network":"10.244.0.0/16","Backend":{"Type":"vxlan"}}' } } as V1ConfigMap],
    );
    expect(info).to.include({ cni: 'flannel', dsr: true, networkMode: 'overlay' });
    expect(info.kubeProxyDaemonSets).to.deep.equal(['kube-proxy', 'kube-proxy-windows']);
  });

  it('finds the NetworkPolicy engine by its DaemonSet, or says none was seen', () => {
    const ds = (name: string): V1DaemonSet => ({ metadata: { name }, spec: { selector: {}, template: { spec: { containers: [] } } } });
    expect(networkInfoOf([ds('calico-node'), ds('calico-node-windows')], []).policyEngine).to.equal('calico');
    expect(networkInfoOf([ds('azure-cns'), ds('azure-npm'), ds('azure-npm-win')], []).policyEngine).to.equal('azure-npm');
    expect(networkInfoOf([ds('antrea-agent-windows')], []).policyEngine).to.equal('antrea');
    const flannel = networkInfoOf([ds('kube-flannel-ds'), ds('kube-flannel-ds-windows')], []);
    expect(flannel.policyEngine).to.equal(undefined);
    expect(flannel.notes.join('\n')).to.contain('NetworkPolicy engine: none seen in kube-system');
  });

  it('says when DSR and the mode cannot be discovered', () => {
    const info = networkInfoOf([], []);
    expect(info.dsr).to.equal(undefined);
    expect(info.notes.join('\n')).to.contain('DSR: not discoverable');
  });

  it('HostProcess needs Kubernetes >= 1.23 (beta, on by default) and containerd >= 1.6', () => {
    expect(hostProcessPossible({ gitVersion: 'v1.33.2', major: 1, minor: 33 }, [winNode('w')]).ok).to.equal(true);
    expect(hostProcessPossible({ gitVersion: 'v1.23.0', major: 1, minor: 23 }, [winNode('w')]).ok).to.equal(true);
    expect(hostProcessPossible({ gitVersion: 'v1.22.0', major: 1, minor: 22 }, [winNode('w')]).reason).to.contain('alpha in Kubernetes v1.22.0');
    expect(hostProcessPossible({ gitVersion: 'v1.33.2', major: 1, minor: 33 }, [winNode('w', '10.0.20348', { runtimeVersion: '1.5.9' })]).ok).to.equal(false);
  });

  it('dual-stack = a node with IPv4 and IPv6 pod CIDRs', () => {
    expect(isDualStack([nodeInfoOf(windowsNode)])).to.equal(true);
    expect(isDualStack([linuxNode('l')])).to.equal(false);
  });

  it('targets the most common Windows build, deduplicates taints', () => {
    const nodes = [winNode('b', '10.0.17763'), winNode('c'), winNode('a'), winNode('d', '10.0.26100', { schedulable: false })];
    expect(targetWindowsNode(nodes)?.name).to.equal('a');
    expect(windowsTaints(nodes)).to.deep.equal([{ key: 'os', value: 'windows', effect: 'NoSchedule' }]);
    expect(versionAtLeast('1.7.22', '1.6')).to.equal(true);
    expect(versionAtLeast('1.5.11', '1.6')).to.equal(false);
    expect(versionAtLeast('v2.0.0', '1.7')).to.equal(true);
  });
});

describe('discovery: a node that turned NotReady moments ago', function () {
  this.timeout(30_000);
  let env: Env;
  before(async () => {
    env = await startEnv({ profile: { ...PROFILE, faults: { seed: 11, dropWatchRate: 0.5, watchExpiredRate: 0.5 } } });
  });
  after(async () => {
    await env.stop();
  });

  /** win-1's Ready condition, its transition `agoMs` before now. */
  const setReady = (status: 'True' | 'False', agoMs = 0) =>
    env.store.mutate('nodes', undefined, 'win-1', o => {
      (o as V1Node).status!.conditions = [
        {
          type: 'Ready',
          status,
          reason: status === 'True' ? 'KubeletReady' : 'KubeletNotReady',
          lastTransitionTime: new Date(Date.now() - agoMs).toISOString() as unknown as Date,
        },
      ];
    });
  const listed = async () => (await makeClients(env.kc).core.listNode()).items;

  it('waits (a watch with a deadline, said in the log) for it to come back, and records it Ready', async () => {
    setReady('False');
    const nodes = await listed();
    const log: string[] = [];
    const back = setTimeout(() => setReady('True'), 700);
    const infos = await awaitFlappingNodes(makeClients(env.kc), nodes, 10_000, l => log.push(l));
    clearTimeout(back);
    expect(infos.find(n => n.name === 'win-1')?.ready).to.equal(true);
    expect(log[0]).to.match(/win-1 turned NotReady .*waiting up to 10s/);
    expect(log[1]).to.match(/win-1 Ready again after/);
  });

  it('gives up at its deadline and goes on with the node NotReady, saying so', async () => {
    setReady('False');
    const log: string[] = [];
    const infos = await awaitFlappingNodes(makeClients(env.kc), await listed(), 800, l => log.push(l));
    expect(infos.find(n => n.name === 'win-1')?.ready).to.equal(false);
    expect(log.join('\n')).to.match(/Still NotReady after 1s: win-1/);
  });

  it('does not wait for a node NotReady for longer than a flap lasts (down, not flapping)', async () => {
    setReady('False', RECENT_NOT_READY_MS + 60_000);
    const log: string[] = [];
    const t = Date.now();
    const infos = await awaitFlappingNodes(makeClients(env.kc), await listed(), 10_000, l => log.push(l));
    expect(Date.now() - t).to.be.below(500);
    expect(log).to.deep.equal([]);
    expect(infos.find(n => n.name === 'win-1')?.ready).to.equal(false);
  });
});
