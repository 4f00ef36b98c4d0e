// `wincheck discover` text output: what a maintainer needs to know about the cluster at a glance.

import type { ClusterInfo } from './types.ts';

export function formatClusterInfo(c: ClusterInfo): string {
  const yesNo = (b: boolean) => (b ? 'yes' : 'no');
  const lines = [
    ...(c.simulated ? [`SIMULATED CLUSTER (wincheck sim, profile ${c.simulated.profile}): not a real cluster.`] : []),
    `Server:        ${c.server}${c.context ? ` (context ${c.context})` : ''}`,
    `Kubernetes:    ${c.version.gitVersion}`,
    `Nodes:         ${c.nodes.length} (${c.nodes.filter(n => n.os === 'windows').length} Windows, ${c.nodes.filter(n => n.os === 'linux').length} Linux)`,
  ];
  for (const n of c.nodes) {
    lines.push(`  ${n.name}: ${n.os}${n.windowsBuild ? ` build ${n.windowsBuild}` : ''}, kernel ${n.kernelVersion}, ${n.osImage}`);
    lines.push(
      `    runtime ${n.runtimeName}://${n.runtimeVersion}, kubelet ${n.kubeletVersion}, ${n.ready ? 'Ready' : 'NotReady'}${n.schedulable ? '' : ', unschedulable'}`,
    );
    lines.push(
      `    allocatable cpu ${n.allocatable.cpu ?? '?'} memory ${n.allocatable.memory ?? '?'} (capacity cpu ${n.capacity.cpu ?? '?'} memory ${n.capacity.memory ?? '?'})`,
    );
    if (n.taints.length) lines.push(`    taints ${n.taints.map(t => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(', ')}`);
  }
  lines.push(
    `RuntimeClasses: ${c.runtimeClasses.map(r => `${r.name} (${r.handler})`).join(', ') || 'none'}`,
    `Hyper-V:       ${c.hypervRuntimeClass ? `RuntimeClass ${c.hypervRuntimeClass}` : 'no runhcs-wcow-hypervisor RuntimeClass'}`,
    `StorageClass:  ${c.defaultStorageClass ?? 'no default'}`,
    `CNI:           ${c.network.cni ?? 'unknown'}${c.network.networkMode ? `, mode ${c.network.networkMode}` : ''}`,
    `kube-proxy:    ${c.network.kubeProxyDaemonSets.join(', ') || 'no DaemonSet seen'}${c.network.dsr === undefined ? '' : `, DSR ${c.network.dsr ? 'on' : 'off'}`}`,
    `metrics:       ${yesNo(c.metricsServer)}`,
    `LoadBalancer:  ${c.loadBalancer}`,
    `Dual-stack:    ${yesNo(c.dualStack)}`,
    `IPv6-only:     ${yesNo(c.ipv6Only)}`,
    `HostProcess:   ${yesNo(c.nodeAccess.hostProcess)} (${c.nodeAccess.hostProcessReason})`,
    `SSH:           ${yesNo(c.nodeAccess.ssh)} (${c.nodeAccess.sshReason})`,
  );
  if (c.network.notes.length) lines.push('Notes:', ...c.network.notes.map(n => `  - ${n}`));
  return lines.join('\n');
}
