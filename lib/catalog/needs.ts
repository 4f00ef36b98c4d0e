// Preconditions (Feature.needs) checked against discovery before a probe runs.

import { schedulableWindowsNodes, usableLinuxNodes } from '../discovery/nodes.ts';
import type { ClusterInfo } from '../discovery/types.ts';
import type { Need } from './types.ts';

/** The run's options that needs depend on. */
export interface NeedOptions {
  egressUrl?: string;
  disruptiveNode?: string;
}

/** Why the need is unmet, or undefined when it is met. */
export function unmetNeed(need: Need, c: ClusterInfo, opts: NeedOptions): string | undefined {
  const win = schedulableWindowsNodes(c.nodes);
  switch (need) {
    case 'windows-node':
      return win.length ? undefined : `the cluster has no Ready, schedulable Windows node${describeOthers(c, 'windows')}`;
    case 'linux-node':
      return usableLinuxNodes(c.nodes).length
        ? undefined
        : `the cluster has no Linux node a helper pod can use (Ready, not cordoned, no NoSchedule/NoExecute taint)${describeOthers(c, 'linux')}`;
    case 'two-windows-nodes':
      return win.length >= 2 ? undefined : `needs two Ready, schedulable Windows nodes, the cluster has ${win.length}${describeOthers(c, 'windows')}`;
    case 'tainted-windows-node':
      return win.some(n => n.taints.some(t => t.effect === 'NoSchedule' || t.effect === 'NoExecute'))
        ? undefined
        : 'no Windows node is tainted (NoSchedule/NoExecute)';
    case 'node-access':
      return c.nodeAccess.hostProcess || c.nodeAccess.ssh
        ? undefined
        : `no node access: HostProcess ${c.nodeAccess.hostProcessReason}; SSH ${c.nodeAccess.sshReason}`;
    case 'hostprocess':
      return c.nodeAccess.hostProcess ? undefined : `HostProcess pods not possible: ${c.nodeAccess.hostProcessReason}`;
    case 'ssh':
      return c.nodeAccess.ssh ? undefined : `no SSH: ${c.nodeAccess.sshReason}`;
    case 'hyperv-runtimeclass':
      return c.hypervRuntimeClass ? undefined : 'no RuntimeClass with handler runhcs-wcow-hypervisor';
    case 'default-storageclass':
      return c.defaultStorageClass ? undefined : 'no default StorageClass';
    case 'metrics-server':
      return c.metricsServer ? undefined : 'metrics.k8s.io is not served (no metrics-server)';
    case 'load-balancer':
      return c.loadBalancer === 'no' ? 'no LoadBalancer provisioner (config loadBalancer: false)' : undefined;
    case 'dual-stack':
      return c.dualStack ? undefined : 'the cluster is not dual-stack (no node has both IPv4 and IPv6 pod CIDRs)';
    case 'egress-url':
      return opts.egressUrl ? undefined : 'no --egress-url given (an address outside the cluster to reach)';
    case 'disruptive-node':
      return opts.disruptiveNode ? undefined : DISRUPTIVE_NOT_ASKED;
  }
}

/** Why a disruptive feature is n/a on a routine run. */
export const DISRUPTIVE_NOT_ASKED = 'disruptive: run with --disruptive --disruptive-node NODE';

/** "; not usable: cp (taint node-role.kubernetes.io/control-plane:NoSchedule), w2 (NotReady)". */
function describeOthers(c: ClusterInfo, os: 'linux' | 'windows'): string {
  const usable = new Set((os === 'linux' ? usableLinuxNodes(c.nodes) : schedulableWindowsNodes(c.nodes)).map(n => n.name));
  const others = c.nodes
    .filter(n => n.os === os && !usable.has(n.name))
    .map(n => {
      const why = !n.ready ? 'NotReady' : !n.schedulable ? `unschedulable${n.taints.length ? ` (taints ${taintList(n)})` : ''}` : `taint ${taintList(n)}`;
      return `${n.name} (${why})`;
    });
  return others.length ? `; not usable: ${others.join(', ')}` : '';
}

function taintList(n: ClusterInfo['nodes'][number]): string {
  return n.taints
    .filter(t => t.effect !== 'PreferNoSchedule')
    .map(t => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`)
    .join(', ');
}
