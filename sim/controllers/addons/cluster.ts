// Cluster add-ons: CoreDNS + kube-dns, metrics-server, RuntimeClasses, the default
// StorageClass. Which ones exist is the profile's addons section.
//
// RuntimeClasses: `hypervRuntimeClass` gives runhcs-wcow-hypervisor; `windowsRuntimeClasses`
// gives one process-isolation class per Windows build present in the profile
// ("windows-2019", "windows-2022", "windows-2025", handler runhcs-wcow-process), each
// selecting its build with node.kubernetes.io/windows-build, as the Windows user guide shows.

import type { V1Deployment, V1RuntimeClass, V1Service, V1StorageClass, V1Toleration } from '@kubernetes/client-node';
import type { Profile } from '../../profiles/types.ts';
import { windowsBuildLabel } from '../../nodes/nodeSpec.ts';
import { configMap, deployment, KUBE_SYSTEM, LINUX_SELECTOR, service } from './objects.ts';

export const DEFAULT_DNS_IP = '127.96.0.10';
const COREDNS_IMAGE = 'registry.k8s.io/coredns/coredns:v1.12.0';
const METRICS_SERVER_IMAGE = 'registry.k8s.io/metrics-server/metrics-server:v0.7.2';

const CRITICAL_ADDON_TOLERATIONS: V1Toleration[] = [
  { key: 'CriticalAddonsOnly', operator: 'Exists' },
  { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' },
];

export function coreDNS(p: Profile, dnsIP: string) {
  const domain = p.network.clusterDomain ?? 'cluster.local';
  const labels = { 'k8s-app': 'kube-dns' };
  const corefile = [
    '.:53 {',
    '    errors',
    '    health {',
    '       lameduck 5s',
    '    }',
    '    ready',
    `    kubernetes ${domain} in-addr.arpa ip6.arpa {`,
    '       pods insecure',
    '       fallthrough in-addr.arpa ip6.arpa',
    '       ttl 30',
    '    }',
    '    prometheus :9153',
    '    forward . /etc/resolv.conf {',
    '       max_concurrent 1000',
    '    }',
    '    cache 30',
    '    loop',
    '    reload',
    '    loadbalance',
    '}',
    '',
  ].join('\n');
  const dep: V1Deployment = deployment('coredns', labels, 2, {
    priorityClassName: 'system-cluster-critical',
    serviceAccountName: 'coredns',
    nodeSelector: LINUX_SELECTOR,
    tolerations: CRITICAL_ADDON_TOLERATIONS,
    containers: [
      {
        name: 'coredns',
        image: COREDNS_IMAGE,
        args: ['-conf', '/etc/coredns/Corefile'],
        ports: [
          { name: 'dns', containerPort: 53, protocol: 'UDP' },
          { name: 'dns-tcp', containerPort: 53, protocol: 'TCP' },
          { name: 'metrics', containerPort: 9153, protocol: 'TCP' },
        ],
        resources: { requests: { cpu: '100m', memory: '70Mi' }, limits: { memory: '170Mi' } },
      },
    ],
  });
  const svc: V1Service = service(
    'kube-dns',
    { ...labels, 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' },
    labels,
    [
      { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
      { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
      { name: 'metrics', port: 9153, protocol: 'TCP', targetPort: 9153 },
    ],
    dnsIP,
  );
  svc.metadata!.annotations = { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' };
  return { deployment: dep, service: svc, configMap: configMap('coredns', { Corefile: corefile }) };
}

export function metricsServer() {
  const labels = { 'k8s-app': 'metrics-server' };
  return {
    deployment: deployment('metrics-server', labels, 1, {
      priorityClassName: 'system-cluster-critical',
      serviceAccountName: 'metrics-server',
      nodeSelector: LINUX_SELECTOR,
      containers: [
        {
          name: 'metrics-server',
          image: METRICS_SERVER_IMAGE,
          args: [
            '--cert-dir=/tmp',
            '--secure-port=10250',
            '--kubelet-preferred-address-types=InternalIP,ExternalIP,Hostname',
            '--kubelet-use-node-status-port',
            '--metric-resolution=15s',
          ],
          ports: [{ name: 'https', containerPort: 10250, protocol: 'TCP' }],
          resources: { requests: { cpu: '100m', memory: '200Mi' } },
        },
      ],
    }),
    service: service('metrics-server', labels, labels, [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 'https' }]),
    /** Stored under apiregistration.k8s.io so the API layer can see metrics.k8s.io is served. */
    apiService: {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io', labels },
      spec: {
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        groupPriorityMinimum: 100,
        versionPriority: 100,
        insecureSkipTLSVerify: true,
        service: { name: 'metrics-server', namespace: KUBE_SYSTEM, port: 443 },
      },
      status: { conditions: [{ type: 'Available', status: 'True', reason: 'Passed', message: 'all checks passed' }] },
    },
  };
}

const WINDOWS_TOLERATION: V1Toleration = { key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' };
const YEAR_OF_BUILD: Record<string, string> = { '10.0.17763': '2019', '10.0.20348': '2022', '10.0.26100': '2025' };

export function runtimeClasses(p: Profile): V1RuntimeClass[] {
  const out: V1RuntimeClass[] = [];
  if (p.addons.hypervRuntimeClass) {
    out.push({
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'runhcs-wcow-hypervisor' },
      handler: 'runhcs-wcow-hypervisor',
      scheduling: { nodeSelector: { 'kubernetes.io/os': 'windows' }, tolerations: [WINDOWS_TOLERATION] },
    });
  }
  if (p.addons.windowsRuntimeClasses) {
    const builds = [...new Set(p.nodes.filter(n => n.os === 'windows').map(n => windowsBuildLabel(n.windowsBuild!)))].sort();
    for (const build of builds) {
      out.push({
        apiVersion: 'node.k8s.io/v1',
        kind: 'RuntimeClass',
        metadata: { name: `windows-${YEAR_OF_BUILD[build] ?? build.split('.')[2]}` },
        handler: 'runhcs-wcow-process',
        scheduling: {
          nodeSelector: { 'kubernetes.io/os': 'windows', 'kubernetes.io/arch': 'amd64', 'node.kubernetes.io/windows-build': build },
          tolerations: [WINDOWS_TOLERATION],
        },
      });
    }
  }
  return out;
}

/** The default class; Immediate binding so a claim binds without waiting for a pod. */
export function defaultStorageClass(): V1StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: {
      name: 'default',
      annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
      labels: { 'addonmanager.kubernetes.io/mode': 'EnsureExists' },
    },
    provisioner: 'disk.csi.azure.com',
    parameters: { skuname: 'StandardSSD_LRS' },
    reclaimPolicy: 'Delete',
    volumeBindingMode: 'Immediate',
    allowVolumeExpansion: true,
  };
}
