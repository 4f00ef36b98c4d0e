// A node restarting as shutdown.exe -r makes a Windows node restart (test/e2e/windows/reboot_node.go
// reboots its node with a HostProcess pod running `shutdown.exe -r -t 30`): after the delay the node
// goes down (Ready False, every container lost with its host: exit 255, reason Unknown), stays down
// as long as a boot takes, then comes back with a new status.nodeInfo.bootID, Ready True and the
// kubelet's Warning event "Rebooted" ("Node %s has been rebooted, boot id: %s", kubelet_node_status.go);
// the containers of pods that restart (restartPolicy Always/OnFailure) start again, restartCount +1.
// Before it goes down, a Windows kubelet whose graceful node shutdown is enabled terminates its pods
// (sim/runtime/nodeShutdown.ts). Times are scaled by the profile's rebootScale (default 0.02: -t 30
// takes 0.6 s, a 60 s boot 1.2 s).
// breaks: node-reboot: shutdown.exe exits 0 and nothing happens (the node never restarts).

import { randomUUID } from 'node:crypto';
import type { V1Node } from '@kubernetes/client-node';
import { setNodeReady } from '../nodes/index.ts';
import type { NodeRuntime } from './nodeRuntime.ts';
import { gracefulShutdown } from './nodeShutdown.ts';

/** How long a Windows node takes to boot, before rebootScale. */
export const BOOT_MS = 60_000;

export function scheduleShutdown(node: NodeRuntime, o: { reboot: boolean; delaySeconds: number }): void {
  const { ctx } = node;
  const scale = ctx.profile.rebootScale ?? 0.02;
  node.serviceLog('kubelet', `"System shutdown requested" reboot=${o.reboot} delaySeconds=${o.delaySeconds}`, 'nodeshutdown_manager_windows.go:182');
  if (ctx.broken('node-reboot', node.os === 'windows')) return;
  ctx.setTimer(() => void goDown(node, o.reboot, scale), o.delaySeconds * 1000 * scale);
}

async function goDown(node: NodeRuntime, reboot: boolean, scale: number): Promise<void> {
  const { ctx } = node;
  if (ctx.stopped) return;
  // The kubelet's preshutdown handling first (Windows graceful node shutdown, when enabled).
  await gracefulShutdown(node, scale).catch(() => undefined);
  if (ctx.stopped) return;
  const back = node.beginDowntime();
  try {
    if (!node.shuttingDown) setNodeReady(ctx.store, ctx.profile, node.name, false);
    for (const w of node.pods.values()) w.hostLost();
    if (!reboot) return; // powered off: it stays down
    await ctx.sleep(BOOT_MS * scale);
    if (ctx.stopped) return;
    const bootID = randomUUID();
    node.bootTime = new Date();
    // The kubelet process starts again: its counters begin from zero.
    node.metrics.reset();
    node.shuttingDown = false;
    ctx.store.mutate('nodes', undefined, node.name, o => {
      const n = o as unknown as V1Node;
      if (n.status?.nodeInfo) n.status.nodeInfo.bootID = bootID;
    });
    node.recorder.nodeEvent('Warning', 'Rebooted', `Node ${node.name} has been rebooted, boot id: ${bootID}`);
    setNodeReady(ctx.store, ctx.profile, node.name, true);
  } catch {
    /* the sim is stopping, or runs without Node objects */
  } finally {
    if (reboot) back();
  }
}
