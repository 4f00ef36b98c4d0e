// stor.subpath-cleanup: upstream test/e2e/windows/subpath_cleanup.go "Windows subpath cleanup pod
// with multiple subPath mounts should terminate cleanly". Its pod (ConfigMap, Secret, projected and
// downward API volumes mounted key by key through subPaths, emptyDirs and medium Memory emptyDirs)
// starts, is deleted with a 30 s grace period and must be gone from the API. Before v1.37 the
// kubelet leaked the handles of all but the last subPath of a Windows container
// (kubernetes#112630), so the volumes could not be torn down and the pod stayed Terminating.
// The control is a pod with the same volumes mounted whole, on the same node, deleted at the same
// moment: once it is gone the node tears down these volumes and finishes deletions, so the subPath
// pod is given as long again (at least podGoneConfirm) before it counts as stuck.

import { permissions } from '../../cluster/permission.ts';
import { describePod } from '../../cluster/podState.ts';
import { waitForPodGone } from '../../cluster/podWait.ts';
import { apiStatusCode } from '../../cluster/apiError.ts';
import { WaitTimeoutError } from '../../cluster/watch.ts';
import { SUBPATH_HANDLE_LEAK_FIXED, SUBPATH_HANDLE_LEAK_SOURCE } from '../../facts/kubernetes.ts';
import { sources } from '../../facts/sources.ts';
import type { ClusterInfo } from '../../discovery/types.ts';
import { versionAtLeast } from '../../../util/version.ts';
import { limited, supported } from '../expect.ts';
import { control, meansOfStart, podStarted } from '../kit/observe.ts';
import { describeSettled, podSettles, readyOrEvent } from '../kit/podWaits.ts';
import type { CheckContext, EvidenceItem, Expectation, Feature, Observation } from '../types.ts';
import { notReadyObservation, SUBPATH_CLEANUP } from './volumes.ts';

const POD = 'subpath-cleanup';
const CONTROL = 'subpath-cleanup-control';
/** Upstream deletes its pod with a 30 s grace period (DeletePodWithGracePeriod(..., 30)). */
const GRACE_SECONDS = 30;
const UPSTREAM = 'upstream test/e2e/windows/subpath_cleanup.go';

/** Files the subPath mounts show when honoured (the Secret's keys are never read: their values are per run). */
const SUBPATH_FILES: [path: string, content: string][] = [
  ['C:\\etc\\config\\key1', 'value1'],
  ['C:\\etc\\config\\key3', 'value3'],
  ['C:\\etc\\projected\\key1', 'value1'],
  ['C:\\etc\\podinfo\\name', POD],
];

const fixed = SUBPATH_HANDLE_LEAK_FIXED.join('.');

/**
 * By the Windows kubelets' versions (the fix is the kubelet's): supported where every one has it,
 * limited where one predates it (the fixture's node is picked at run time; a newer one shows lifted).
 */
export function subPathCleanupExpectation(c: ClusterInfo): Expectation {
  const kubelets = c.nodes.filter(n => n.os === 'windows' && n.kubeletVersion).map(n => n.kubeletVersion);
  const versions = kubelets.length ? kubelets : [c.version.gitVersion];
  const old = versions.filter(v => !versionAtLeast(v, fixed));
  const source = sources(SUBPATH_CLEANUP, SUBPATH_HANDLE_LEAK_SOURCE);
  return old.length
    ? limited(
        `Windows kubelet ${old[0]} predates v${fixed}: a container with several subPath mounts leaks their handles, so the deleted pod's volumes cannot be torn down and it stays Terminating (kubernetes#112630, fixed by kubernetes#138367 in v${fixed})`,
        source,
      )
    : supported(
        `every Windows kubelet is v${fixed} or newer (${[...new Set(versions)].join(', ')}): a pod with several subPath mounts terminates cleanly, as upstream's subpath_cleanup.go expects (kubernetes#138367)`,
        source,
      );
}

/** Force deletion of a pod left behind (grace 0), so the run's namespace can go; already gone is fine. */
async function forceDelete(ctx: CheckContext, name: string): Promise<void> {
  try {
    await ctx.kube.core.deleteNamespacedPod({ namespace: ctx.namespace, name, gracePeriodSeconds: 0 });
  } catch (e) {
    if (apiStatusCode(e) !== 404) ctx.step(`could not force-delete pod ${name} (${(e as Error).message}): the run's namespace may wait for it`);
  }
}

/**
 * Whatever the check saw or failed on, neither pod is left to the namespace's deletion: on a
 * kubelet that leaks, a graceful delete of the subPath pod never finishes (the kubelet keeps its
 * leaked handles; the API object goes).
 */
async function subPathCleanupProbe(ctx: CheckContext): Promise<Observation> {
  try {
    return await observeSubPathCleanup(ctx);
  } finally {
    await Promise.all([forceDelete(ctx, POD), forceDelete(ctx, CONTROL)]);
  }
}

async function observeSubPathCleanup(ctx: CheckContext): Promise<Observation> {
  ctx.fixture(POD);
  ctx.fixture(CONTROL);
  ctx.step(`waiting for pod ${POD} (13 mounts, 10 of them subPaths) and its control ${CONTROL} (the same volumes, no subPath) to be Ready`);
  // The subject first: a pod that does not start is the observation, whatever its control does.
  const s = await readyOrEvent(ctx, POD, ['FailedMount']);
  if (s.kind !== 'ready')
    return {
      ...notReadyObservation(POD, s, 'the pod with several subPath mounts did not start'),
      contradicts: `${UPSTREAM} creates this pod on Windows and expects it to start`,
    };
  const c = await podSettles(ctx, CONTROL, 'ready');
  if (!c.ok)
    throw (
      meansOfStart(CONTROL, c.error) ??
      new Error(
        `the control pod ${CONTROL} (the same volumes mounted whole) did not start, so the subPath pod's termination cannot be judged: ${c.error.message}`,
      )
    );
  const node = s.pod.spec?.nodeName;
  if (c.pod.spec?.nodeName !== node) throw new Error(`the control pod ${CONTROL} runs on ${c.pod.spec?.nodeName}, not on ${node} with pod ${POD}`);
  const evidence: EvidenceItem[] = [describeSettled(POD, s)];

  // The subPaths are really mounted key by key: a subPath shown as the whole volume is a directory.
  const t = ctx.podTransport(POD, 'windows');
  ctx.step(`reading ${SUBPATH_FILES.map(([p]) => p).join(', ')} (each a subPath mount of one key)`);
  const reads = await Promise.all(SUBPATH_FILES.map(([path]) => ctx.probe(t, { kind: 'read-file', path })));
  evidence.push(...reads.map(r => r.evidence));
  const wrong = SUBPATH_FILES.flatMap(([path, want], i) => {
    const got = reads[i].evidence.stdout.trim();
    return reads[i].ok && got === want ? [] : [reads[i].ok ? `${path} holds "${got.slice(0, 40)}", not "${want}"` : `${path}: ${reads[i].detail}`];
  });
  if (wrong.length)
    return {
      works: false,
      summary: `the pod runs, but its subPath mounts do not show the keys: ${wrong.join('; ')}`,
      evidence,
      node,
      control: podStarted(s.pod, 'with its subPath mounts'),
      contradicts: `${UPSTREAM} mounts each key of its ConfigMap, Secret, projected and downward API volumes by subPath`,
    };

  const started = Date.now();
  ctx.step(`deleting pods ${POD} and ${CONTROL} on ${node} with a ${GRACE_SECONDS} s grace period, as upstream does`);
  await Promise.all([POD, CONTROL].map(name => ctx.kube.core.deleteNamespacedPod({ namespace: ctx.namespace, name, gracePeriodSeconds: GRACE_SECONDS })));
  const bound = ctx.options.timeouts.podGone;
  ctx.step(`watching until ${CONTROL} is gone (at most ${Math.round(bound / 1000)} s, upstream's bound)`);
  try {
    await waitForPodGone(ctx.kube, ctx.namespace, CONTROL, c.pod.metadata?.uid, bound, { signal: ctx.signal });
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    return {
      works: false,
      summary: `neither pod was seen gone: ${e.message}`,
      evidence: [...evidence, e.message],
      node,
      control: control(
        false,
        `the control pod ${CONTROL}, with the same volumes and no subPath, was not gone within ${Math.round(bound / 1000)} s of its deletion`,
      ),
    };
  }
  const controlMs = Date.now() - started;
  const ctl = control(true, `the control pod ${CONTROL} (the same volumes mounted whole, on ${node}) was gone ${controlMs} ms after the deletion`);
  evidence.push(`${CONTROL} gone ${controlMs} ms after the deletion`);
  const confirmMs = Math.max(ctx.options.timeouts.podGoneConfirm, controlMs);
  ctx.step(
    `watching until ${POD} is gone (at most ${Math.round(confirmMs / 1000)} s more: as long again as the control took, at least the kubelet's status sync)`,
  );
  try {
    await waitForPodGone(ctx.kube, ctx.namespace, POD, s.pod.metadata?.uid, confirmMs, { signal: ctx.signal });
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    const left = await ctx.kube.core.readNamespacedPod({ namespace: ctx.namespace, name: POD }).catch(() => undefined);
    const since = left?.metadata?.deletionTimestamp ? new Date(left.metadata.deletionTimestamp).toISOString() : undefined;
    evidence.push(`${POD} still there ${Date.now() - started} ms after the deletion${since ? `, Terminating since ${since}` : ''}: ${describePod(left)}`);
    return {
      works: false,
      summary: `pod ${POD} stayed Terminating: still there ${Math.round((Date.now() - started) / 1000)} s after its deletion, ${Math.round(confirmMs / 1000)} s after its control with the same volumes but no subPath was gone`,
      evidence,
      node,
      control: ctl,
    };
  }
  const podMs = Date.now() - started;
  evidence.push(`${POD} gone ${podMs} ms after the deletion`);
  return {
    works: true,
    summary: `pod ${POD} with 10 subPath mounts was gone ${podMs} ms after its deletion (its control after ${controlMs} ms)`,
    evidence,
    node,
    control: ctl,
  };
}

export const features: Feature[] = [
  {
    id: 'stor.subpath-cleanup',
    area: 'storage',
    title: 'A pod with several subPath mounts (ConfigMap, Secret, projected, downward API) terminates cleanly',
    needs: ['windows-node'],
    access: permissions('', 'pods', ['delete'], 'namespace'),
    // Pinned to the target node: the control must tear down the same volumes on the same kubelet.
    fixtures: [
      { id: POD, template: 'subpath-cleanup', os: 'windows', pin: 'node' },
      { id: CONTROL, template: 'subpath-cleanup-control', os: 'windows', pin: 'node' },
    ],
    expect: subPathCleanupExpectation,
    probe: subPathCleanupProbe,
    // After its control is gone, the pod is given at least podGoneConfirm to go too.
    designedWaitMs: t => t.podGoneConfirm,
  },
];
