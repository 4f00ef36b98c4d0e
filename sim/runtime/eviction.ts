// The kubelet's eviction manager for memory (pkg/kubelet/eviction/eviction_manager.go,
// helpers.go), per node:
//  - the signal memory.available = capacity - the node's working set (what /stats/summary
//    reports, sim/runtime/stats.ts), against the hard threshold /configz serves (evictionHard
//    memory.available: 500Mi on Windows by default, sim/nodes/kubeletConfig.ts);
//  - met: the node condition MemoryPressure True, reason KubeletHasInsufficientMemory, "kubelet
//    has insufficient memory available" (pkg/kubelet/nodestatus/setters.go MemoryPressureCondition)
//    with the Normal NodeHasInsufficientMemory event, the Warning EvictionThresholdMet "Attempting to
//    reclaim memory" node event, then at most one pod evicted per monitoring period (10 s): the
//    active pods ranked as rankMemoryPressure does (usage above the memory request first, then
//    priority lowest first, then usage minus request largest first), critical pods
//    (priority >= 2000000000) never. The evicted pod: the Warning event Evicted, killed at once (hard
//    threshold: grace 0), phase Failed, reason "Evicted", message "The node was low on resource:
//    memory. Threshold quantity: 500Mi, available: 123Ki. Container c was using 16Gi, request is 0,
//    has larger consumption of memory. " (helpers.go nodeLowMessageFmt, thresholdMetMessageFmt,
//    containerMessageFmt; evictionMessage), condition DisruptionTarget TerminationByKubelet;
//  - the condition stays True until the threshold has not been met for
//    evictionPressureTransitionPeriod (5 min), then False, KubeletHasSufficientMemory, "kubelet has
//    sufficient memory available" with the NodeHasSufficientMemory event. The node lifecycle
//    controller turns the condition into the node.kubernetes.io/memory-pressure:NoSchedule taint
//    (sim/controllers/nodeLifecycle.ts). While it is True the kubelet admits no BestEffort pod
//    (Failed, reason Evicted, "The node had condition: [MemoryPressure]. ": helpers.go
//    nodeConditionMessageFmt, eviction_manager.go Admit).
// Event-driven: a memory allocation or a pod's end asks for a synchronize; the manager then runs
// every monitoring period only while the signal is met or the condition is True. Periods are
// multiplied by the profile's evictionScale (default 0.02).
// breaks: eviction: the condition is reported, no pod is ever evicted.

import type { V1Node, V1NodeCondition, V1Pod } from '@kubernetes/client-node';
import { parseQuantity } from '../../util/quantity.ts';
import { kubeletMemoryConfig } from '../nodes/kubeletConfig.ts';
import { nodeSpecOf } from '../nodes/nodeSpec.ts';
import type { NodeRuntime } from './nodeRuntime.ts';
import type { PodWorker } from './podWorker.ts';
import { nodeMemoryWorkingSet } from './stats.ts';

export const EVICTED_REASON = 'Evicted';
/** pkg/kubelet/eviction/helpers.go. */
export const NODE_LOW_MESSAGE = (resource: string) => `The node was low on resource: ${resource}. `;
const THRESHOLD_MET_MESSAGE = (quantity: string, available: string) => `Threshold quantity: ${quantity}, available: ${available}. `;
const CONTAINER_MESSAGE = (name: string, usage: string, request: string, resource: string) =>
  `Container ${name} was using ${usage}, request is ${request}, has larger consumption of ${resource}. `;
export const NODE_CONDITION_MESSAGE = (conditions: string) => `The node had condition: ${conditions}. `;
/** Kubelet defaults (KubeletConfiguration evictionPressureTransitionPeriod; the manager's monitoring period). */
const MONITORING_PERIOD_MS = 10_000;
const PRESSURE_TRANSITION_MS = 5 * 60_000;
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** A resource.Quantity's String() for bytes, as the kubelet writes it (BinarySI: "500Mi", "123Ki", "16Gi", "0"). */
export function binaryQuantity(bytes: number): string {
  const b = Math.max(0, Math.round(bytes));
  if (b === 0) return '0';
  for (const [suffix, unit] of [
    ['Ei', 2 ** 60],
    ['Pi', 2 ** 50],
    ['Ti', 2 ** 40],
    ['Gi', 2 ** 30],
    ['Mi', 2 ** 20],
    ['Ki', 2 ** 10],
  ] as const)
    if (b % unit === 0) return `${b / unit}${suffix}`;
  // Not a whole number of Ki: the kubelet's quantities of bytes print as a plain number.
  return String(b);
}

interface Ranked {
  w: PodWorker;
  usage: number;
  request: number;
  priority: number;
}

/** rankMemoryPressure: exceeding the memory request first, then lowest priority, then usage above request, largest first. */
export function rankForMemory(pods: Ranked[]): Ranked[] {
  return [...pods].sort((a, b) => {
    const ea = a.usage > a.request ? 1 : 0;
    const eb = b.usage > b.request ? 1 : 0;
    if (ea !== eb) return eb - ea;
    if (a.priority !== b.priority) return a.priority - b.priority;
    return b.usage - b.request - (a.usage - a.request);
  });
}

const sumRequests = (p: V1Pod) => (p.spec?.containers ?? []).reduce((a, c) => a + (parseQuantity(c.resources?.requests?.memory as string | undefined) ?? 0), 0);

/** BestEffort: no container requests or limits anything (v1qos.GetPodQOS). */
export function isBestEffort(p: V1Pod): boolean {
  return [...(p.spec?.initContainers ?? []), ...(p.spec?.containers ?? [])].every(
    c => !Object.keys(c.resources?.requests ?? {}).length && !Object.keys(c.resources?.limits ?? {}).length,
  );
}

export class EvictionManager {
  /** The MemoryPressure condition as this kubelet reports it. */
  pressure = false;
  private lastMetAt = 0;
  private timer?: NodeJS.Timeout;
  private queued = false;

  constructor(private node: NodeRuntime) {}

  private get scale(): number {
    return this.node.ctx.profile.evictionScale ?? 0.02;
  }

  /** The hard threshold for memory.available in bytes (0: none configured, the manager does nothing). */
  threshold(): number {
    const spec = nodeSpecOf(this.node.ctx.profile, this.node.name);
    if (!spec) return 0;
    const v = kubeletMemoryConfig(this.node.ctx.profile, spec).evictionHard['memory.available'];
    if (!v) return 0;
    const pct = /^(\d+(?:\.\d+)?)%$/.exec(v);
    return pct ? (Number(pct[1]) / 100) * this.node.capacity().memory : (parseQuantity(v) ?? 0);
  }

  /** memory.available as the kubelet observes it. */
  available(): number {
    return Math.max(this.node.capacity().memory - nodeMemoryWorkingSet(this.node), 0);
  }

  /** Memory use changed: synchronize soon (once per turn of the event loop). */
  poke(): void {
    if (this.queued || this.node.ctx.stopped) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      this.synchronize();
    });
  }

  private again(ms: number): void {
    if (this.timer || this.node.ctx.stopped) return;
    this.timer = this.node.ctx.setTimer(() => {
      this.timer = undefined;
      this.synchronize();
    }, ms);
  }

  /** One pass of the manager: observe, report the condition, evict at most one pod. */
  synchronize(): void {
    const { ctx } = this.node;
    if (ctx.stopped || this.node.down) return;
    const threshold = this.threshold();
    if (threshold <= 0) return;
    const available = this.available();
    const met = available < threshold;
    const now = Date.now();
    if (met) this.lastMetAt = now;
    if (met && !this.pressure) this.setPressure(true);
    else if (!met && this.pressure && now - this.lastMetAt >= PRESSURE_TRANSITION_MS * this.scale) this.setPressure(false);
    if (met) {
      this.node.recorder.nodeEvent('Warning', 'EvictionThresholdMet', 'Attempting to reclaim memory');
      this.node.serviceLog('kubelet', `"Eviction manager: attempting to reclaim" resourceName="memory"`, 'eviction_manager.go:376');
      if (!ctx.broken('eviction', this.node.os === 'windows')) this.evictOne(threshold, available);
    }
    if (met) this.again(MONITORING_PERIOD_MS * this.scale);
    else if (this.pressure) this.again(Math.max(PRESSURE_TRANSITION_MS * this.scale - (now - this.lastMetAt), 1));
  }

  private evictOne(threshold: number, available: number): void {
    const candidates = [...this.node.pods.values()]
      .filter(w => w.active && w.sandboxReady && (w.pod.spec?.priority ?? 0) < SYSTEM_CRITICAL_PRIORITY)
      .map(w => ({ w, usage: w.containers.reduce((a, c) => a + c.workingSetBytes(), 0), request: sumRequests(w.pod), priority: w.pod.spec?.priority ?? 0 }));
    const victim = rankForMemory(candidates)[0];
    if (!victim) {
      this.node.serviceLog('kubelet', '"Eviction manager: unable to evict any pods from the node"', 'eviction_manager.go:427', 'E');
      return;
    }
    let message = NODE_LOW_MESSAGE('memory') + THRESHOLD_MET_MESSAGE(binaryQuantity(threshold), binaryQuantity(available));
    for (const c of victim.w.containers) {
      const usage = c.workingSetBytes();
      const request = parseQuantity(c.spec.resources?.requests?.memory as string | undefined) ?? 0;
      if (usage > request) message += CONTAINER_MESSAGE(c.name, binaryQuantity(usage), binaryQuantity(request), 'memory');
    }
    this.node.recorder.pod(victim.w.pod, 'Warning', EVICTED_REASON, message);
    this.node.serviceLog('kubelet', `"Evicting pod" pod="${victim.w.key}" message="${message}"`, 'eviction_manager.go:614');
    void victim.w.shutdownKill(0, { reason: EVICTED_REASON, message, disruptionReason: 'TerminationByKubelet' }).then(() => this.poke());
  }

  private setPressure(on: boolean): void {
    this.pressure = on;
    const reason = on ? 'KubeletHasInsufficientMemory' : 'KubeletHasSufficientMemory';
    const message = on ? 'kubelet has insufficient memory available' : 'kubelet has sufficient memory available';
    this.node.recorder.nodeEvent(
      'Normal',
      on ? 'NodeHasInsufficientMemory' : 'NodeHasSufficientMemory',
      `Node ${this.node.name} status is now: ${on ? 'NodeHasInsufficientMemory' : 'NodeHasSufficientMemory'}`,
    );
    const { store } = this.node.ctx;
    if (!store.tryGet('nodes', undefined, this.node.name)) return;
    try {
      store.mutate('nodes', undefined, this.node.name, o => {
        const n = o as unknown as V1Node;
        const now = new Date().toISOString() as unknown as Date;
        const fresh: V1NodeCondition = {
          type: 'MemoryPressure',
          status: on ? 'True' : 'False',
          reason,
          message,
          lastHeartbeatTime: now,
          lastTransitionTime: now,
        };
        const conds = n.status?.conditions ?? [];
        n.status!.conditions = conds.some(c => c.type === 'MemoryPressure') ? conds.map(c => (c.type === 'MemoryPressure' ? fresh : c)) : [...conds, fresh];
      });
    } catch {
      /* node gone */
    }
  }

  stop(): void {
    this.node.ctx.clearTimer(this.timer);
    this.timer = undefined;
  }
}
