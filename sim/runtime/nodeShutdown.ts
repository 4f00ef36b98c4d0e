// The Windows kubelet's graceful node shutdown manager (pkg/kubelet/nodeshutdown/
// nodeshutdown_manager_windows.go and nodeshutdown_manager.go), run when the node's shutdown
// begins (shutdown.exe -r/-s, sim/runtime/reboot.ts) and before it goes down:
//  - enabled only with the WindowsGracefulNodeShutdown gate (alpha 1.32 off, beta 1.34 on:
//    sim/nodes/versions.ts) and a non-zero shutdownGracePeriod (profile shutdownGracePeriod,
//    shutdownGracePeriodCriticalPods; /configz serves them);
//  - on the preshutdown notification: the Normal event NodeShutdown "Shutdown manager detected
//    preshutdown event", the node NotReady ("node is shutting down"), new pods rejected
//    (NodeShutdown, "Pod was rejected as the node is shutting down.");
//  - the active pods killed by priority group, lowest first (migrateConfig: priority 0 gets
//    shutdownGracePeriod - shutdownGracePeriodCriticalPods, SystemCriticalPriority (2000000000)
//    and above the critical period), each with the group's period or its own
//    terminationGracePeriodSeconds when shorter; the next group starts when the group's pods are
//    done or its period ran out. A killed pod: phase Failed, reason Terminated, message "Pod was
//    terminated in response to imminent node shutdown.", condition DisruptionTarget
//    (TerminationByKubelet).
// Periods are scaled by the profile's rebootScale (default 0.02).
// breaks: graceful-shutdown: the manager ignores the notification; the pods die with the host.

import { parseDuration } from '../../util/duration.ts';
import { setNodeReady } from '../nodes/index.ts';
import { nodeSpecOf } from '../nodes/nodeSpec.ts';
import { windowsGracefulShutdownGate } from '../nodes/versions.ts';
import type { NodeRuntime } from './nodeRuntime.ts';
import type { PodWorker } from './podWorker.ts';

export const NODE_SHUTDOWN_REASON = 'Terminated';
export const NODE_SHUTDOWN_MESSAGE = 'Pod was terminated in response to imminent node shutdown.';
export const NODE_SHUTDOWN_NOT_ADMITTED = { reason: 'NodeShutdown', message: 'Pod was rejected as the node is shutting down.' };
/** pkg/apis/scheduling SystemCriticalPriority. */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

export interface ShutdownGroup {
  priority: number;
  seconds: number;
}

/** migrateConfig: the two groups from shutdownGracePeriod and shutdownGracePeriodCriticalPods; none when disabled. */
export function shutdownGroups(gracePeriod: string | undefined, criticalPods: string | undefined): ShutdownGroup[] {
  const total = Math.floor((parseDuration(gracePeriod ?? '0s') ?? 0) / 1000);
  const critical = Math.floor((parseDuration(criticalPods ?? '0s') ?? 0) / 1000);
  if (total === 0 || total - critical < 0) return [];
  return [
    { priority: 0, seconds: total - critical },
    { priority: SYSTEM_CRITICAL_PRIORITY, seconds: critical },
  ];
}

/** groupByPriority: a pod goes to the highest group whose priority is not above its own (the lowest group when below all). */
export function groupOf(groups: ShutdownGroup[], priority: number): number {
  let i = 0;
  for (let j = 0; j < groups.length; j++) if (groups[j].priority <= priority) i = j;
  return i;
}

/** The node's shutdown manager, when its gate and configuration enable it. */
export function shutdownManagerGroups(node: NodeRuntime): ShutdownGroup[] {
  const { profile } = node.ctx;
  const spec = nodeSpecOf(profile, node.name);
  if (node.os !== 'windows' || !spec || !windowsGracefulShutdownGate(spec.kubeletVersion, profile.featureGates)) return [];
  return shutdownGroups(profile.shutdownGracePeriod, profile.shutdownGracePeriodCriticalPods);
}

/** Runs the preshutdown handling; resolves when the last group is done (the node may then go down). */
export async function gracefulShutdown(node: NodeRuntime, scale: number): Promise<void> {
  const { ctx } = node;
  const groups = shutdownManagerGroups(node);
  if (!groups.length) return;
  if (ctx.broken('graceful-shutdown', true)) return;
  node.serviceLog('kubelet', '"Shutdown manager detected new preshutdown event" event="preshutdown"', 'nodeshutdown_manager_windows.go:252');
  node.recorder.nodeEvent('Normal', 'NodeShutdown', 'Shutdown manager detected preshutdown event');
  node.shuttingDown = true;
  try {
    setNodeReady(ctx.store, ctx.profile, node.name, false, 'node is shutting down');
  } catch {
    /* runs without Node objects */
  }
  const active = [...node.pods.values()].filter(w => w.active);
  const byGroup = groups.map(() => [] as PodWorker[]);
  for (const w of active) byGroup[groupOf(groups, w.pod.spec?.priority ?? 0)].push(w);
  for (const [i, g] of groups.entries()) {
    const pods = byGroup[i];
    if (!pods.length || ctx.stopped) continue;
    const kills = pods.map(w => {
      const own = w.pod.spec?.terminationGracePeriodSeconds;
      const seconds = own !== undefined && own <= g.seconds ? own : g.seconds;
      node.serviceLog('kubelet', `"Shutdown manager killing pod with gracePeriod" pod="${w.key}" gracePeriod=${seconds}`, 'nodeshutdown_manager.go:143');
      return w.shutdownKill(seconds * 1000 * scale, { reason: NODE_SHUTDOWN_REASON, message: NODE_SHUTDOWN_MESSAGE, disruptionReason: 'TerminationByKubelet' });
    });
    await Promise.race([Promise.all(kills), ctx.sleep(g.seconds * 1000 * scale)]);
  }
  node.serviceLog('kubelet', '"Shutdown manager completed processing preshutdown event, node will shutdown shortly"', 'nodeshutdown_manager_windows.go:262');
}
