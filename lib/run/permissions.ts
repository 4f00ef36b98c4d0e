// The RBAC preflight of a run: every permission the selected features need, asked by
// SelfSubjectAccessReview before anything is created. Missing ones stop the run (exit 3,
// one line each, naming who needs it); with --skip-unpermitted the features that need
// them run as n/a instead, unless the run itself needs them.

import type { KubeConfig } from '@kubernetes/client-node';
import { describePermission } from '../cluster/accessReview.ts';
import { accessNeeds, RUN_ITSELF } from '../catalog/access.ts';
import { deniedPermissions } from '../cluster/accessReview.ts';
import { MissingPermissionsError } from '../errors.ts';
import type { RunState } from './state.ts';

export async function checkPermissions(run: RunState, kc: KubeConfig): Promise<void> {
  const denied = await deniedPermissions(kc, accessNeeds(run.features), run.namespace, run.abort.signal);
  if (!denied.length) return;
  const line = (d: (typeof denied)[number]) => `missing permission: ${describePermission(d, run.namespace)}, needed by ${d.neededBy.join(', ')}${d.reason ? ` (${d.reason})` : ''}`;
  const blocksRun = denied.some(d => d.neededBy.includes(RUN_ITSELF));
  if (!run.config.skipUnpermitted || blocksRun) {
    const hint = blocksRun ? 'the run itself needs them' : '--skip-unpermitted runs the other features';
    throw new MissingPermissionsError([
      `RBAC preflight on ${run.kube.server}: ${denied.length} permission(s) missing; nothing was created (${hint}):`,
      ...denied.map(line),
      '"wincheck rbac" prints the ClusterRole and binding a run needs.',
    ].join('\n'));
  }
  const unpermitted = new Map<string, string>();
  for (const d of denied) {
    for (const id of d.neededBy) unpermitted.set(id, [unpermitted.get(id), `not permitted: ${describePermission(d, run.namespace)}`].filter(Boolean).join('; '));
  }
  run.unpermitted = unpermitted;
}
