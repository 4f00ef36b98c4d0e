// What the profile's CNI leaves on a Windows node: the HNS network it creates, its CNI
// configuration file, the node annotations it writes and the NetworkUnavailable
// condition (set by the CNI daemon, not the kubelet). flannel, Calico, Azure CNI and
// OVN-Kubernetes (OpenShift's hybrid overlay) as their Windows installs write them; any
// other CNI name gets a generic bridge/overlay network and no annotations.

import type { Profile } from '../profiles/types.ts';

export interface CniNodeFacts {
  /** The HNS network name (kube-proxy's --network-name / KUBE_NETWORK). */
  hnsNetwork: string;
  hnsType: 'L2Bridge' | 'Overlay';
  /** The CNI configuration file on a Windows node, and its text. */
  confFile: string;
  conf: string;
  annotations: Record<string, string>;
  /** NetworkUnavailable=False reason and message, where the CNI sets that condition. */
  networkCondition?: { reason: string; message: string };
}

export interface CniNodeInput {
  nodeName: string;
  internalIP: string;
  podCIDR: string;
  os: 'linux' | 'windows';
}

const SERVICE_CIDR = '10.96.0.0/12';
const CLUSTER_CIDR = '10.244.0.0/16';
const CLUSTER_DNS = '10.96.0.10';

/** A stable MAC (00-15-5D is the Hyper-V prefix) from the node name. */
function mac(seed: string, prefix = '00-15-5D'): string {
  let h = 0x811c9dc5;
  for (const ch of seed) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  const b = [(h >>> 16) & 0xff, (h >>> 8) & 0xff, h & 0xff].map(x => x.toString(16).padStart(2, '0').toUpperCase());
  return `${prefix}-${b.join('-')}`;
}

const firstHost = (cidr: string) => cidr.replace(/\.0\/\d+$/, '.1');
const json = (o: unknown) => JSON.stringify(o, null, 2);

export function cniNodeFacts(profile: Profile, node: CniNodeInput): CniNodeFacts {
  const overlay = profile.network.mode === 'overlay';
  const dns = { Nameservers: [CLUSTER_DNS], Search: [`svc.${profile.network.clusterDomain ?? 'cluster.local'}`] };
  switch (profile.network.cni) {
    case 'flannel':
      // flannel's kube-subnet-mgr annotations; sig-windows-tools' HostProcess flannel writes 10-flannel.conf.
      return {
        hnsNetwork: overlay ? 'vxlan0' : 'cbr0',
        hnsType: overlay ? 'Overlay' : 'L2Bridge',
        confFile: 'C:\\etc\\cni\\net.d\\10-flannel.conf',
        conf: json({
          name: overlay ? 'flannel.4096' : 'cbr0',
          cniVersion: '0.3.0',
          type: 'flannel',
          capabilities: { portMappings: true, dns: true },
          delegate: {
            type: overlay ? 'sdnoverlay' : 'sdnbridge',
            optionalFlags: { forceBridgeGateway: !overlay },
            policies: [{ Name: 'EndpointPolicy', Value: { Type: 'OutBoundNAT', Settings: { Exceptions: [CLUSTER_CIDR] } } }],
          },
        }),
        annotations: {
          'flannel.alpha.coreos.com/backend-data': overlay
            ? JSON.stringify({ VNI: 4096, VtepMAC: mac(node.nodeName).toLowerCase().replace(/-/g, ':') })
            : 'null',
          'flannel.alpha.coreos.com/backend-type': overlay ? 'vxlan' : 'host-gw',
          'flannel.alpha.coreos.com/kube-subnet-mgr': 'true',
          'flannel.alpha.coreos.com/public-ip': node.internalIP,
        },
        networkCondition: { reason: 'FlannelIsUp', message: 'Flannel is running on this node' },
      };
    case 'calico':
      // Calico for Windows (containerd): one HNS network "Calico", VXLAN or windows-bgp (l2bridge);
      // calico-node writes projectcalico.org/* annotations and NetworkUnavailable=CalicoIsUp.
      return {
        hnsNetwork: 'Calico',
        hnsType: overlay ? 'Overlay' : 'L2Bridge',
        confFile: 'C:\\Program Files\\containerd\\cni\\conf\\10-calico.conf',
        conf: json({
          name: 'Calico',
          windows_use_single_network: true,
          cniVersion: '0.3.1',
          type: 'calico',
          mode: overlay ? 'vxlan' : 'windows-bgp',
          vxlan_mac_prefix: '0E-2A',
          vxlan_vni: 4096,
          policy: { type: 'k8s' },
          log_level: 'info',
          capabilities: { dns: true },
          DNS: dns,
          nodename_file: 'c:\\CalicoWindows\\nodename',
          datastore_type: 'kubernetes',
          kubernetes: { kubeconfig: 'c:\\CalicoWindows\\calico-kube-config' },
          ipam: { type: 'calico-ipam', subnet: 'usePodCidr' },
          policies: [
            { Name: 'EndpointPolicy', Value: { Type: 'OutBoundNAT', ExceptionList: [SERVICE_CIDR] } },
            { Name: 'EndpointPolicy', Value: { Type: 'SDNROUTE', DestinationPrefix: SERVICE_CIDR, NeedEncap: true } },
          ],
        }),
        annotations: {
          'projectcalico.org/IPv4Address': `${node.internalIP}/24`,
          ...(overlay
            ? {
                'projectcalico.org/IPv4VXLANTunnelAddr': firstHost(node.podCIDR),
                'projectcalico.org/VXLANTunnelMACAddr': mac(node.nodeName, '0E-2A').toLowerCase().replace(/-/g, ':'),
              }
            : {}),
        },
        networkCondition: { reason: 'CalicoIsUp', message: 'Calico is running on this node' },
      };
    case 'azure-cni':
      // AKS: the node image carries Azure CNI (azure-vnet) in C:\k\azurecni; HNS network "azure"
      // (L2Bridge). No node annotations and no NetworkUnavailable condition (real AKS dumps).
      return {
        hnsNetwork: 'azure',
        hnsType: 'L2Bridge',
        confFile: 'C:\\k\\azurecni\\netconf\\10-azure.conflist',
        conf: json({
          cniVersion: '0.3.0',
          name: 'azure',
          adapterName: '',
          plugins: [
            {
              type: 'azure-vnet',
              mode: 'bridge',
              bridge: 'azure0',
              capabilities: { portMappings: true, dns: true },
              ipam: { type: 'azure-vnet-ipam' },
              dns: { Nameservers: [CLUSTER_DNS, '168.63.129.16'], Search: dns.Search },
              AdditionalArgs: [
                { Name: 'EndpointPolicy', Value: { Type: 'OutBoundNAT', ExceptionList: ['10.224.0.0/12', SERVICE_CIDR] } },
                { Name: 'EndpointPolicy', Value: { Type: 'ROUTE', DestinationPrefix: SERVICE_CIDR, NeedEncap: true } },
              ],
              windowsSettings: { enableLoopbackDSR: true },
            },
          ],
        }),
        annotations: {},
      };
    case 'ovn-kubernetes':
      // OpenShift (WMCO): ovnkube's hybrid overlay; the Windows node gets a subnet annotation
      // and a win-overlay HNS network named OVNKubernetesHybridOverlayNetwork; cni.conf in C:\k\cni\config.
      return {
        hnsNetwork: 'OVNKubernetesHybridOverlayNetwork',
        hnsType: 'Overlay',
        confFile: 'C:\\k\\cni\\config\\cni.conf',
        conf: json({
          CniVersion: '0.2.0',
          Name: 'OVNKubernetesHybridOverlayNetwork',
          Type: 'win-overlay',
          apiVersion: 2,
          Capabilities: { portMappings: true, dns: true },
          Ipam: { Type: 'host-local', Subnet: node.podCIDR },
          Policies: [
            { Name: 'EndpointPolicy', Value: { Type: 'OutBoundNAT', Settings: { Exceptions: [CLUSTER_CIDR, SERVICE_CIDR] } } },
            { Name: 'EndpointPolicy', Value: { Type: 'SDNRoute', Settings: { DestinationPrefix: SERVICE_CIDR, NeedEncap: true } } },
            { Name: 'EndpointPolicy', Value: { Type: 'ProviderAddress', Settings: { ProviderAddress: node.internalIP } } },
          ],
        }),
        annotations:
          node.os === 'windows'
            ? { 'k8s.ovn.org/hybrid-overlay-node-subnet': node.podCIDR, 'k8s.ovn.org/hybrid-overlay-distributed-router-gateway-mac': mac(node.nodeName) }
            : { 'k8s.ovn.org/node-subnets': JSON.stringify({ default: [node.podCIDR] }), 'k8s.ovn.org/host-addresses': JSON.stringify([node.internalIP]) },
      };
    default:
      return {
        hnsNetwork: overlay ? 'vxlan0' : 'cbr0',
        hnsType: overlay ? 'Overlay' : 'L2Bridge',
        confFile: `C:\\etc\\cni\\net.d\\10-${profile.network.cni}.conf`,
        conf: json({ name: profile.network.cni, cniVersion: '0.3.1', type: overlay ? 'win-overlay' : 'win-bridge' }),
        annotations: {},
      };
  }
}
