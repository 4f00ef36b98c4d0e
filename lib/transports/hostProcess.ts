// Node commands through a HostProcess pod pinned to the node (fixtures/hostprocess.yaml): it
// runs as NT AUTHORITY\SYSTEM on the host network and only stays up; commands are exec'd into
// it. Created in the run namespace with the run label, so it goes with the namespace.

import { createHash } from 'node:crypto';
import type { V1Pod } from '@kubernetes/client-node';
import { apiStatusCode } from '../cluster/apiError.ts';
import { createObject } from '../cluster/create.ts';
import { PodExecTransport } from './podExec.ts';
import { PodStartError, waitTimeoutForPodReady } from '../cluster/podWait.ts';
import type { KubeClients } from '../cluster/types.ts';
import { keepOffTaints } from '../discovery/nodes.ts';
import type { NodeInfo } from '../discovery/types.ts';
import { NODE_ACCESS_LABEL, RUN_LABEL } from '../labels.ts';
import type { PodReadyHub } from '../cluster/sharedPodWaits.ts';
import { renderFixture } from '../fixtures/render.ts';
import type { RenderContext } from '../fixtures/types.ts';
import type { Transport } from '../probes/types.ts';
import type { CommandResult } from '../cluster/exec.ts';
import type { Limiter } from '../../util/limiter.ts';

export const HOSTPROCESS_TEMPLATE = 'hostprocess';

/**
 * "wincheck-node-<node, shortened>-<hash of the exact node name>": DNS-1123, at most 63
 * characters, and different for any two node names (GKE's run past 50 characters and share long
 * prefixes; "Win_1" and "win-1" read alike once made DNS-safe).
 */
export function hostProcessPodName(node: string): string {
  return perNodeName('wincheck-node', node);
}

/** `${prefix}-${readable part of node}-${8 hex of sha256(node)}`, at most 63 characters. */
export function perNodeName(prefix: string, node: string): string {
  const hash = createHash('sha256').update(node).digest('hex').slice(0, 8);
  const room = 63 - prefix.length - hash.length - 2;
  const readable = node
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, Math.max(0, room))
    .replace(/^-+|-+$/g, '');
  return readable ? `${prefix}-${readable}-${hash}` : `${prefix}-${hash}`;
}

/** The node's own NoSchedule/NoExecute taints but lifecycle ones, tolerated by its pinned pod. */
export function nodeTaints(node: NodeInfo): RenderContext['windowsTaints'] {
  return keepOffTaints(node).map(t => ({ key: t.key, value: t.value, effect: t.effect }));
}

/**
 * A pod of that name already exists: it is ours only when it carries this run's label and is
 * bound to this node. Anything else (another run's, another node's, someone else's) is never
 * adopted: its node would answer for ours.
 */
export function adoptableHostProcessPod(pod: V1Pod, runId: string, node: string): string | undefined {
  const run = pod.metadata?.labels?.[RUN_LABEL];
  if (run !== runId) return `it does not carry this run's label ${RUN_LABEL}=${runId} (has ${run ?? 'none'})`;
  if (pod.spec?.nodeName !== node) return `it is bound to node ${pod.spec?.nodeName ?? '(none)'}, not ${node}`;
  if (!pod.spec?.securityContext?.windowsOptions?.hostProcess) return 'it is not a HostProcess pod';
  return undefined;
}

export class HostProcessTransport implements Transport {
  readonly os = 'windows' as const;
  readonly description: string;
  private readonly _exec: PodExecTransport;

  constructor(
    kube: KubeClients,
    readonly namespace: string,
    readonly pod: string,
    readonly node: string,
  ) {
    this._exec = new PodExecTransport(kube, { namespace, pod, container: 'host' }, 'windows');
    this.description = `hostprocess ${namespace}/${pod} on node ${node}`;
  }

  run(command: string[] | string, opts?: { timeoutMs?: number; signal?: AbortSignal }): Promise<CommandResult> {
    return this._exec.run(command, opts);
  }
}

export interface HostProcessOptions {
  kube: KubeClients;
  namespace: string;
  render: RenderContext;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The run's exec slots: 100 nodes' pods must not all open their first exec at once. */
  execSlots?: Limiter;
  /** One watch for every node's pod (NodeAccess's); without it, a watch of this pod alone. */
  readyHub?: PodReadyHub;
}

/** The label selector of a run's node-access pods (what NodeAccess's one watch lists). */
export const nodeAccessSelector = (runId: string) => `${RUN_LABEL}=${runId},${NODE_ACCESS_LABEL}=hostprocess`;

/**
 * Creates (or reuses) the node's HostProcess pod, waits for it by watch, and checks that it
 * really is one: `whoami` must say nt authority\system (a pod the node runs as an ordinary
 * container would answer with a container user and see nothing of the host).
 */
export async function startHostProcessTransport(node: NodeInfo, o: HostProcessOptions): Promise<HostProcessTransport> {
  const name = hostProcessPodName(node.name);
  const rendered = renderFixture(
    { id: name, template: HOSTPROCESS_TEMPLATE, os: 'windows', pin: 'node' },
    { ...o.render, windowsNode: node.name, windowsTaints: nodeTaints(node) },
  );
  for (const obj of rendered.objects) {
    obj.metadata = { ...obj.metadata, labels: { ...obj.metadata?.labels, [NODE_ACCESS_LABEL]: 'hostprocess' } };
    try {
      await createObject(o.kube, obj);
    } catch (e) {
      if (apiStatusCode((e as Error).cause) !== 409) throw new Error(`HostProcess pod for node ${node.name}: ${(e as Error).message}`, { cause: e });
      const existing = await o.kube.core.readNamespacedPod({ namespace: o.namespace, name });
      const notOurs = adoptableHostProcessPod(existing, o.render.runId, node.name);
      if (notOurs) throw new Error(`HostProcess pod ${o.namespace}/${name} for node ${node.name} already exists and is not ours: ${notOurs}`, { cause: e });
    }
  }
  try {
    await (o.readyHub
      ? o.readyHub.waitReady(name, o.timeoutMs, o.signal)
      : waitTimeoutForPodReady(o.kube, o.namespace, name, o.timeoutMs, { signal: o.signal }));
  } catch (e) {
    const why = e instanceof PodStartError ? e.message : (e as Error).message;
    throw new Error(`HostProcess pod ${o.namespace}/${name} on node ${node.name} did not start: ${why}`, { cause: e });
  }
  const t = new HostProcessTransport(o.kube, o.namespace, name, node.name);
  const whoami = () => t.run(['whoami'], { timeoutMs: 60_000, signal: o.signal });
  const who = await (o.execSlots ? o.execSlots.run(whoami, o.signal) : whoami());
  const user = who.stdout.trim();
  if (who.exitCode !== 0 || !/^nt authority\\system$/i.test(user))
    throw new Error(
      `pod ${o.namespace}/${name} on node ${node.name} is not running as a HostProcess container: whoami gave "${user || who.stderr.trim()}" (exit ${who.exitCode}), not nt authority\\system`,
    );
  return t;
}
