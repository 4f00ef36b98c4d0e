// Everything a run calls in the API, declared in one place: each part of the run with the
// permissions its calls need, and each selected feature's own (lib/catalog/access.ts: its fixtures'
// kinds and its probes' extras). The RBAC preflight asks the API about every one of them;
// `wincheck rbac` turns them into the least-privilege ClusterRole (ci/rbac.yaml is that for the
// whole catalog). A call a part makes that is not declared here is a 403 on a least-privilege
// cluster that neither the preflight nor the shipped role foresaw.

import { type AccessNeed, type Permission, permissionKey, permissions } from '../cluster/permission.ts';
import { deleteAccess, featureAccess, fixtureKinds } from '../catalog/access.ts';
import type { Feature } from '../catalog/types.ts';

export const RUN_ITSELF = 'wincheck';
/** The part whose permissions stop nothing when missing (lib/run/permissions.ts). */
export const DIAGNOSTICS_PART = 'diagnostics';

const READ = ['get', 'list', 'watch'];

/** A part of the run and what it calls. */
export interface RunPart {
  part: string;
  access: Permission[];
}

/** The parts of a run of these features, each with the permissions its calls need. */
export function runParts(features: Feature[]): RunPart[] {
  const kinds = fixtureKinds(features);
  const nodes = reachesNodes(features);
  return [
    // lib/cluster/namespace.ts, lease.ts: create (get after a retried create), the heartbeat patch, delete and its watch.
    { part: 'namespace', access: permissions('', 'namespaces', ['create', 'delete', 'patch', ...READ], 'cluster') },
    // lib/cluster/podSecurity.ts: a dry-run pod tells what Pod Security admits.
    { part: 'pod security', access: permissions('', 'pods', ['create'], 'namespace') },
    // lib/discovery: nodes (and the NotReady watch), RuntimeClasses, StorageClasses, kube-system's DaemonSets and ConfigMaps.
    {
      part: 'discovery',
      access: [
        ...permissions('', 'nodes', READ, 'cluster'),
        ...permissions('node.k8s.io', 'runtimeclasses', ['list'], 'cluster'),
        ...permissions('storage.k8s.io', 'storageclasses', ['list'], 'cluster'),
        ...permissions('apps', 'daemonsets', ['list'], 'kube-system'),
        ...permissions('', 'configmaps', ['list'], 'kube-system'),
      ],
    },
    // lib/run/capacity.ts: every pod that takes room on the nodes, and a pod a wave waits for.
    { part: 'capacity', access: [...permissions('', 'pods', ['list'], 'all-namespaces'), ...permissions('', 'pods', ['get'], 'namespace')] },
    // lib/cluster/podWait.ts, sharedPodWaits.ts, workloadWait.ts: pods and the events that say why one does not start.
    { part: 'waits', access: [...permissions('', 'pods', READ, 'namespace'), ...permissions('', 'events', ['list', 'watch'], 'namespace')] },
    // lib/run/prepull.ts: one pull pod per image and node, watched with its events, then deleted together.
    {
      part: 'prepull',
      access: [
        ...permissions('', 'pods', ['create', 'delete', 'deletecollection', 'list', 'watch'], 'namespace'),
        ...permissions('', 'events', ['list', 'watch'], 'namespace'),
      ],
    },
    // lib/run/waves.ts: a wave's fixtures deleted (each object, then their pods at once) and watched until gone.
    {
      part: 'waves',
      access: [...kinds.flatMap(deleteAccess), ...permissions('', 'pods', ['deletecollection', 'list', 'watch'], 'namespace')],
    },
    // lib/transports/hostProcess.ts: the node's HostProcess pod, exec'd into.
    ...(nodes
      ? [
          {
            part: 'node access',
            access: [...permissions('', 'pods', ['create', 'get', 'delete'], 'namespace'), ...permissions('', 'pods/exec', ['get', 'create'], 'namespace')],
          },
        ]
      : []),
    // lib/run/diagnostics: a failing check's fixture pods, their events and their containers' logs (the previous ones too).
    {
      part: DIAGNOSTICS_PART,
      access: [
        ...permissions('', 'pods', ['list'], 'namespace'),
        ...permissions('', 'pods/log', ['get'], 'namespace'),
        ...permissions('', 'events', ['list'], 'namespace'),
      ],
    },
    // lib/cluster/cleanup.ts: the run's namespaces and cluster-scoped objects, by label.
    {
      part: 'cleanup',
      access: [
        ...permissions('', 'namespaces', ['list', 'watch', 'delete'], 'cluster'),
        ...permissions('node.k8s.io', 'runtimeclasses', ['list'], 'cluster'),
        ...permissions('storage.k8s.io', 'storageclasses', ['list'], 'cluster'),
        ...permissions('', 'persistentvolumes', ['list'], 'cluster'),
      ],
    },
  ];
}

/** Whether a run of these features reaches nodes (HostProcess pod or SSH): node-level checks, diagnostics' node logs. */
export function reachesNodes(features: Feature[]): boolean {
  return features.some(f => (f.needs ?? []).some(n => n === 'node-access' || n === 'hostprocess'));
}

/** "wincheck (waves)": who a part's permission is needed by. */
export const runPartNeed = (part: string) => `${RUN_ITSELF} (${part})`;

/** Whether a need is the run's own (missing, it stops the run whatever --skip-unpermitted says). */
export const neededByRun = (n: Pick<AccessNeed, 'neededBy'>) => n.neededBy.some(w => w.startsWith(`${RUN_ITSELF} (`));

/** Every permission a run of these features needs, once each, with who needs it; the run's parts first. */
export function accessNeeds(features: Feature[]): AccessNeed[] {
  const needs = new Map<string, AccessNeed>();
  const add = (p: Permission, who: string) => {
    const k = permissionKey(p);
    const n = needs.get(k) ?? { ...p, neededBy: [] };
    if (!n.neededBy.includes(who)) n.neededBy.push(who);
    needs.set(k, n);
  };
  for (const { part, access } of runParts(features)) for (const p of access) add(p, runPartNeed(part));
  for (const f of features) for (const p of featureAccess(f)) add(p, f.id);
  return [...needs.values()];
}
