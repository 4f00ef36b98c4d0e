// kube-proxy and the CNI as kube-system DaemonSets (Linux and Windows flavours) with the
// ConfigMaps that carry their settings: proxy mode, --enable-dsr / WinDSR, the CNI
// backend for the network mode.

import type { V1ConfigMap, V1DaemonSet } from '@kubernetes/client-node';
import type { Profile } from '../../profiles/types.ts';
import { configMap, daemonSet, hostProcessPod, LINUX_SELECTOR, TOLERATE_ALL } from './objects.ts';

const CLUSTER_CIDR = '10.244.0.0/16';
const FLANNEL_VERSION = 'v0.25.6';

/** DaemonSet names per CNI, as their upstream manifests name them. */
export function cniDaemonSetNames(cni: string): { linux: string; windows: string } {
  switch (cni) {
    case 'flannel': return { linux: 'kube-flannel-ds', windows: 'kube-flannel-ds-windows' };
    case 'calico': return { linux: 'calico-node', windows: 'calico-node-windows' };
    case 'antrea': return { linux: 'antrea-agent', windows: 'antrea-agent-windows' };
    default: return { linux: cni, windows: `${cni}-windows` };
  }
}

/** The HNS network the Windows side creates: flannel names it cbr0 (bridge) or vxlan0. */
function hnsNetworkName(p: Profile): string {
  return p.network.mode === 'overlay' ? 'vxlan0' : 'cbr0';
}

export function kubeProxy(p: Profile): { daemonSets: V1DaemonSet[]; configMaps: V1ConfigMap[] } {
  const version = p.kubernetesVersion;
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
      configMap('kube-proxy', {
        'config.conf': [
          'apiVersion: kubeproxy.config.k8s.io/v1alpha1',
          'kind: KubeProxyConfiguration',
          `clusterCIDR: ${CLUSTER_CIDR}`,
          'mode: iptables',
          '',
        ].join('\n'),
      }, { app: 'kube-proxy' }),
      configMap('kube-proxy-windows', {
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
      }, { app: 'kube-proxy' }),
    ],
    daemonSets: [
      daemonSet('kube-proxy', linuxLabels, {
        hostNetwork: true,
        priorityClassName: 'system-node-critical',
        serviceAccountName: 'kube-proxy',
        nodeSelector: LINUX_SELECTOR,
        tolerations: TOLERATE_ALL,
        containers: [{
          name: 'kube-proxy',
          image: `registry.k8s.io/kube-proxy:${version}`,
          command: ['/usr/local/bin/kube-proxy', '--config=/var/lib/kube-proxy/config.conf', '--hostname-override=$(NODE_NAME)'],
          env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
          securityContext: { privileged: true },
        }],
      }),
      daemonSet('kube-proxy-windows', windowsLabels, hostProcessPod({
        name: 'kube-proxy',
        image: `sigwindowstools/kube-proxy:${version}-${p.network.cni}-hostprocess`,
        command: ['pwsh'],
        args: ['-File', '$env:CONTAINER_SANDBOX_MOUNT_POINT/kube-proxy/run-script.ps1', ...windowsFlags],
        env: [
          { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
          { name: 'KUBE_NETWORK', value: hnsNetworkName(p) },
        ],
      }, 'kube-proxy')),
    ],
  };
}

export function cni(p: Profile): { daemonSets: V1DaemonSet[]; configMaps: V1ConfigMap[] } {
  const names = cniDaemonSetNames(p.network.cni);
  const overlay = p.network.mode === 'overlay';
  const labels = (os: string) => ({ app: p.network.cni, 'k8s-app': p.network.cni, tier: 'node', os });
  if (p.network.cni !== 'flannel') {
    const cfg = `${names.linux}-config`;
    return {
      configMaps: [configMap(cfg, { 'network-mode': p.network.mode }, { app: p.network.cni })],
      daemonSets: [
        daemonSet(names.linux, labels('linux'), { hostNetwork: true, nodeSelector: LINUX_SELECTOR, tolerations: TOLERATE_ALL, containers: [{ name: p.network.cni, image: `${p.network.cni}/${p.network.cni}:latest` }] }),
        daemonSet(names.windows, labels('windows'), hostProcessPod({ name: p.network.cni, image: `sigwindowstools/${p.network.cni}:latest-hostprocess`, env: [{ name: 'NETWORK_MODE', value: p.network.mode }] }, p.network.cni)),
      ],
    };
  }
  const backend = overlay ? { Type: 'vxlan', VNI: 4096, Port: 4789 } : { Type: 'host-gw' };
  const netConf = JSON.stringify({ Network: CLUSTER_CIDR, Backend: backend }, null, 2);
  const windowsCni = JSON.stringify({
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
  }, null, 2);
  return {
    configMaps: [
      configMap('kube-flannel-cfg', { 'net-conf.json': netConf, 'cni-conf.json': JSON.stringify({ name: 'cbr0', cniVersion: '0.3.1', plugins: [{ type: 'flannel', delegate: { hairpinMode: true, isDefaultGateway: true } }, { type: 'portmap', capabilities: { portMappings: true } }] }, null, 2) }, { app: 'flannel', tier: 'node' }),
      configMap('kube-flannel-windows-cfg', { 'net-conf.json': netConf, 'cni-conf-containerd.json': windowsCni, 'network-mode': p.network.mode }, { app: 'flannel', tier: 'node' }),
    ],
    daemonSets: [
      daemonSet(names.linux, labels('linux'), {
        hostNetwork: true,
        priorityClassName: 'system-node-critical',
        serviceAccountName: 'flannel',
        nodeSelector: LINUX_SELECTOR,
        tolerations: TOLERATE_ALL,
        containers: [{ name: 'kube-flannel', image: `docker.io/flannel/flannel:${FLANNEL_VERSION}`, command: ['/opt/bin/flanneld'], args: ['--ip-masq', '--kube-subnet-mgr'] }],
      }),
      daemonSet(names.windows, labels('windows'), hostProcessPod({
        name: 'kube-flannel',
        image: `sigwindowstools/flannel:${FLANNEL_VERSION}-hostprocess`,
        command: ['pwsh'],
        args: ['-File', '$env:CONTAINER_SANDBOX_MOUNT_POINT/mounts/kube-flannel/run.ps1'],
        env: [{ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }, { name: 'KUBE_NETWORK', value: hnsNetworkName(p) }],
      }, 'flannel')),
    ],
  };
}
