// One node's kubelet: watches the pods bound to its node and runs a PodWorker for
// each; notices graceful deletion (deletionTimestamp) and force deletion; re-syncs
// secret/configMap volume contents when those objects change, and expands mounted claims
// the resizer grew. Before it starts a pod it admits it against the node's allocatable
// (OutOfcpu, OutOfpods... as the real kubelet rejects a pod bound past the scheduler), and
// while its node is not Ready (kubectl patch of the Ready condition, a fault) it starts no
// new pod: they wait, with a NetworkNotReady event, until the node is Ready again.

import type { V1Node, V1Pod } from '@kubernetes/client-node';
import { kubeletRejection } from '../controllers/fit.ts';
import type { RuntimeContext } from './context.ts';
import type { NodeRuntime } from './nodeRuntime.ts';
import { PodWorker } from './podWorker.ts';
import { NODE_SHUTDOWN_NOT_ADMITTED } from './nodeShutdown.ts';
import { EVICTED_REASON, isBestEffort, NODE_CONDITION_MESSAGE } from './eviction.ts';
import { isBackgroundPod } from '../nodes/background.ts';

export class Kubelet {
  private watch?: { stop(): void };
  private configWatch?: { stop(): void };
  private nodeWatch?: { stop(): void };
  /** Pods bound here while the node was not Ready, started once it is. */
  private held = new Map<string, V1Pod>();

  constructor(
    readonly node: NodeRuntime,
    private ctx: RuntimeContext,
  ) {}

  start(): void {
    this.watch = this.ctx.store.watch('pods', { fieldSelector: `spec.nodeName=${this.node.name}` }, e => {
      const pod = e.object as unknown as V1Pod;
      // Other tenants' load: nothing runs behind it; its deletion is finished at once.
      if (isBackgroundPod(pod)) {
        if (pod.metadata!.deletionTimestamp && e.type !== 'DELETED')
          queueMicrotask(() => {
            try {
              this.ctx.store.delete('pods', pod.metadata!.namespace, pod.metadata!.name!, { gracePeriodSeconds: 0 });
            } catch {
              /* gone */
            }
          });
        return;
      }
      const key = `${pod.metadata!.namespace}/${pod.metadata!.name}`;
      const cur = this.node.pods.get(key);
      if (e.type === 'DELETED') {
        this.held.delete(key);
        if (cur && cur.uid === pod.metadata!.uid) void cur.forget();
        return;
      }
      if (cur && cur.uid === pod.metadata!.uid) {
        cur.update(pod);
        return;
      }
      if (e.type !== 'ADDED' && e.type !== 'MODIFIED') return;
      this.admit(key, pod);
    });
    this.nodeWatch = this.ctx.store.watch('nodes', { fieldSelector: `metadata.name=${this.node.name}` }, () => {
      if (!this.held.size || !this.nodeReady()) return;
      const waiting = [...this.held];
      this.held.clear();
      for (const [key, pod] of waiting) this.admit(key, pod);
    });
    this.watchConfig();
  }

  /** Ready as the node's status says; without a Node object (a runtime run alone) there is nothing to wait for. */
  private nodeReady(): boolean {
    const node = this.ctx.store.peek('nodes', undefined, this.node.name) as unknown as V1Node | undefined;
    return !node || node.status?.conditions?.find(c => c.type === 'Ready')?.status === 'True';
  }

  /** Starts a PodWorker for a pod newly bound here, unless the node is not Ready or cannot fit it. */
  private admit(key: string, pod: V1Pod): void {
    const cur = this.node.pods.get(key);
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    if (pod.metadata!.deletionTimestamp && !cur && this.held.delete(key)) {
      // Held, never started: nothing to tear down; finish the deletion as the kubelet would.
      queueMicrotask(() => {
        try {
          this.ctx.store.delete('pods', pod.metadata!.namespace, pod.metadata!.name!, { gracePeriodSeconds: 0 });
        } catch {
          /* gone */
        }
      });
      return;
    }
    // The shutdown manager's admission handler (sim/runtime/nodeShutdown.ts).
    if (!cur && this.node.shuttingDown) {
      this.reject(pod, NODE_SHUTDOWN_NOT_ADMITTED.reason, NODE_SHUTDOWN_NOT_ADMITTED.message);
      return;
    }
    // The eviction manager's admission handler: no BestEffort pod under MemoryPressure (sim/runtime/eviction.ts).
    if (!cur && this.node.eviction.pressure && isBestEffort(pod) && (pod.spec?.priority ?? 0) < 2_000_000_000) {
      this.reject(pod, EVICTED_REASON, NODE_CONDITION_MESSAGE('[MemoryPressure]'));
      return;
    }
    if (!cur && !this.nodeReady()) {
      if (!this.held.has(key))
        this.node.recorder.pod(
          pod,
          'Warning',
          'NetworkNotReady',
          'network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
        );
      this.held.set(key, pod);
      return;
    }
    if (!cur) {
      const node = this.ctx.store.tryGet('nodes', undefined, this.node.name) as unknown as V1Node | undefined;
      const admitted = [...this.node.pods.values()].filter(w => w.phase !== 'Succeeded' && w.phase !== 'Failed').map(w => w.pod);
      const rejected = node?.status?.allocatable && kubeletRejection(pod, node.status.allocatable, admitted);
      if (rejected) {
        this.reject(pod, rejected.reason, rejected.message);
        return;
      }
    }
    {
      if (cur) void cur.forget();
      const w = new PodWorker(pod, this.node, this.ctx);
      this.node.pods.set(key, w);
      // Started after the watch callback returns: workers write to the store.
      queueMicrotask(() => {
        if (this.node.pods.get(key) !== w) return;
        if (pod.metadata!.deletionTimestamp) {
          void w.terminate(true);
          return;
        }
        w.start();
      });
    }
  }

  /** The kubelet's rejection: phase Failed with the reason and message, and a Warning event. */
  private reject(pod: V1Pod, reason: string, message: string): void {
    this.node.recorder.pod(pod, 'Warning', reason, message);
    queueMicrotask(() => {
      try {
        this.ctx.store.mutate(
          'pods',
          pod.metadata!.namespace,
          pod.metadata!.name!,
          o => {
            if (o.metadata.uid !== pod.metadata!.uid) return;
            o.status = { ...(o.status as object), phase: 'Failed', reason, message, startTime: new Date().toISOString() } as typeof o.status;
          },
          { skipAdmission: true },
        );
      } catch {
        /* pod gone */
      }
    });
  }

  private watchConfig(): void {
    this.configWatch = this.ctx.store.onAny(
      (bucket, e) => {
        const ns = e.object.metadata.namespace;
        if (bucket === 'persistentvolumeclaims') {
          // A claim the resizer grew: node-side expansion by the pods mounting it (after the
          // callback returns: the worker writes to the store).
          const claim = e.object.metadata.name;
          for (const w of this.node.pods.values())
            if (w.pod.metadata!.namespace === ns && w.pod.spec?.volumes?.some(v => v.persistentVolumeClaim?.claimName === claim))
              queueMicrotask(() => w.expandVolumes());
          return;
        }
        if (bucket !== 'secrets' && bucket !== 'configmaps') return;
        for (const w of this.node.pods.values()) if (w.pod.metadata!.namespace === ns) w.refreshVolumes();
      },
      ['persistentvolumeclaims', 'secrets', 'configmaps'],
    );
  }

  pods(): PodWorker[] {
    return [...this.node.pods.values()];
  }

  async stop(): Promise<void> {
    this.watch?.stop();
    this.configWatch?.stop();
    this.nodeWatch?.stop();
    this.node.eviction.stop();
    this.held.clear();
    await Promise.all(this.pods().map(w => w.forget()));
  }
}
