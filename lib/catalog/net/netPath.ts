// The network paths a networking feature can exercise (its `netPath` field): the connectivity
// matrix of summary.md and report.html (lib/report/connectivityMatrix.ts) is laid out from them.
// A feature without one (DNS config, session affinity, client-IP preservation...) is a property
// of a path, not a path.

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
