// The line every report opens with: which cluster this is, and whether it was simulated.

import { WINCHECK_VERSION } from '../facts/wincheck.ts';
import type { RunInfo } from '../run/events.ts';

export function bannerOf(run: RunInfo): string {
  const c = run.cluster;
  const builds = [...new Set(c.nodes.filter(n => n.os === 'windows').map(n => n.windowsBuild ?? '?'))];
  const where = `cluster ${c.server}${c.context ? ` (context ${c.context})` : ''}, Kubernetes ${c.version.gitVersion}, Windows builds ${builds.join(', ') || 'none'}`;
  return run.simulated
    ? `SIMULATED CLUSTER (wincheck sim, profile ${run.simProfile ?? 'default'}): not a real cluster. wincheck ${WINCHECK_VERSION} run ${run.runId} on ${where}`
    : `wincheck ${WINCHECK_VERSION} run ${run.runId} on ${where}`;
}
