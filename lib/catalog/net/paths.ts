// Which network path each networking feature exercises, as data: the connectivity matrix of
// summary.md (lib/report/connectivityMatrix.ts) is laid out from it. A feature not listed here
// (DNS config, session affinity, client-IP preservation...) is a property of a path, not a path.

export type NetSource = 'windows-pod' | 'linux-pod' | 'windows-node' | 'outside';

export type NetDestination =
  | 'windows-pod-same-node'
  | 'windows-pod-other-node'
  | 'linux-pod'
  | 'clusterip'
  | 'own-service'
  | 'nodeport'
  | 'own-nodeport'
  | 'loadbalancer'
  | 'cluster-dns'
  | 'outside-tcp'
  | 'outside-icmp'
  | 'windows-pod-ipv6';

export interface NetPath {
  from: NetSource;
  to: NetDestination;
}

export const NET_PATHS: Readonly<Record<string, NetPath>> = {
  'net.w2w-same-node': { from: 'windows-pod', to: 'windows-pod-same-node' },
  'net.w2w-cross-node': { from: 'windows-pod', to: 'windows-pod-other-node' },
  'net.w2l': { from: 'windows-pod', to: 'linux-pod' },
  'net.l2w': { from: 'linux-pod', to: 'windows-pod-other-node' },
  'net.pod-to-clusterip': { from: 'windows-pod', to: 'clusterip' },
  'net.hairpin': { from: 'windows-pod', to: 'own-service' },
  'net.dns-service': { from: 'windows-pod', to: 'cluster-dns' },
  'net.egress': { from: 'windows-pod', to: 'outside-tcp' },
  'net.icmp-egress': { from: 'windows-pod', to: 'outside-icmp' },
  'net.dual-stack': { from: 'windows-pod', to: 'windows-pod-ipv6' },
  'net.node-to-pod': { from: 'windows-node', to: 'windows-pod-same-node' },
  'net.node-to-service': { from: 'windows-node', to: 'clusterip' },
  'net.nodeport-local': { from: 'windows-node', to: 'own-nodeport' },
  'net.nodeport-external': { from: 'outside', to: 'nodeport' },
  'net.lb': { from: 'outside', to: 'loadbalancer' },
};

export const SOURCE_LABELS: Record<NetSource, string> = {
  'windows-pod': 'Windows pod',
  'linux-pod': 'Linux pod',
  'windows-node': 'Windows node',
  outside: 'outside the cluster',
};

export const DESTINATION_LABELS: Record<NetDestination, string> = {
  'windows-pod-same-node': 'W pod, same node',
  'windows-pod-other-node': 'W pod, other node',
  'linux-pod': 'L pod',
  clusterip: 'ClusterIP',
  'own-service': 'own Service (hairpin)',
  nodeport: 'NodePort on W node',
  'own-nodeport': 'own NodePort',
  loadbalancer: 'LoadBalancer',
  'cluster-dns': 'Service by name (DNS)',
  'outside-tcp': 'outside (TCP)',
  'outside-icmp': 'outside (ICMP)',
  'windows-pod-ipv6': 'W pod over IPv6',
};
