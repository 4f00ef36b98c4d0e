// Discovery: everything the catalog's expectations and the reports need, read once per run.
// Each optional read that fails (RBAC, missing API) becomes a note, not a failed run.

import type { V1ConfigMap, V1DaemonSet } from '@kubernetes/client-node';
import { apiErrorMessage } from '../cluster/apiError.ts';
import { describeStage, HOST_PROCESS, onByDefault, stageAt } from '../facts/kubernetes.ts';
import { rawGet } from '../cluster/rawGet.ts';
import type { KubeClients } from '../cluster/types.ts';
import { networkInfoOf } from './network.ts';
import { versionAtLeast } from '../../util/version.ts';
import { windowsNodes } from './nodes.ts';
import { awaitFlappingNodes } from './notReady.ts';
import type { ClusterInfo, NodeAccess, NodeInfo, RuntimeClassInfo } from './types.ts';
import type { ServerVersion } from '../facts/kubernetes.ts';
import { listAll } from '../cluster/list.ts';

export const HYPERV_HANDLER = 'runhcs-wcow-hypervisor';
/** The kube-system ConfigMap by which `wincheck sim` names itself (sim/controllers/addons). */
export const SIMULATED_CLUSTER_CONFIGMAP = 'wincheck-simulated-cluster';

export interface DiscoverOptions {
  version: ServerVersion;
  /** From the config file: skip probing. */
  loadBalancer?: boolean;
  /** Answers whether SSH to this node works; undefined when SSH is not configured. */
  sshCheck?: (node: NodeInfo) => Promise<{ ok: boolean; reason: string }>;
  timeoutMs?: number;
  /** How long to wait for a node that turned NotReady moments ago (notReady.ts); 0: no wait. */
  nodeFlapWaitMs?: number;
  log?: (line: string) => void;
}

export async function discover(kube: KubeClients, opts: DiscoverOptions): Promise<ClusterInfo> {
  const notes: string[] = [];
  const optional = async <T>(what: string, fn: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      notes.push(`could not read ${what}: ${apiErrorMessage(e)}`);
      return fallback;
    }
  };
  let nodeList;
  try {
    nodeList = await listAll(q => kube.core.listNode(q));
  } catch (e) {
    throw new Error(`failed to list nodes: ${apiErrorMessage(e)}; the kubeconfig's user needs list on nodes`, { cause: e });
  }
  const nodes = await awaitFlappingNodes(kube, nodeList.items, opts.nodeFlapWaitMs ?? 0, opts.log ?? (() => undefined));
  const [rcs, scs, dss, cms, metrics] = await Promise.all([
    optional('RuntimeClasses', () => listAll(q => kube.node.listRuntimeClass(q)), { items: [] }),
    optional('StorageClasses', () => listAll(q => kube.storage.listStorageClass(q)), { items: [] }),
    optional('kube-system DaemonSets', () => listAll(q => kube.apps.listNamespacedDaemonSet({ namespace: 'kube-system', ...q })), {
      items: [] as V1DaemonSet[],
    }),
    optional('kube-system ConfigMaps', () => listAll(q => kube.core.listNamespacedConfigMap({ namespace: 'kube-system', ...q })), {
      items: [] as V1ConfigMap[],
    }),
    optional('metrics.k8s.io discovery', () => rawGet(kube, '/apis/metrics.k8s.io', opts.timeoutMs ? { requestTimeoutMs: opts.timeoutMs } : {}), {
      status: 0,
      body: '',
    }),
  ]);
  const runtimeClasses: RuntimeClassInfo[] = rcs.items.map(rc => ({
    name: rc.metadata?.name ?? '',
    handler: rc.handler,
    nodeSelector: rc.scheduling?.nodeSelector,
    tolerations: rc.scheduling?.tolerations?.map(t => ({ key: t.key ?? '', value: t.value, effect: t.effect ?? '' })),
  }));
  const defaultStorageClass = scs.items.find(
    sc =>
      sc.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true' ||
      sc.metadata?.annotations?.['storageclass.beta.kubernetes.io/is-default-class'] === 'true',
  )?.metadata?.name;
  const network = networkInfoOf(dss.items, cms.items);
  network.notes.push(...notes);
  const cluster: ClusterInfo = {
    server: kube.server,
    context: kube.context || undefined,
    version: opts.version,
    nodes,
    runtimeClasses,
    hypervRuntimeClass: runtimeClasses.find(rc => rc.handler === HYPERV_HANDLER)?.name,
    defaultStorageClass,
    network,
    metricsServer: metrics.status === 200,
    loadBalancer: opts.loadBalancer === undefined ? 'unknown' : opts.loadBalancer ? 'yes' : 'no',
    nodeAccess: { hostProcess: false, hostProcessReason: '', ssh: false, sshReason: '' },
    dualStack: isDualStack(nodes),
    ipv6Only: isIPv6Only(nodes),
  };
  const advert = cms.items.find(cm => cm.metadata?.name === SIMULATED_CLUSTER_CONFIGMAP);
  if (advert) cluster.simulated = { profile: advert.data?.profile ?? 'unknown' };
  cluster.nodeAccess = await nodeAccessOf(cluster, opts.sshCheck);
  return cluster;
}

export function isDualStack(nodes: NodeInfo[]): boolean {
  return nodes.some(n => n.podCIDRs.some(c => c.includes(':')) && n.podCIDRs.some(c => !c.includes(':')));
}

export function isIPv6Only(nodes: NodeInfo[]): boolean {
  const withCidrs = nodes.filter(n => n.podCIDRs.length);
  return withCidrs.length > 0 && withCidrs.every(n => n.podCIDRs.every(c => c.includes(':')));
}

export async function nodeAccessOf(cluster: ClusterInfo, sshCheck?: DiscoverOptions['sshCheck']): Promise<NodeAccess> {
  const win = windowsNodes(cluster.nodes).filter(n => n.ready);
  const hp = hostProcessPossible(cluster.version, win);
  let ssh = { ok: false, reason: 'SSH not configured (--ssh-user, --ssh-key, --ssh-known-hosts)' };
  if (sshCheck && win.length)
    ssh = await sshCheck(win[0]).catch(e => ({ ok: false, reason: `SSH check failed: ${e instanceof Error ? e.message : String(e)}` }));
  else if (sshCheck) ssh = { ok: false, reason: 'no Ready Windows node to reach over SSH' };
  return { hostProcess: hp.ok, hostProcessReason: hp.reason, ssh: ssh.ok, sshReason: ssh.reason };
}

/**
 * HostProcess containers: on by default from beta (1.23; GA 1.26), and only on containerd >= 1.6
 * (dockershim never ran them). Alpha (1.22) needs a gate that is off by default: not assumed.
 */
export function hostProcessPossible(version: ServerVersion, win: NodeInfo[]): { ok: boolean; reason: string } {
  if (!onByDefault(HOST_PROCESS, version)) return { ok: false, reason: describeStage(HOST_PROCESS, version) };
  if (!win.length) return { ok: false, reason: 'no Ready Windows node' };
  const ok = win.find(n => n.runtimeName === 'containerd' && versionAtLeast(n.runtimeVersion, '1.6'));
  return ok
    ? {
        ok: true,
        reason: `Kubernetes ${version.gitVersion} >= ${HOST_PROCESS.beta.join('.')} (HostProcess ${stageAt(HOST_PROCESS, version) === 'ga' ? 'GA' : 'beta, on by default'}) and containerd ${ok.runtimeVersion} >= 1.6 on ${ok.name}`,
      }
    : { ok: false, reason: `no Windows node runs containerd >= 1.6 (${win.map(n => `${n.name}: ${n.runtimeName} ${n.runtimeVersion}`).join(', ')})` };
}
