// The taint manager of the node lifecycle controller: pods on a node with a NoExecute
// taint they do not tolerate are evicted (deleted) at once; pods tolerating it for
// tolerationSeconds (300 s for not-ready / unreachable by default admission) are
// evicted when that runs out, unless the taint is gone by then.

import type { V1Node, V1Pod, V1Taint } from '@kubernetes/client-node';
import { StoreError } from '../api/store.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { tolerates } from './fit.ts';
import { asPod, isPodTerminal, stableJSON } from './objects.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

const SOURCE = 'taint-eviction-controller';

/** ms until the pod must go: 0 now, Infinity never. */
export function evictionDelay(pod: V1Pod, taints: V1Taint[], now = Date.now()): number {
  let delay = Infinity;
  for (const taint of taints.filter(t => t.effect === 'NoExecute')) {
    const matching = (pod.spec?.tolerations ?? []).filter(t => tolerates(t, taint));
    if (!matching.length) return 0;
    // The shortest bounded toleration wins; an unbounded one tolerates forever.
    if (matching.some(t => t.tolerationSeconds === undefined || t.tolerationSeconds === null)) continue;
    const seconds = Math.min(...matching.map(t => Math.max(0, t.tolerationSeconds!)));
    const added = taint.timeAdded ? new Date(taint.timeAdded as unknown as string).getTime() : now;
    delay = Math.min(delay, Math.max(0, added + seconds * 1000 - now));
  }
  return delay;
}

export function startTaintEvictionController({ store }: ControllerContext): Stoppable {
  const queue = new WorkQueue(SOURCE, key => sync(key));
  const podsOn = (node: string) => store.list('pods', { fieldSelector: `spec.nodeName=${node}` }).items;
  const sub = store.onAny(
    guarded(SOURCE, (bucket, e, old) => {
      if (bucket === 'nodes' && e.type !== 'DELETED') {
        const noExecute = (n: unknown) => stableJSON(((n as V1Node | undefined)?.spec?.taints ?? []).filter(t => t.effect === 'NoExecute'));
        if (e.type === 'ADDED' || noExecute(old) !== noExecute(e.object))
          for (const p of podsOn(e.object.metadata.name!)) queue.add(keyOf(p.metadata.namespace, p.metadata.name!));
      }
      if (
        bucket === 'pods' &&
        e.type !== 'DELETED' &&
        (e.object.spec as { nodeName?: string }).nodeName &&
        !(old?.spec as { nodeName?: string } | undefined)?.nodeName
      )
        queue.add(keyOf(e.object.metadata.namespace, e.object.metadata.name!));
    }),
  );

  function sync(key: string): void {
    const [ns, name] = splitKey(key);
    const obj = store.tryGet('pods', ns, name);
    const pod = obj && asPod(obj);
    if (!obj || !pod?.spec?.nodeName || pod.metadata?.deletionTimestamp || isPodTerminal(pod)) return;
    const node = store.peek('nodes', undefined, pod.spec.nodeName) as unknown as V1Node | undefined;
    const delay = evictionDelay(pod, node?.spec?.taints ?? []);
    if (delay === Infinity) return;
    if (delay > 0) {
      queue.addAfter(key, delay + 10);
      return;
    }
    recordEvent(store, obj, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${ns}/${name}`, SOURCE);
    try {
      store.delete('pods', ns, name);
    } catch (err) {
      if (!(err instanceof StoreError && err.code === 404)) throw err;
    }
  }

  return {
    async stop() {
      sub.stop();
      await queue.stop();
    },
  };
}
