// Node commands through a HostProcess pod pinned to the node (fixtures/hostprocess.yaml): it
// runs as NT AUTHORITY\SYSTEM on the host network and only stays up; commands are exec'd into
// it. Created in the run namespace with the run label, so it goes with the namespace.

import { apiStatusCode } from '../cluster/apiError.ts';
import { createObject } from '../cluster/create.ts';
import { PodExecTransport } from '../cluster/exec.ts';
import { PodStartError, waitTimeoutForPodReady } from '../cluster/podWait.ts';
import type { KubeClients } from '../cluster/types.ts';
import type { NodeInfo } from '../discovery/types.ts';
import { renderFixture } from '../fixtures/render.ts';
import type { RenderContext } from '../fixtures/types.ts';
import type { CommandResult, Transport } from '../probes/types.ts';

export const HOSTPROCESS_TEMPLATE = 'hostprocess';

/** "wincheck-node-<node>", DNS-1123 and at most 63 characters. */
export function hostProcessPodName(node: string): string {
  const base = `wincheck-node-${node.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`;
  return base.slice(0, 63).replace(/-+$/, '');
}

/** The node's own NoSchedule/NoExecute taints, tolerated by its pinned pod. */
export function nodeTaints(node: NodeInfo): RenderContext['windowsTaints'] {
  return node.taints.filter(t => t.effect === 'NoSchedule' || t.effect === 'NoExecute').map(t => ({ key: t.key, value: t.value, effect: t.effect }));
}

export class HostProcessTransport implements Transport {
  readonly os = 'windows' as const;
  readonly description: string;
  private readonly _exec: PodExecTransport;

  constructor(kube: KubeClients, readonly namespace: string, readonly pod: string, readonly node: string) {
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
}

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
    try {
      await createObject(o.kube, obj);
    } catch (e) {
      if (apiStatusCode((e as Error).cause) !== 409) throw new Error(`HostProcess pod for node ${node.name}: ${(e as Error).message}`, { cause: e });
    }
  }
  try {
    await waitTimeoutForPodReady(o.kube, o.namespace, name, o.timeoutMs, { signal: o.signal });
  } catch (e) {
    const why = e instanceof PodStartError ? e.message : (e as Error).message;
    throw new Error(`HostProcess pod ${o.namespace}/${name} on node ${node.name} did not start: ${why}`, { cause: e });
  }
  const t = new HostProcessTransport(o.kube, o.namespace, name, node.name);
  const who = await t.run(['whoami'], { timeoutMs: 60_000, signal: o.signal });
  const user = who.stdout.trim();
  if (who.exitCode !== 0 || !/^nt authority\\system$/i.test(user))
    throw new Error(`pod ${o.namespace}/${name} on node ${node.name} is not running as a HostProcess container: whoami gave "${user || who.stderr.trim()}" (exit ${who.exitCode}), not nt authority\\system`);
  return t;
}
