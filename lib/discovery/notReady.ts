// Nodes that turned NotReady moments ago: a kubelet restarting, a missed heartbeat, a short
// network blip. Discovery gives them a bounded wait (a watch with a deadline) before the run
// concludes that a need is unmet: a node flapping for a few seconds must not turn
// net.w2w-cross-node into n/a. A node NotReady for longer than the window is down, not flapping:
// no wait.

import type { V1Node } from '@kubernetes/client-node';
import type { KubeClients } from '../cluster/types.ts';
import { watchUntil, WaitTimeoutError } from '../cluster/watch.ts';
import { nodeInfoOf } from './nodes.ts';
import type { NodeInfo } from './types.ts';
import { listAll } from '../cluster/list.ts';

/** A NotReady transition younger than this may be a flap (the node lifecycle controller's grace for a silent kubelet is 40 s). */
export const RECENT_NOT_READY_MS = 2 * 60_000;

/** NotReady nodes whose Ready condition changed within RECENT_NOT_READY_MS of now, not cordoned. */
export function recentlyNotReady(nodes: V1Node[], now = Date.now()): string[] {
  return nodes
    .filter(n => {
      const ready = n.status?.conditions?.find(c => c.type === 'Ready');
      if (!ready || ready.status === 'True' || n.spec?.unschedulable) return false;
      const since = Date.parse(String(ready.lastTransitionTime ?? ''));
      return Number.isFinite(since) && now - since < RECENT_NOT_READY_MS;
    })
    .map(n => n.metadata?.name ?? '');
}

/**
 * Waits up to timeoutMs for the named nodes to be Ready again and returns the nodes as last
 * seen (Ready or not: the need check then says what is missing). Logs what it waits for and how
 * it ended.
 */
export async function awaitFlappingNodes(kube: KubeClients, nodes: V1Node[], timeoutMs: number, log: (line: string) => void): Promise<NodeInfo[]> {
  const waiting = recentlyNotReady(nodes);
  const latest = new Map(nodes.map(n => [n.metadata?.name ?? '', n]));
  const infos = () => [...latest.values()].map(nodeInfoOf).sort((a, b) => a.name.localeCompare(b.name));
  if (!waiting.length || timeoutMs <= 0) return infos();
  const start = Date.now();
  log(
    `Node${waiting.length > 1 ? 's' : ''} ${waiting.join(', ')} turned NotReady within the last ${RECENT_NOT_READY_MS / 60_000} minutes: waiting up to ${Math.round(timeoutMs / 1000)}s for ${waiting.length > 1 ? 'them' : 'it'} to be Ready again.`,
  );
  const notBack = () => waiting.filter(name => !nodeInfoOf(latest.get(name) ?? {}).ready);
  const record = (n: V1Node) => {
    if (n.metadata?.name && waiting.includes(n.metadata.name)) latest.set(n.metadata.name, n);
  };
  try {
    await watchUntil<V1Node, true>({
      kube,
      path: '/api/v1/nodes',
      timeoutMs,
      what: `node${waiting.length > 1 ? 's' : ''} ${waiting.join(', ')} to be Ready`,
      list: () => listAll(q => kube.core.listNode(q)),
      onList: items => {
        items.forEach(record);
        return notBack().length ? undefined : true;
      },
      check: (n, type) => {
        if (type !== 'DELETED') record(n);
        return notBack().length ? undefined : true;
      },
      describe: () =>
        notBack()
          .map(n => `${n} NotReady`)
          .join(', ') || 'all Ready',
    });
    log(`Node${waiting.length > 1 ? 's' : ''} ${waiting.join(', ')} Ready again after ${((Date.now() - start) / 1000).toFixed(1)}s.`);
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    log(`Still NotReady after ${Math.round(timeoutMs / 1000)}s: ${notBack().join(', ')}; the run goes on without ${notBack().length > 1 ? 'them' : 'it'}.`);
  }
  return infos();
}
