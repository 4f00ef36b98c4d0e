// Nodes as real kubelets report themselves: labels, nodeInfo, resources, taints, leases.

import { expect } from 'chai';
import type { V1Lease, V1Node } from '@kubernetes/client-node';
import { loadProfile, withOverrides } from '../../../sim/profiles/load.ts';
import { nodeSpecOf, setNodeReady, startNodes } from '../../../sim/nodes/index.ts';
import { parseQuantity } from '../../../util/quantity.ts';
import { newStore, waitFor } from '../../support/simControllers.ts';

function nodesOf(profileName: string, edit?: Parameters<typeof withOverrides>[1]) {
  const store = newStore();
  store.create('namespaces', { metadata: { name: 'kube-node-lease' } });
  const profile = edit ? withOverrides(loadProfile(profileName), edit) : loadProfile(profileName);
  const nodes = startNodes(store, profile, { leaseRenewMs: 20, statusHeartbeatMs: 20 });
  const get = (name: string) => store.get('nodes', undefined, name) as unknown as V1Node;
  return { store, profile, nodes, get };
}

describe('sim nodes', () => {
  it('labels a Windows Server 2022 node as its kubelet does', async () => {
    const { get, nodes } = nodesOf('default');
    const n = get('win-2022-1');
    expect(n.metadata!.labels).to.include({
      'kubernetes.io/os': 'windows',
      'beta.kubernetes.io/os': 'windows',
      'kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': 'win-2022-1',
      'node.kubernetes.io/windows-build': '10.0.20348',
    });
    expect(n.status!.nodeInfo).to.include({
      operatingSystem: 'windows',
      architecture: 'amd64',
      osImage: 'Windows Server 2022 Datacenter',
      kernelVersion: '10.0.20348.2582',
      containerRuntimeVersion: 'containerd://1.7.22',
      kubeletVersion: 'v1.33.2',
      kubeProxyVersion: 'v1.33.2',
    });
    expect(n.status!.nodeInfo!.machineID).to.be.a('string').and.not.empty;
    expect(n.status!.nodeInfo!.systemUUID).to.match(/^[0-9A-F-]{36}$/);
    expect(n.spec!.taints).to.deep.equal([{ key: 'os', value: 'windows', effect: 'NoSchedule' }]);
    expect(n.status!.daemonEndpoints!.kubeletEndpoint!.Port).to.equal(10250);
    expect(n.status!.addresses).to.deep.include({ type: 'Hostname', address: 'win-2022-1' });
    expect(n.status!.addresses!.find(a => a.type === 'InternalIP')!.address).to.match(/^127\.0\.10\.\d+$/);
    expect(n.spec!.podCIDR).to.match(/^10\.244\.\d+\.0\/24$/);
    await nodes.stop();
  });

  it('reports the build of each Windows release and Linux as Ubuntu', async () => {
    for (const [profile, node, osImage, build] of [
      ['ws2019', 'win-2019-1', 'Windows Server 2019 Datacenter', '10.0.17763'],
      ['ws2025', 'win-2025-1', 'Windows Server 2025 Datacenter', '10.0.26100'],
    ]) {
      const { get, nodes } = nodesOf(profile);
      const n = get(node);
      expect(n.metadata!.labels!['node.kubernetes.io/windows-build']).to.equal(build);
      expect(n.status!.nodeInfo!.osImage).to.equal(osImage);
      expect(n.status!.nodeInfo!.kernelVersion.startsWith(`${build}.`)).to.equal(true);
      await nodes.stop();
    }
    const { get, nodes } = nodesOf('default');
    const l = get('linux-1');
    expect(l.status!.nodeInfo).to.include({ operatingSystem: 'linux', osImage: 'Ubuntu 22.04.4 LTS' });
    expect(l.status!.nodeInfo!.kernelVersion).to.match(/^5\.15\.0-\d+-generic$/);
    expect(l.metadata!.labels).to.not.have.property('node.kubernetes.io/windows-build');
    expect(l.spec!.taints).to.equal(undefined);
    const cp = get('control-plane');
    expect(cp.metadata!.labels).to.have.property('node-role.kubernetes.io/control-plane', '');
    expect(cp.spec!.taints).to.deep.equal([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    await nodes.stop();
  });

  it('reserves memory: allocatable = capacity - reserved (2Gi on Windows)', async () => {
    const { get, nodes } = nodesOf('default');
    const n = get('win-2022-1');
    const reserved = parseQuantity(n.status!.capacity!.memory)! - parseQuantity(n.status!.allocatable!.memory)!;
    expect(reserved).to.equal(2 * 2 ** 30);
    expect(n.status!.allocatable!.cpu).to.equal('7500m');
    expect(n.status!.capacity!.pods).to.equal('110');
    await nodes.stop();
    const broken = nodesOf('default', { breaks: ['node-reserved'] });
    const b = broken.get('win-2022-1');
    expect(b.status!.allocatable).to.deep.equal(b.status!.capacity);
    await broken.nodes.stop();
  });

  it('drops the beta OS label when the profile says so, and leaves minimal Windows nodes untainted', async () => {
    const broken = nodesOf('default', { breaks: ['beta-os-label'] });
    expect(broken.get('win-2022-1').metadata!.labels).to.not.have.property('beta.kubernetes.io/os');
    expect(broken.get('linux-1').metadata!.labels).to.have.property('beta.kubernetes.io/os', 'linux');
    await broken.nodes.stop();
    const minimal = nodesOf('minimal');
    expect(minimal.get('win-2022-1').spec!.taints).to.equal(undefined);
    await minimal.nodes.stop();
  });

  it('reports the five conditions and refreshes heartbeats and leases on a timer', async () => {
    const { store, get, nodes } = nodesOf('default');
    const n = get('linux-1');
    expect(n.status!.conditions!.map(c => `${c.type}=${c.status}`)).to.have.members([
      'Ready=True',
      'MemoryPressure=False',
      'DiskPressure=False',
      'PIDPressure=False',
      'NetworkUnavailable=False',
    ]);
    const lease = store.get('leases.coordination.k8s.io', 'kube-node-lease', 'linux-1') as unknown as V1Lease;
    expect(lease.spec!.holderIdentity).to.equal('linux-1');
    expect(lease.metadata!.ownerReferences![0]).to.include({ kind: 'Node', name: 'linux-1', uid: n.metadata!.uid });
    const firstRenew = String(lease.spec!.renewTime);
    const firstBeat = String(n.status!.conditions![0].lastHeartbeatTime);
    await waitFor(store, 'a renewed lease and heartbeat', () => {
      const l = store.get('leases.coordination.k8s.io', 'kube-node-lease', 'linux-1') as unknown as V1Lease;
      return String(l.spec!.renewTime) !== firstRenew && String(get('linux-1').status!.conditions![0].lastHeartbeatTime) !== firstBeat;
    });
    await nodes.stop();
  });

  it('turns a node NotReady with the not-ready taints, and back', async () => {
    const { store, profile, get, nodes } = nodesOf('default');
    setNodeReady(store, profile, 'win-2022-2', false);
    let n = get('win-2022-2');
    expect(n.status!.conditions!.find(c => c.type === 'Ready')!.status).to.equal('False');
    expect(n.spec!.taints!.map(t => `${t.key}:${t.effect}`)).to.include.members([
      'os:NoSchedule',
      'node.kubernetes.io/not-ready:NoSchedule',
      'node.kubernetes.io/not-ready:NoExecute',
    ]);
    setNodeReady(store, profile, 'win-2022-2', true);
    n = get('win-2022-2');
    expect(n.status!.conditions!.find(c => c.type === 'Ready')!.status).to.equal('True');
    expect(n.spec!.taints).to.deep.equal([{ key: 'os', value: 'windows', effect: 'NoSchedule' }]);
    await nodes.stop();
  });

  it('exposes each node spec with defaults for other modules', () => {
    const spec = nodeSpecOf(loadProfile('default'), 'win-2022-1')!;
    expect(spec).to.include({ os: 'windows', role: 'worker', kubeletVersion: 'v1.33.2', ready: true });
    expect(nodeSpecOf(loadProfile('default'), 'nope')).to.equal(undefined);
  });
});
