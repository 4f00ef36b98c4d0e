// The built-in real-node-like profiles (aks, eks, gke, openshift, kubeadm), each started and
// read back through the API as a client sees it: labels, taints, allocatable, pod counts,
// runtime strings, osImage editions, addresses, annotations, conditions, the CNI's traces.

import { expect } from 'chai';
import * as k8s from '@kubernetes/client-node';
import { startSim, type SimCluster } from '../../../sim/index.ts';

async function withProfile(name: string): Promise<{ sim: SimCluster; nodes: Map<string, k8s.V1Node>; core: k8s.CoreV1Api; apps: k8s.AppsV1Api }> {
  const sim = await startSim({ profile: name });
  const kc = new k8s.KubeConfig();
  kc.loadFromString(sim.kubeconfig);
  const core = kc.makeApiClient(k8s.CoreV1Api);
  const list = await core.listNode();
  return { sim, core, apps: kc.makeApiClient(k8s.AppsV1Api), nodes: new Map(list.items.map(n => [n.metadata!.name!, n])) };
}

type Env = Awaited<ReturnType<typeof withProfile>>;

/** A describe block with the profile's sim started before and stopped after; env() is the running one. */
function onProfile(name: string, body: (env: () => Env) => void): void {
  describe(name, () => {
    let env: Env | undefined;
    before(async () => {
      env = await withProfile(name);
    });
    after(async () => {
      await env?.sim.stop();
    });
    body(() => env!);
  });
}

const taintsOf = (n: k8s.V1Node) => (n.spec?.taints ?? []).map(t => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`);
const addr = (n: k8s.V1Node, type: string) => n.status?.addresses?.filter(a => a.type === type).map(a => a.address);
const cond = (n: k8s.V1Node, type: string) => n.status?.conditions?.find(c => c.type === type);

describe('sim: real-node-like profiles, read through the API', function () {
  this.timeout(60_000);

  onProfile('aks', env => {
    it('has the spot Windows Server 2022 node of real-nodes/01 as described', () => {
      const n = env().nodes.get('aksnpw22000000')!;
      expect(taintsOf(n)).to.deep.equal(['kubernetes.azure.com/scalesetpriority=spot:NoSchedule']);
      expect(n.status!.capacity).to.include({ cpu: '32', memory: '134217268Ki', pods: '30', 'ephemeral-storage': '133703676Ki' });
      expect(n.status!.allocatable).to.include({ cpu: '31580m', memory: '122348084Ki', pods: '30', 'ephemeral-storage': '133703676Ki' });
      expect(n.status!.nodeInfo).to.include({
        containerRuntimeVersion: 'containerd://1.7.17+azure',
        kubeletVersion: 'v1.28.12',
        osImage: 'Windows Server 2022 Datacenter',
        kernelVersion: '10.0.20348.2655',
      });
      expect(n.metadata!.labels).to.include({
        'kubernetes.azure.com/os-sku': 'Windows2022',
        'node.kubernetes.io/windows-build': '10.0.20348',
        'node-role.kubernetes.io/agent': '',
      });
      expect(n.metadata!.annotations!['csi.volume.kubernetes.io/nodeid']).to.equal(
        '{"disk.csi.azure.com":"aksnpw22000000","file.csi.azure.com":"aksnpw22000000"}',
      );
      // Azure CNI sets no NetworkUnavailable condition (the AKS dumps have none).
      expect(cond(n, 'NetworkUnavailable')).to.equal(undefined);
    });

    it('cordons the second spot node: spec.unschedulable and the unschedulable taint', () => {
      const n = env().nodes.get('aksnpw22000001')!;
      expect(n.spec!.unschedulable).to.equal(true);
      expect(taintsOf(n)).to.include('node.kubernetes.io/unschedulable:NoSchedule');
    });

    it('has the GPU Windows Server 2019 node of real-nodes/02 with its extended resource and older kubelet', () => {
      const n = env().nodes.get('akswin19000005')!;
      expect(n.spec!.taints).to.equal(undefined);
      expect(n.status!.allocatable).to.include({ 'microsoft.com/directx': '1', cpu: '3860m', pods: '30' });
      expect(n.status!.nodeInfo).to.include({
        containerRuntimeVersion: 'containerd://1.6.14+azure',
        kubeletVersion: 'v1.25.4',
        osImage: 'Windows Server 2019 Datacenter',
      });
    });

    it('has Linux system nodes of 2 vCPUs and 30 pods, and the Azure CNI as AKS lays it out', async () => {
      const linux = [...env().nodes.values()].filter(n => n.metadata!.labels!['kubernetes.io/os'] === 'linux');
      expect(linux).to.have.length(2);
      for (const n of linux) expect(n.status!.capacity).to.include({ cpu: '2', pods: '30' });
      const ds = (await env().apps.listNamespacedDaemonSet({ namespace: 'kube-system' })).items.map(d => d.metadata!.name);
      expect(ds).to.include.members(['azure-cns', 'kube-proxy']);
      // Windows runs kube-proxy and the CNI as services on AKS: no Windows DaemonSets.
      expect(ds).to.not.include('kube-proxy-windows');
    });
  });

  onProfile('eks', env => {
    it('has the 2-vCPU Windows node of real-nodes/09 with vpc extended resources, ephemeral-storage 0 and EC2 addresses', () => {
      const n = env().nodes.get('ip-192-168-33-201.ap-southeast-2.compute.internal')!;
      expect(n.status!.capacity).to.include({
        cpu: '2',
        memory: '8388208Ki',
        'ephemeral-storage': '0',
        'vpc.amazonaws.com/PrivateIPv4Address': '11',
        'vpc.amazonaws.com/ENI': '1',
      });
      expect(n.status!.addresses!.map(a => a.type)).to.deep.equal(['InternalIP', 'ExternalIP', 'InternalDNS', 'ExternalDNS', 'Hostname']);
      expect(addr(n, 'ExternalDNS')).to.deep.equal(['ec2-3-104-131-156.ap-southeast-2.compute.amazonaws.com']);
      expect(n.spec!.taints).to.equal(undefined);
    });

    it('has the managed node group labels of real-nodes/03 and a vendor kubelet version', () => {
      const n = env().nodes.get('ip-192-168-62-122.ap-southeast-2.compute.internal')!;
      expect(n.metadata!.labels).to.include({
        'eks.amazonaws.com/nodegroup': 'gpu-win',
        'node.kubernetes.io/instance-type': 'g4dn.2xlarge',
        'node.kubernetes.io/windows-build': '10.0.20348',
      });
      expect(n.status!.nodeInfo!.kubeletVersion).to.equal('v1.29.3-eks-ae9a62a');
      const linux = env().nodes.get('ip-192-168-12-34.ap-southeast-2.compute.internal')!;
      expect(linux.status!.allocatable).to.include({ cpu: '1930m', pods: '29' });
      expect(linux.status!.nodeInfo!.osImage).to.equal('Amazon Linux 2');
    });
  });

  onProfile('gke', env => {
    it('has Windows nodes with names past 50 characters that share their first 50, tainted node.kubernetes.io/os=windows', () => {
      const win = [...env().nodes.values()].filter(n => n.metadata!.labels!['kubernetes.io/os'] === 'windows');
      expect(win).to.have.length(2);
      expect(win.every(n => n.metadata!.name!.length > 50)).to.equal(true);
      expect(new Set(win.map(n => n.metadata!.name!.slice(0, 50))).size).to.equal(1);
      for (const n of win) {
        expect(taintsOf(n)).to.deep.equal(['node.kubernetes.io/os=windows:NoSchedule']);
        expect(n.status!.capacity).to.include({ cpu: '2' });
      }
    });

    it('shows the node-problem-detector conditions on the COS node beside Ready', () => {
      const n = env().nodes.get('gke-wincheck-prod-cluster-default-pool-3f8c9d2a-7xkq')!;
      expect(cond(n, 'KernelDeadlock')).to.include({ status: 'False', reason: 'KernelHasNoDeadlock' });
      expect(cond(n, 'FrequentContainerdRestart')).to.include({ status: 'False' });
      expect(cond(n, 'NetworkUnavailable')).to.include({ reason: 'RouteCreated' });
      expect(cond(n, 'Ready')).to.include({ status: 'True' });
      expect(n.status!.nodeInfo!.osImage).to.equal('Container-Optimized OS from Google');
    });
  });

  onProfile('openshift', env => {
    it('has the WMCO Windows node of real-nodes/12 and 08: hostname differing from the name, os=Windows taint, containerd://1.19, Standard edition', () => {
      const n = env().nodes.get('ip-10-0-52-217.ec2.internal')!;
      expect(n.metadata!.labels!['kubernetes.io/hostname']).to.equal('ec2amaz-83bb2ln');
      expect(addr(n, 'Hostname')).to.deep.equal(['ec2amaz-83bb2ln']);
      expect(taintsOf(n)).to.deep.equal(['os=Windows:NoSchedule']);
      expect(n.status!.nodeInfo).to.include({
        containerRuntimeVersion: 'containerd://1.19',
        kubeletVersion: 'v1.25.0-2653+a34b9e9499e6c3',
        osImage: 'Windows Server 2022 Standard',
        kernelVersion: '10.0.20348.1668',
      });
    });

    it('carries OVN-Kubernetes hybrid-overlay annotations, masters tainted master only, ovnkube-node outside kube-system', async () => {
      const win = env().nodes.get('ip-10-0-61-8.ec2.internal')!;
      expect(win.metadata!.annotations!['k8s.ovn.org/hybrid-overlay-node-subnet']).to.equal(win.spec!.podCIDR);
      const master = env().nodes.get('ip-10-0-140-12.ec2.internal')!;
      expect(taintsOf(master)).to.deep.equal(['node-role.kubernetes.io/master:NoSchedule']);
      expect(master.status!.nodeInfo!.containerRuntimeVersion).to.match(/^cri-o:\/\/1\.25\./);
      const ds = (await env().apps.listDaemonSetForAllNamespaces()).items.map(d => `${d.metadata!.namespace}/${d.metadata!.name}`);
      expect(ds).to.include('openshift-ovn-kubernetes/ovnkube-node');
      // OVN-Kubernetes replaces kube-proxy.
      expect(ds.filter(d => d.includes('kube-proxy'))).to.deep.equal([]);
    });
  });

  onProfile('kubeadm', env => {
    it('has the on-prem Docker node of real-nodes/07 without the windows-build label, and a containerd node with it', () => {
      const docker = env().nodes.get('win-r76r0a6edbe')!;
      expect(docker.metadata!.labels).to.not.have.property('node.kubernetes.io/windows-build');
      expect(docker.metadata!.labels).to.include({ 'kubernetes.io/os': 'windows', 'beta.kubernetes.io/os': 'windows' });
      expect(docker.status!.nodeInfo).to.include({
        containerRuntimeVersion: 'docker://20.10.9',
        osImage: 'Windows Server 2019 Standard Evaluation',
        kubeletVersion: 'v1.23.17',
      });
      expect(docker.status!.allocatable).to.include({ cpu: '8', memory: '4193844Ki', pods: '110', 'ephemeral-storage': '0' });
      const ctrd = env().nodes.get('win-2019-ctrd-01')!;
      expect(ctrd.metadata!.labels).to.include({ 'node.kubernetes.io/windows-build': '10.0.17763' });
      expect(taintsOf(env().nodes.get('k8s-master-01')!)).to.deep.equal(['node-role.kubernetes.io/master:NoSchedule']);
    });

    it('lays Calico VXLAN out as on a real node: annotations, CalicoIsUp, calico-windows-config', async () => {
      const n = env().nodes.get('win-2019-ctrd-01')!;
      expect(n.metadata!.annotations).to.have.property('projectcalico.org/IPv4VXLANTunnelAddr');
      expect(n.metadata!.annotations!['projectcalico.org/IPv4Address']).to.match(/^[\d.]+\/24$/);
      expect(cond(n, 'NetworkUnavailable')).to.include({ status: 'False', reason: 'CalicoIsUp' });
      const cm = await env().core.readNamespacedConfigMap({ name: 'calico-windows-config', namespace: 'kube-system' });
      expect(cm.data!.CALICO_NETWORKING_BACKEND).to.equal('vxlan');
      expect(JSON.parse(cm.data!.cni_network_config)).to.include({ type: 'calico', mode: 'vxlan', name: 'Calico' });
    });
  });
});
