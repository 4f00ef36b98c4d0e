// The Node object as a real kubelet registers it (plus what the control plane adds:
// role label, podCIDR, lifecycle taints).

import { createHash, randomUUID } from 'node:crypto';
import type { V1Node, V1NodeCondition, V1Taint } from '@kubernetes/client-node';
import type { KubeObject } from '../api/store.ts';
import type { Profile } from '../profiles/types.ts';
import { isBroken } from '../profiles/load.ts';
import { parseQuantity } from '../../util/quantity.ts';
import { formatCpu, formatMemory } from './kubeletUnits.ts';
import { windowsBuildLabel, type ResolvedNodeSpec } from './nodeSpec.ts';
import { kernelVersionOf, osImageOf } from './osInfo.ts';
import { cniNodeFacts } from './cni.ts';

export const KUBELET_PORT = 10250;
const EPHEMERAL_STORAGE = 128 * 2 ** 30;

export const CONTROL_PLANE_TAINT: V1Taint = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
export const UNSCHEDULABLE_TAINT: V1Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
/** What the node lifecycle controller puts on a node that is not Ready. */
export const NOT_READY_TAINTS: V1Taint[] = [
  { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
];

export interface NodeAddressing {
  internalIP: string;
  podCIDR: string;
  /** spec.podCIDRs when the cluster is dual-stack (IPv4 first, then IPv6); default [podCIDR]. */
  podCIDRs?: string[];
}

const hex = (s: string) => createHash('sha256').update(s).digest('hex');

export function nodeLabels(profile: Profile, spec: ResolvedNodeSpec): Record<string, string> {
  const labels: Record<string, string> = {
    'kubernetes.io/arch': 'amd64',
    'kubernetes.io/hostname': spec.name,
    'kubernetes.io/os': spec.os,
    'beta.kubernetes.io/arch': 'amd64',
    'beta.kubernetes.io/os': spec.os,
  };
  const dropBeta = spec.omitBetaOSLabel || (spec.os === 'windows' && isBroken(profile, 'beta-os-label', spec.name));
  if (dropBeta) delete labels['beta.kubernetes.io/os'];
  if (spec.os === 'windows') labels['node.kubernetes.io/windows-build'] = windowsBuildLabel(spec.windowsBuild!);
  if (spec.role === 'control-plane') {
    labels['node-role.kubernetes.io/control-plane'] = '';
    labels['node.kubernetes.io/exclude-from-external-load-balancers'] = '';
  }
  if (spec.hostname) labels['kubernetes.io/hostname'] = spec.hostname;
  const out = { ...labels, ...spec.labels };
  for (const k of spec.removeLabels ?? []) delete out[k];
  return out;
}

export function nodeTaints(spec: ResolvedNodeSpec, ready: boolean): V1Taint[] {
  const taints: V1Taint[] = [...(spec.taints ?? []).map(t => ({ ...t }))];
  // kubeadm before 1.24 (and OpenShift) taint masters node-role.kubernetes.io/master instead.
  const roleTainted = taints.some(t => t.key === CONTROL_PLANE_TAINT.key || t.key === 'node-role.kubernetes.io/master');
  if (spec.role === 'control-plane' && !roleTainted) taints.unshift({ ...CONTROL_PLANE_TAINT });
  // The node lifecycle controller's taint for a cordoned node (TaintNodesByCondition).
  if (spec.unschedulable && !taints.some(t => t.key === UNSCHEDULABLE_TAINT.key)) taints.push({ ...UNSCHEDULABLE_TAINT });
  if (!ready)
    taints.push(...NOT_READY_TAINTS.map(t => ({ ...t, ...(t.effect === 'NoExecute' ? { timeAdded: new Date().toISOString() as unknown as Date } : {}) })));
  return taints;
}

/** The DirectX device plugin's resource (addons.directxDevicePlugin, sim/controllers/addons/devicePlugin.ts). */
export const DIRECTX_RESOURCE = 'microsoft.com/directx';

export function nodeResources(profile: Profile, spec: ResolvedNodeSpec): { capacity: Record<string, string>; allocatable: Record<string, string> } {
  const cpu = parseQuantity(spec.capacity.cpu) ?? 0;
  const memory = parseQuantity(spec.capacity.memory) ?? 0;
  // "0" is what EKS's 2019 Windows nodes report (real-nodes/09b): kept as given.
  const storage = spec.capacity['ephemeral-storage'];
  // The DirectX device plugin registers microsoft.com/directx with a Windows node's kubelet (one GPU).
  const directx: Record<string, string> = profile.addons.directxDevicePlugin && spec.os === 'windows' ? { [DIRECTX_RESOURCE]: '1' } : {};
  const extended = { ...directx, ...spec.extendedResources };
  const capacity = {
    cpu: formatCpu(cpu),
    'ephemeral-storage': storage ?? formatMemory(EPHEMERAL_STORAGE),
    memory: formatMemory(memory),
    pods: spec.capacity.pods,
    ...extended,
  };
  if (isBroken(profile, 'node-reserved', spec.name)) return { capacity, allocatable: { ...capacity } };
  return {
    capacity,
    allocatable: {
      cpu: formatCpu(cpu - (parseQuantity(spec.reservedCpu) ?? 0)),
      'ephemeral-storage': storage ?? formatMemory(EPHEMERAL_STORAGE * 0.9),
      memory: formatMemory(memory - (parseQuantity(spec.reservedMemory) ?? 0)),
      pods: spec.capacity.pods,
      ...extended,
      ...spec.allocatable,
    },
  };
}

/** `notReadyMessage`: the kubelet's words for why it is not Ready (default: the CNI not initialized). */
export function nodeConditions(profile: Profile, ready: boolean, now: string, spec?: ResolvedNodeSpec, notReadyMessage?: string): V1NodeCondition[] {
  const at = now as unknown as Date;
  const cond = (type: string, status: string, reason: string, message: string): V1NodeCondition => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: at,
    lastTransitionTime: at,
  });
  // Set by the CNI daemon (flannel: FlannelIsUp), not by the kubelet; Azure CNI and OVN set none.
  const net = cniNodeFacts(profile, { nodeName: spec?.name ?? '', internalIP: '', podCIDR: '10.244.0.0/24', os: spec?.os ?? 'linux' }).networkCondition;
  const kubelet = [
    ...(net ? [cond('NetworkUnavailable', 'False', net.reason, net.message)] : []),
    cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
  ];
  // The profile's own conditions (an old kubelet's OutOfDisk, a node-problem-detector's) replace by type.
  const own = (spec?.conditions ?? []).map(c => cond(c.type, c.status, c.reason ?? '', c.message ?? ''));
  return [
    ...kubelet.filter(c => !own.some(o => o.type === c.type)),
    ...own,
    ready
      ? cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status')
      : cond(
          'Ready',
          'False',
          'KubeletNotReady',
          notReadyMessage ??
            'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
        ),
  ];
}

export function buildNodeObject(profile: Profile, spec: ResolvedNodeSpec, addr: NodeAddressing): KubeObject {
  const now = new Date().toISOString();
  const id = hex(`${profile.name}/${spec.name}`);
  const uuid = `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`.toUpperCase();
  const cni = cniNodeFacts(profile, { nodeName: spec.name, internalIP: addr.internalIP, podCIDR: addr.podCIDR, os: spec.os });
  const node: V1Node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: spec.name,
      labels: nodeLabels(profile, spec),
      annotations: {
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
        ...(spec.os === 'linux'
          ? { 'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///var/run/containerd/containerd.sock' }
          : { 'kubeadm.alpha.kubernetes.io/cri-socket': 'npipe:////./pipe/containerd-containerd' }),
        ...cni.annotations,
        ...spec.annotations,
      },
    },
    spec: {
      podCIDR: addr.podCIDR,
      podCIDRs: addr.podCIDRs ?? [addr.podCIDR],
      taints: nodeTaints(spec, spec.ready),
      ...(spec.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      ...nodeResources(profile, spec),
      // A node the profile declares NotReady has been so since before anyone looked (an hour), not
      // since this moment: it is down, not flapping (faults.nodeFlap makes a flapping one).
      conditions: nodeConditions(profile, spec.ready, now, spec).map(c =>
        c.type === 'Ready' && !spec.ready ? { ...c, lastTransitionTime: new Date(Date.parse(now) - 3600_000).toISOString() as unknown as Date } : c,
      ),
      // The order the cloud providers write them: InternalIP, ExternalIP, InternalDNS, ExternalDNS, Hostname.
      addresses: [
        { type: 'InternalIP', address: addr.internalIP },
        ...['ExternalIP', 'InternalDNS', 'ExternalDNS'].flatMap(t => (spec.addresses ?? []).filter(a => a.type === t)),
        { type: 'Hostname', address: spec.hostname ?? spec.name },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: KUBELET_PORT } },
      nodeInfo: {
        architecture: 'amd64',
        // breaks: boot-id: the kubelet reports no boot ID.
        bootID: spec.os === 'windows' && isBroken(profile, 'boot-id', spec.name) ? '' : randomUUID(),
        containerRuntimeVersion: spec.containerRuntime,
        kernelVersion: kernelVersionOf(spec),
        kubeProxyVersion: spec.kubeletVersion,
        kubeletVersion: spec.kubeletVersion,
        machineID: spec.os === 'windows' ? spec.name.toUpperCase() : id.slice(0, 32),
        operatingSystem: spec.os,
        osImage: osImageOf(spec),
        systemUUID: uuid,
      },
    },
  };
  if (!node.spec!.taints?.length) delete node.spec!.taints;
  return node as unknown as KubeObject;
}
