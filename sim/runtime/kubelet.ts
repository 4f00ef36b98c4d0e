// One node's kubelet: watches the pods bound to its node and runs a PodWorker for
// each; notices graceful deletion (deletionTimestamp) and force deletion; re-syncs
// secret/configMap volume contents when those objects change, and expands mounted claims
// the resizer grew.

import type { V1Pod } from '@kubernetes/client-node';
import type { RuntimeContext } from './context.ts';
import type { NodeRuntime } from './nodeRuntime.ts';
import { PodWorker } from './podWorker.ts';

export class Kubelet {
  private watch?: { stop(): void };
  private configWatch?: { stop(): void };

  constructor(readonly node: NodeRuntime, private ctx: RuntimeContext) {}

  start(): void {
    this.watch = this.ctx.store.watch('pods', { fieldSelector: `spec.nodeName=${this.node.name}` }, e => {
      const pod = e.object as unknown as V1Pod;
      const key = `${pod.metadata!.namespace}/${pod.metadata!.name}`;
      const cur = this.node.pods.get(key);
      if (e.type === 'DELETED') {
        if (cur && cur.uid === pod.metadata!.uid) void cur.forget();
        return;
      }
      if (cur && cur.uid === pod.metadata!.uid) { cur.update(pod); return; }
      if (e.type !== 'ADDED' && e.type !== 'MODIFIED') return;
      const phase = pod.status?.phase;
      if (phase === 'Succeeded' || phase === 'Failed') return;
      if (cur) void cur.forget();
      const w = new PodWorker(pod, this.node, this.ctx);
      this.node.pods.set(key, w);
      // Started after the watch callback returns: workers write to the store.
      queueMicrotask(() => {
        if (this.node.pods.get(key) !== w) return;
        if (pod.metadata!.deletionTimestamp) { void w.terminate(true); return; }
        w.start();
      });
    });
    this.configWatch = this.ctx.store.onAny((bucket, e) => {
      const ns = e.object.metadata.namespace;
      if (bucket === 'persistentvolumeclaims') {
        // A claim the resizer grew: node-side expansion by the pods mounting it (after the
        // callback returns: the worker writes to the store).
        const claim = e.object.metadata.name;
        for (const w of this.node.pods.values())
          if (w.pod.metadata!.namespace === ns && w.pod.spec?.volumes?.some(v => v.persistentVolumeClaim?.claimName === claim)) queueMicrotask(() => w.expandVolumes());
        return;
      }
      if (bucket !== 'secrets' && bucket !== 'configmaps') return;
      for (const w of this.node.pods.values()) if (w.pod.metadata!.namespace === ns) w.refreshVolumes();
    });
  }

  pods(): PodWorker[] { return [...this.node.pods.values()]; }

  async stop(): Promise<void> {
    this.watch?.stop();
    this.configWatch?.stop();
    await Promise.all(this.pods().map(w => w.forget()));
  }
}
