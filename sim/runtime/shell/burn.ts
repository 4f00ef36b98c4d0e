// Busy loops in probes (PowerShell `while ($true) {}`, a loop on a Get-Date deadline,
// sh `while true; do :; done`, `yes > /dev/null`) must not spin the real CPU: an
// empty-bodied loop is run as 100 ms slices of host.resources.burnCpu(1000 m = one
// busy thread), re-checking the loop condition between slices.

import type { ShellHost } from './types.ts';
import { sleep } from './io.ts';

export const BURN_SLICE_MS = 100;

/** Burns while cond() holds; resolves false when the signal aborted. */
export async function burnWhile(host: ShellHost, signal: AbortSignal, cond: () => Promise<boolean>): Promise<boolean> {
  while (!signal.aborted && (await cond())) {
    if (host.resources) await host.resources.burnCpu(1000, BURN_SLICE_MS, signal);
    else await sleep(BURN_SLICE_MS, signal);
  }
  return !signal.aborted;
}
