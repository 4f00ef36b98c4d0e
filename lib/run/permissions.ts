// The RBAC preflight of a run: every permission the selected features need, asked by
// SelfSubjectAccessReview before anything is created. Missing ones stop the run (exit 3,
// one line each, naming who needs it); with --skip-unpermitted the features that need
// them run as n/a instead, unless the run itself needs them.

import type { KubeConfig } from '@kubernetes/client-node';
import { describePermission } from '../cluster/permission.ts';
import { accessNeeds, DIAGNOSTICS_PART, neededByRun, runPartNeed } from './access.ts';
import { deniedPermissions } from '../cluster/accessReview.ts';
import { MissingPermissionsError } from '../errors.ts';
import type { Feature } from '../catalog/types.ts';

export interface PermissionCheck {
  features: Feature[];
  /** The run's namespace: namespaced permissions are asked there. */
  namespace: string;
  /** The API server, for the message. */
  server: string;
  /** --skip-unpermitted. */
  skipUnpermitted: boolean;
  signal: AbortSignal;
  /** Where a missing permission that stops nothing is said (the diagnostics' own). */
  log?(line: string): void;
}

/** Feature id → why it is not permitted (with --skip-unpermitted); undefined when nothing is missing. */
export async function checkPermissions(kc: KubeConfig, o: PermissionCheck): Promise<Map<string, string> | undefined> {
  const all = await deniedPermissions(kc, accessNeeds(o.features), o.namespace, o.signal);
  // Diagnostics are no verdict: a permission only they need is a warning, its 403 said in their folder.
  const denied = all.filter(d => !onlyDiagnostics(d));
  for (const d of all.filter(onlyDiagnostics))
    o.log?.(`Warning: missing permission ${describePermission(d, o.namespace)}: diagnostics of failing checks will say what they could not read.`);
  if (!denied.length) return undefined;
  const line = (d: (typeof denied)[number]) =>
    `missing permission: ${describePermission(d, o.namespace)}, needed by ${d.neededBy.join(', ')}${d.reason ? ` (${d.reason})` : ''}`;
  const blocksRun = denied.some(neededByRun);
  if (!o.skipUnpermitted || blocksRun) {
    const hint = blocksRun ? 'the run itself needs them' : '--skip-unpermitted runs the other features';
    throw new MissingPermissionsError(
      [
        `RBAC preflight on ${o.server}: ${denied.length} permission(s) missing; nothing was created (${hint}):`,
        ...denied.map(line),
        '"wincheck rbac" prints the ClusterRole and binding a run needs.',
      ].join('\n'),
    );
  }
  const unpermitted = new Map<string, string>();
  for (const d of denied) {
    for (const id of d.neededBy.filter(w => !neededByRun({ neededBy: [w] })))
      unpermitted.set(id, [unpermitted.get(id), `not permitted: ${describePermission(d, o.namespace)}`].filter(Boolean).join('; '));
  }
  return unpermitted;
}

const onlyDiagnostics = (d: { neededBy: string[] }) => d.neededBy.every(w => w === runPartNeed(DIAGNOSTICS_PART));
