// kube-proxy and the CNI as kube-system DaemonSets (Linux and Windows flavours) with the
// ConfigMaps that carry their settings: proxy mode, --enable-dsr / WinDSR, the CNI
// backend for the network mode.

import type { V1ConfigMap, V1DaemonSet } from '@kubernetes/client-node';
import type { Profile } from '../../profiles/types.ts';
import { cniNodeFacts } from '../../nodes/cni.ts';
import { nodeSpecs } from '../../nodes/nodeSpec.ts';
import { hostProcessFieldServed, hostProcessOn } from '../../nodes/versions.ts';
import { configMap, daemonSet, hostProcessPod, LINUX_SELECTOR, TOLERATE_ALL } from './objects.ts';

const CLUSTER_CIDR = '10.244.0.0/16';
const FLANNEL_VERSION = 'v0.25.6';

/** DaemonSet names per CNI, as their upstream manifests name them. */
export function cniDaemonSetNames(cni: string): { linux: string; windows: string } {
  switch (cni) {
    case 'flannel':
      return { linux: 'kube-flannel-ds', windows: 'kube-flannel-ds-windows' };
    case 'calico':
      return { linux: 'calico-node', windows: 'calico-node-windows' };
    case 'antrea':
      return { linux: 'antrea-agent', windows: 'antrea-agent-windows' };
    // AKS: Azure CNI itself is on the node image; the CNS agents run as DaemonSets.
    case 'azure-cni':
      return { linux: 'azure-cns', windows: 'azure-cns-win' };
    // OpenShift: ovnkube-node on Linux; Windows runs the hybrid overlay as a service (WMCO).
    case 'ovn-kubernetes':
      return { linux: 'ovnkube-node', windows: 'ovnkube-node-windows' };
    case 'aws-vpc-cni':
      return { linux: 'aws-node', windows: 'aws-node-windows' };
    case 'gke':
      return { linux: 'netd', windows: 'netd-windows' };
    default:
      return { linux: cni, windows: `${cni}-windows` };
  }
}

/** The HNS network the Windows side creates: flannel names it cbr0 (bridge) or vxlan0 (sim/nodes/cni.ts). */
function hnsNetworkName(p: Profile): string {
  return cniNodeFacts(p, { nodeName: '', internalIP: '', podCIDR: '', os: 'windows' }).hnsNetwork;
}

/**
 * The Windows node agents run as HostProcess DaemonSets only where some Windows node can run
 * HostProcess (Kubernetes >= 1.23 with containerd >= 1.6); older clusters ran them as
 * Windows services (the seeds' nssm install), so there is no Windows DaemonSet.
 */
function withoutUnrunnableWindowsAgents<T extends { daemonSets: V1DaemonSet[] }>(p: Profile, objs: T): T {
  const runnable =
    hostProcessFieldServed(p.kubernetesVersion, p.featureGates) && nodeSpecs(p).some(n => n.os === 'windows' && hostProcessOn(n, p.featureGates) === 'host');
  if (runnable) return objs;
  return { ...objs, daemonSets: objs.daemonSets.filter(d => d.spec?.template.spec?.nodeSelector?.['kubernetes.io/os'] !== 'windows') };
}

export function kubeProxy(p: Profile): { daemonSets: V1DaemonSet[]; configMaps: V1ConfigMap[] } {
  const all = withoutUnrunnableWindowsAgents(p, kubeProxyObjects(p));
  const managed = MANAGED_CNI[p.network.cni]?.kubeProxy;
  if (managed === 'none') return { daemonSets: [], configMaps: [] };
  if (managed === 'linux-only')
    return {
      daemonSets: all.daemonSets.filter(d => d.metadata!.name === 'kube-proxy'),
      configMaps: all.configMaps.filter(c => c.metadata!.name === 'kube-proxy'),
    };
  return all;
}

function kubeProxyObjects(p: Profile): { daemonSets: V1DaemonSet[]; configMaps: V1ConfigMap[] } {
  // Image tags carry the release only (a vendor server version reads v1.29.6-eks-db838b0).
  const version = p.kubernetesVersion.replace(/[-+].*$/, '');
  const dsr = !!p.network.kubeProxyEnableDSR;
  const gates = [...(dsr ? ['WinDSR=true'] : []), ...(p.network.mode === 'overlay' ? ['WinOverlay=true'] : [])];
  const windowsFlags = [
    '--proxy-mode=kernelspace',
    `--network-name=${hnsNetworkName(p)}`,
    `--enable-dsr=${dsr}`,
    ...(gates.length ? [`--feature-gates=${gates.join(',')}`] : []),
    `--cluster-cidr=${CLUSTER_CIDR}`,
    '--hostname-override=$(NODE_NAME)',
  ];
  const linuxLabels = { 'k8s-app': 'kube-proxy' };
  const windowsLabels = { 'k8s-app': 'kube-proxy-windows' };
  return {
    configMaps: [
      configMap(
        'kube-proxy',
        {
          'config.conf': [
            'apiVersion: kubeproxy.config.k8s.io/v1alpha1',
            'kind: KubeProxyConfiguration',
            `clusterCIDR: ${CLUSTER_CIDR}`,
            'mode: iptables',
            '',
          ].join('\n'),
        },
        { app: 'kube-proxy' },
      ),
      configMap(
        'kube-proxy-windows',
        {
          'config.conf': [
            'apiVersion: kubeproxy.config.k8s.io/v1alpha1',
            'kind: KubeProxyConfiguration',
            `clusterCIDR: ${CLUSTER_CIDR}`,
            'mode: kernelspace',
            ...(gates.length ? ['featureGates:', ...gates.map(g => `  ${g.replace('=', ': ')}`)] : []),
            'winkernel:',
            `  enableDSR: ${dsr}`,
            `  networkName: ${hnsNetworkName(p)}`,
            '',
          ].join('\n'),
          'run-script.ps1': `& $env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/kube-proxy.exe ${windowsFlags.join(' ')} --kubeconfig=$env:CONTAINER_SANDBOX_MOUNT_POINT/var/lib/kube-proxy/kubeconfig.conf\n`,
        },
        { app: 'kube-proxy' },
      ),
    ],
    daemonSets: [
      daemonSet('kube-proxy', linuxLabels, {
        hostNetwork: true,
        priorityClassName: 'system-node-critical',
        serviceAccountName: 'kube-proxy',
        nodeSelector: LINUX_SELECTOR,
        tolerations: TOLERATE_ALL,
        containers: [
          {
            name: 'kube-proxy',
            image: `registry.k8s.io/kube-proxy:${version}`,
            command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'],
            env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
            securityContext: { privileged: true },
          },
        ],
      }),
      // Providers that run kube-proxy as a Windows service (AKS, EKS, GKE) have no Windows DaemonSet.
      ...(p.windowsLayout?.kubeProxy === 'service'
        ? []
        : [
            daemonSet(
              'kube-proxy-windows',
              windowsLabels,
              hostProcessPod(
                {
                  name: 'kube-proxy',
                  image: `sigwindowstools/kube-proxy:${version}-${p.network.cni}-hostprocess`,
                  command: ['pwsh'],
                  args: ['-File', '$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/run-script.ps1', ...windowsFlags],
                  env: [
                    { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
                    { name: 'KUBE_NETWORK', value: hnsNetworkName(p) },
                  ],
                },
                'kube-proxy',
              ),
            ),
          ]),
    ],
  };
}

export function cni(p: Profile): { daemonSets: V1DaemonSet[]; configMaps: V1ConfigMap[] } {
  const objs = cniObjects(p);
  return withoutUnrunnableWindowsAgents(p, { ...objs, daemonSets: [...objs.daemonSets, ...policyEngineDaemonSets(p, objs.daemonSets)] });
}

/**
 * A NetworkPolicy engine the profile runs beside its CNI (network.networkPolicy): its agents as
 * their manifests name them (AKS --network-policy azure: azure-npm and azure-npm-win; calico or
 * antrea on another CNI: their node agents). None when the CNI's own DaemonSets are the engine.
 */
function policyEngineDaemonSets(p: Profile, cniDaemonSets: V1DaemonSet[]): V1DaemonSet[] {
  const engine = p.network.networkPolicy;
  if (!engine || engine === 'none') return [];
  const names = engine === 'azure-npm' ? { linux: 'azure-npm', windows: 'azure-npm-win' } : cniDaemonSetNames(engine);
  if (cniDaemonSets.some(d => d.metadata!.name === names.linux)) return [];
  const image = engine === 'azure-npm' ? 'mcr.microsoft.com/containernetworking/azure-npm:v1.5.45' : `${engine}/node:latest`;
  return [
    daemonSet(
      names.linux,
      { 'k8s-app': names.linux },
      {
        hostNetwork: true,
        priorityClassName: 'system-node-critical',
        serviceAccountName: p.network.cni,
        nodeSelector: LINUX_SELECTOR,
        tolerations: TOLERATE_ALL,
        containers: [{ name: names.linux, image }],
      },
    ),
    daemonSet(names.windows, { 'k8s-app': names.windows }, hostProcessPod({ name: names.windows, image }, p.network.cni)),
  ];
}

function cniObjects(p: Profile): { daemonSets: V1DaemonSet[]; configMaps: V1ConfigMap[] } {
  const names = cniDaemonSetNames(p.network.cni);
  const overlay = p.network.mode === 'overlay';
  const labels = (os: string) => ({ app: p.network.cni, 'k8s-app': p.network.cni, tier: 'node', os });
  if (p.network.cni === 'calico') return calico(p, names, overlay);
  const managed = MANAGED_CNI[p.network.cni];
  if (managed) {
    // The Windows side is part of the node image or a Windows service: a Linux DaemonSet only.
    return {
      configMaps: [],
      daemonSets: [
        daemonSet(
          names.linux,
          { 'k8s-app': names.linux },
          {
            hostNetwork: true,
            priorityClassName: 'system-node-critical',
            serviceAccountName: p.network.cni,
            nodeSelector: LINUX_SELECTOR,
            tolerations: TOLERATE_ALL,
            containers: [{ name: names.linux, image: managed.image }],
          },
          {},
          { namespace: managed.namespace },
        ),
      ],
    };
  }
  if (p.network.cni !== 'flannel') {
    const cfg = `${names.linux}-config`;
    return {
      configMaps: [configMap(cfg, { 'network-mode': p.network.mode }, { app: p.network.cni })],
      daemonSets: [
        daemonSet(names.linux, labels('linux'), {
          hostNetwork: true,
          nodeSelector: LINUX_SELECTOR,
          tolerations: TOLERATE_ALL,
          containers: [{ name: p.network.cni, image: `${p.network.cni}/${p.network.cni}:latest` }],
        }),
        daemonSet(
          names.windows,
          labels('windows'),
          hostProcessPod(
            { name: p.network.cni, image: `sigwindowstools/${p.network.cni}:latest-hostprocess`, env: [{ name: 'NETWORK_MODE', value: p.network.mode }] },
            p.network.cni,
          ),
        ),
      ],
    };
  }
  const backend = overlay ? { Type: 'vxlan', VNI: 4096, Port: 4789 } : { Type: 'host-gw' };
  const netConf = JSON.stringify({ Network: CLUSTER_CIDR, Backend: backend }, null, 2);
  const windowsCni = JSON.stringify(
    {
      name: overlay ? 'flannel.4096' : 'cbr0',
      cniVersion: '0.3.0',
      type: 'flannel',
      capabilities: { portMappings: true, dns: true },
      delegate: {
        // containerd's HNS plugins: sdnbridge for l2bridge (win-bridge), sdnoverlay for VXLAN (win-overlay).
        type: overlay ? 'sdnoverlay' : 'sdnbridge',
        optionalFlags: { forceBridgeGateway: !overlay },
        policies: [{ Name: 'EndpointPolicy', Value: { Type: 'OutBoundNAT', Settings: { Exceptions: [CLUSTER_CIDR] } } }],
      },
    },
    null,
    2,
  );
  return {
    configMaps: [
      configMap(
        'kube-flannel-cfg',
        {
          'net-conf.json': netConf,
          'cni-conf.json': JSON.stringify(
            {
              name: 'cbr0',
              cniVersion: '0.3.1',
              plugins: [
                { type: 'flannel', delegate: { hairpinMode: true, isDefaultGateway: true } },
                { type: 'portmap', capabilities: { portMappings: true } },
              ],
            },
            null,
            2,
          ),
        },
        { app: 'flannel', tier: 'node' },
      ),
      configMap(
        'kube-flannel-windows-cfg',
        { 'net-conf.json': netConf, 'cni-conf-containerd.json': windowsCni, 'network-mode': p.network.mode },
        { app: 'flannel', tier: 'node' },
      ),
    ],
    daemonSets: [
      daemonSet(names.linux, labels('linux'), {
        hostNetwork: true,
        priorityClassName: 'system-node-critical',
        serviceAccountName: 'flannel',
        nodeSelector: LINUX_SELECTOR,
        tolerations: TOLERATE_ALL,
        containers: [
          {
            name: 'kube-flannel',
            image: `docker.io/flannel/flannel:${FLANNEL_VERSION}`,
            command: ['/opt/bin/flanneld'],
            args: ['--ip-masq', '--kube-subnet-mgr'],
          },
        ],
      }),
      daemonSet(
        names.windows,
        labels('windows'),
        hostProcessPod(
          {
            name: 'kube-flannel',
            image: `sigwindowstools/flannel:${FLANNEL_VERSION}-hostprocess`,
            command: ['pwsh'],
            args: ['-File', '$env:CONTAINER_SANDBOX_MOUNT_POINT/mounts/kube-flannel/run.ps1'],
            env: [
              { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
              { name: 'KUBE_NETWORK', value: hnsNetworkName(p) },
            ],
          },
          'flannel',
        ),
      ),
    ],
  };
}

/**
 * CNIs whose Windows part the platform installs on the node (AKS's Azure CNI in the node
 * image, EKS's VPC CNI via the vpc-resource-controller, OpenShift WMCO's hybrid overlay as a
 * Windows service): only their Linux agent is a DaemonSet, and Windows runs kube-proxy as a
 * service (OVN-Kubernetes replaces kube-proxy altogether).
 */
export const MANAGED_CNI: Record<string, { image: string; namespace?: string; kubeProxy: 'linux-only' | 'none' }> = {
  'azure-cni': { image: 'mcr.microsoft.com/containernetworking/azure-cns:v1.6.5', kubeProxy: 'linux-only' },
  'aws-vpc-cni': { image: '602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni:v1.18.3', kubeProxy: 'linux-only' },
  'ovn-kubernetes': { image: 'quay.io/openshift/origin-ovn-kubernetes:4.16', namespace: 'openshift-ovn-kubernetes', kubeProxy: 'none' },
  // GKE: netd configures the node's CNI; kube-proxy is a static pod on Linux, a service on Windows.
  gke: { image: 'gke.gcr.io/netd:v0.8.4-gke.0', kubeProxy: 'linux-only' },
};

const CALICO_VERSION = 'v3.28.1';

/**
 * Calico as its manifest install lays it out: calico-node (bird or VXLAN backend per
 * calico-config) and calico-node-windows (sig-windows-tools' HostProcess image, calico-windows-config naming the
 * Windows backend: vxlan on overlay, windows-bgp on l2bridge). Node files and annotations: sim/nodes/cni.ts.
 */
function calico(p: Profile, names: { linux: string; windows: string }, overlay: boolean): { daemonSets: V1DaemonSet[]; configMaps: V1ConfigMap[] } {
  const labels = (name: string) => ({ 'k8s-app': name });
  const conf = cniNodeFacts(p, { nodeName: '__KUBERNETES_NODE_NAME__', internalIP: '', podCIDR: '', os: 'windows' }).conf;
  return {
    configMaps: [
      configMap('calico-config', {
        calico_backend: overlay ? 'vxlan' : 'bird',
        veth_mtu: '0',
        typha_service_name: 'none',
        cni_network_config: JSON.stringify(
          {
            name: 'k8s-pod-network',
            cniVersion: '0.3.1',
            plugins: [
              {
                type: 'calico',
                datastore_type: 'kubernetes',
                nodename: '__KUBERNETES_NODE_NAME__',
                ipam: { type: 'calico-ipam' },
                policy: { type: 'k8s' },
                kubernetes: { kubeconfig: '__KUBECONFIG_FILEPATH__' },
              },
              { type: 'portmap', snat: true, capabilities: { portMappings: true } },
            ],
          },
          null,
          2,
        ),
      }),
      configMap('calico-windows-config', {
        CALICO_NETWORKING_BACKEND: overlay ? 'vxlan' : 'windows-bgp',
        KUBERNETES_SERVICE_CIDR: '10.96.0.0/12',
        K8S_SERVICE_CIDR: '10.96.0.0/12',
        DNS_NAME_SERVERS: '10.96.0.10',
        DNS_SEARCH: `svc.${p.network.clusterDomain ?? 'cluster.local'}`,
        VXLAN_VNI: '4096',
        cni_network_config: conf,
      }),
    ],
    daemonSets: [
      daemonSet(names.linux, labels(names.linux), {
        hostNetwork: true,
        priorityClassName: 'system-node-critical',
        serviceAccountName: 'calico',
        nodeSelector: LINUX_SELECTOR,
        tolerations: TOLERATE_ALL,
        containers: [
          {
            name: 'calico-node',
            image: `docker.io/calico/node:${CALICO_VERSION}`,
            env: [{ name: 'CALICO_NETWORKING_BACKEND', valueFrom: { configMapKeyRef: { name: 'calico-config', key: 'calico_backend' } } }],
          },
        ],
      }),
      daemonSet(
        names.windows,
        labels(names.windows),
        hostProcessPod(
          {
            name: 'calico-node',
            image: `sigwindowstools/calico-node:${CALICO_VERSION}-hostprocess`,
            args: ['$env:CONTAINER_SANDBOX_MOUNT_POINT/node.ps1'],
            envFrom: [{ configMapRef: { name: 'calico-windows-config' } }],
            env: [{ name: 'NODENAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
          },
          'calico',
        ),
      ),
    ],
  };
}
