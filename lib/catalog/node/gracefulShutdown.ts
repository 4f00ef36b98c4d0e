// node.graceful-shutdown: upstream's "GracefulNodeShutdown should be able to gracefully shutdown
// pods with various grace periods" (test/e2e/windows/node_shutdown.go, [Serial] [Disruptive]
// [Slow]). On the --disruptive-node: four agnhost `netexec --delay-shutdown 9999` pods with
// terminationGracePeriodSeconds 20 and 25 (priority 0) and 5 and 10 (system-node-critical), and
// a critical 20 s one that keeps the node busy; a HostProcess pod runs `shutdown.exe -r -t 60`.
// The kubelet's Windows shutdown manager (pkg/kubelet/nodeshutdown/nodeshutdown_manager_windows.go,
// killPods in nodeshutdown_manager.go) must kill the non-critical pods first, then the critical
// ones, each ending phase Failed, reason "Terminated", message "Pod was terminated in response to
// imminent node shutdown.", ContainersReady False and the DisruptionTarget condition
// (TerminationByKubelet); no pod may ever report Failed while Ready (kubernetes#108594). Upstream
// stops there; the node reboots (-r), and this check waits for it to be back in service (a new
// bootID, Ready) so the rest of the run and its cleanup find it. The positive control: the node
// really went through a shutdown (its bootID changed).
// Enabled only with the WindowsGracefulNodeShutdown gate (alpha 1.32, off by default; beta 1.34,
// on) and a non-zero shutdownGracePeriod, both read from the kubelet's /configz: where either is
// off, the check is n/a with what /configz said, and the node is not disturbed.

import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { createObject } from '../../cluster/create.ts';
import { listAll } from '../../cluster/list.ts';
import { permissions } from '../../cluster/permission.ts';
import { isPodReady } from '../../cluster/podState.ts';
import { seenBeforeEnd, watchUntil } from '../../cluster/watch.ts';
import { cite, sources } from '../../facts/sources.ts';
import { parseDuration } from '../../../util/duration.ts';
import { versionAtLeast } from '../../../util/version.ts';
import { NODE_SUMMARY_ACCESS } from '../access.ts';
import { notApplicable, supported } from '../expect.ts';
import { configzPath, readKubeletConfigz } from '../kit/configz.ts';
import { control } from '../kit/observe.ts';
import type { CheckContext, Feature, Observation } from '../types.ts';
import { AGNHOST, HOSTPROCESS_IMAGE, bootIdOf, podOnNode, readyOf, runShutdownPod, waitForNodeBack } from './hostShutdown.ts';

const SPEC = cite.e2eTest(
  'node_shutdown.go',
  'GracefulNodeShutdown [Serial] [Disruptive] [Slow] should be able to gracefully shutdown pods with various grace periods',
);
const MANAGER = cite.k8s(
  'pkg/kubelet/nodeshutdown/nodeshutdown_manager_windows.go',
  'NewManager: "Node shutdown manager is disabled as the feature gate is not enabled", "... as no shutdown grace period is configured"',
);
const KILL = cite.k8s(
  'pkg/kubelet/nodeshutdown/nodeshutdown_manager.go',
  'killPods: phase Failed, reason "Terminated", message "Pod was terminated in response to imminent node shutdown.", condition DisruptionTarget reason TerminationByKubelet',
);
const GATE = cite.k8s('pkg/features/kube_features.go', 'WindowsGracefulNodeShutdown: alpha 1.32 (off by default), beta 1.34 (on by default)');

/** The Windows kubelet has a shutdown manager from 1.32 (the gate's alpha). */
export const MIN_KUBELET = '1.32';
const GATE_NAME = 'WindowsGracefulNodeShutdown';
const BY_PRIORITY_GATE = 'GracefulNodeShutdownBasedOnPodPriority';
/** pkg/apis/scheduling SystemCriticalPriority: a pod at or above it is critical (kubelettypes.IsCriticalPod). */
export const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;
export const SHUTDOWN_REASON = 'Terminated';
export const SHUTDOWN_MESSAGE = 'Pod was terminated in response to imminent node shutdown.';
/** Upstream's shutdown.exe -r -t 60. */
const SHUTDOWN_DELAY_S = 60;
/** Upstream's podStatusUpdateTimeout: how long the pods' statuses may take once the node is back. */
const POD_STATUS_UPDATE_MS = 90_000;

/** The part of a KubeletConfiguration the shutdown manager reads. */
export interface KubeletShutdownConfig {
  featureGates?: Record<string, boolean>;
  shutdownGracePeriod?: string;
  shutdownGracePeriodCriticalPods?: string;
  shutdownGracePeriodByPodPriority?: { priority?: number; shutdownGracePeriodSeconds?: number }[];
}

export interface ShutdownGroup {
  priority: number;
  seconds: number;
}

export interface ShutdownConfigReading {
  gateOn: boolean;
  /** "WindowsGracefulNodeShutdown=true in featureGates" / "default of kubelet v1.33.2 (alpha, off)". */
  gate: string;
  /** The kill groups, lowest priority first; empty: the manager is disabled. */
  groups: ShutdownGroup[];
  /** Why the manager is disabled (the check is n/a), or undefined. */
  disabled?: string;
}

const seconds = (d: string | undefined) => Math.floor((parseDuration(d ?? '0s') ?? 0) / 1000);

/** What the kubelet's NewManager decides from its configuration and version. */
export function readShutdownConfig(config: KubeletShutdownConfig, kubeletVersion: string): ShutdownConfigReading {
  const set = config.featureGates?.[GATE_NAME];
  const beta = versionAtLeast(kubeletVersion, '1.34');
  const gateOn = set ?? beta;
  const gate =
    set !== undefined
      ? `${GATE_NAME}=${set} in the kubelet's featureGates`
      : `${GATE_NAME} at the default of kubelet ${kubeletVersion} (${beta ? 'beta, on' : 'alpha, off'} by default)`;
  // newPodManager: the per-priority list when its gate is on (beta from 1.24) and it is non-empty, else the two periods.
  const byPriority = (config.shutdownGracePeriodByPodPriority ?? []).map(p => ({ priority: p.priority ?? 0, seconds: p.shutdownGracePeriodSeconds ?? 0 }));
  let groups: ShutdownGroup[];
  if (byPriority.length && config.featureGates?.[BY_PRIORITY_GATE] !== false) groups = byPriority.sort((a, b) => a.priority - b.priority);
  else {
    const total = seconds(config.shutdownGracePeriod);
    const critical = seconds(config.shutdownGracePeriodCriticalPods);
    groups =
      total === 0 || total < critical
        ? []
        : [
            { priority: 0, seconds: total - critical },
            { priority: SYSTEM_CRITICAL_PRIORITY, seconds: critical },
          ];
  }
  const periods = `shutdownGracePeriod ${JSON.stringify(config.shutdownGracePeriod ?? '0s')}, shutdownGracePeriodCriticalPods ${JSON.stringify(config.shutdownGracePeriodCriticalPods ?? '0s')}`;
  const disabled = !gateOn
    ? `graceful node shutdown is off on this kubelet: ${gate} ("Node shutdown manager is disabled as the feature gate is not enabled")`
    : !groups.length
      ? `graceful node shutdown is not configured on this kubelet: ${periods} ("Node shutdown manager is disabled as no shutdown grace period is configured"; both must be set, shutdownGracePeriod the larger)`
      : undefined;
  return { gateOn, gate, groups, ...(disabled ? { disabled } : {}) };
}

/** The grace period the manager kills a pod with: its group's, or its own when not longer (killPods). */
export function shutdownGraceOf(groups: ShutdownGroup[], priority: number, own: number | undefined): number {
  let g = groups[0];
  for (const x of groups) if (x.priority <= priority) g = x;
  return own !== undefined && own <= g.seconds ? own : g.seconds;
}

/** Upstream's isPodShutdown: phase Failed, the shutdown reason and message, ContainersReady False. */
export function isPodShutdown(p: V1Pod): boolean {
  const s = p.status;
  return (
    s?.phase === 'Failed' &&
    s.reason === SHUTDOWN_REASON &&
    s.message === SHUTDOWN_MESSAGE &&
    (s.conditions ?? []).some(c => c.type === 'ContainersReady' && c.status === 'False')
  );
}

/** The kubelet's DisruptionTarget condition, when True. */
export function disruptionTargetOf(p: V1Pod): { reason?: string; message?: string } | undefined {
  const c = p.status?.conditions?.find(x => x.type === 'DisruptionTarget' && x.status === 'True');
  return c && { reason: c.reason, message: c.message };
}

export interface PodSighting {
  name: string;
  critical: boolean;
  /** Order in which it was first seen shut down (watch events counted), and when (ms after the shutdown pod started). */
  shutdownAt?: { seq: number; ms: number };
  last?: V1Pod;
  /** Seen phase Failed while Ready True at some point. */
  failedReady?: boolean;
}

/** What upstream asserts over the pods, as problems (empty: the shutdown was graceful). */
export function shutdownProblems(pods: PodSighting[]): string[] {
  const problems: string[] = [];
  for (const p of pods) {
    const s = p.last?.status;
    if (!p.shutdownAt)
      problems.push(
        `pod ${p.name} was not shut down by the kubelet (phase ${s?.phase ?? '?'}${s?.reason ? `, reason ${s.reason}` : ''}${s?.message ? `, message ${JSON.stringify(s.message)}` : ''})`,
      );
    else {
      const dt = p.last && disruptionTargetOf(p.last);
      if (!dt || dt.reason !== 'TerminationByKubelet') problems.push(`pod ${p.name} has no DisruptionTarget condition with reason TerminationByKubelet`);
    }
    if (p.failedReady) problems.push(`pod ${p.name} reported phase Failed while Ready (kubernetes#108594)`);
    if (p.last && !(p.last.status?.conditions ?? []).some(c => c.status === 'False')) problems.push(`pod ${p.name} kept every condition True`);
  }
  const normal = pods.filter(p => !p.critical && p.shutdownAt);
  const critical = pods.filter(p => p.critical && p.shutdownAt);
  const lastNormal = normal.reduce<PodSighting | undefined>((a, p) => (!a || p.shutdownAt!.seq > a.shutdownAt!.seq ? p : a), undefined);
  const early = lastNormal && critical.filter(c => c.shutdownAt!.seq < lastNormal.shutdownAt!.seq);
  if (early?.length) problems.push(`critical pod(s) ${early.map(c => c.name).join(', ')} shut down before non-critical pod ${lastNormal!.name}`);
  return problems;
}

/** Upstream's getGracePeriodOverrideTestPod: agnhost netexec that holds on for 9999 s after the stop signal. */
function gracePod(ctx: CheckContext, node: string, name: string, grace: number, critical: boolean): V1Pod {
  return podOnNode(ctx, node, name, {
    terminationGracePeriodSeconds: grace,
    ...(critical ? { priorityClassName: 'system-node-critical' } : {}),
    containers: [{ name, image: AGNHOST, command: ['/agnhost', 'netexec', '--delay-shutdown', '9999'] }],
  });
}

/** Upstream's pods: period-20, period-25 (normal), period-critical-5, period-critical-10, and the critical delay-shutdown-20. */
const PODS: { name: string; grace: number; critical: boolean }[] = [
  { name: 'period-20', grace: 20, critical: false },
  { name: 'period-25', grace: 25, critical: false },
  { name: 'period-critical-5', grace: 5, critical: true },
  { name: 'period-critical-10', grace: 10, critical: true },
  { name: 'delay-shutdown-20', grace: 20, critical: true },
];

async function gracefulShutdownProbe(ctx: CheckContext): Promise<Observation> {
  const name = ctx.options.disruptiveNode;
  if (!name) throw new Error('node.graceful-shutdown ran without --disruptive-node');
  const kube = ctx.kube;
  const t = ctx.options.timeouts;
  const before = await kube.core.readNode({ name });
  const kubeletVersion = before.status?.nodeInfo?.kubeletVersion ?? '';
  const bootBefore = bootIdOf(before);
  const evidence: string[] = [`node ${name}: kubelet ${kubeletVersion || '?'}, bootID before ${JSON.stringify(bootBefore)}, Ready ${readyOf(before)}`];
  if (kubeletVersion && !versionAtLeast(kubeletVersion, MIN_KUBELET)) {
    const why = `kubelet ${kubeletVersion} on ${name} has no Windows graceful node shutdown (${GATE_NAME} is alpha from 1.32)`;
    return { works: false, summary: why, evidence, node: name, notApplicable: why };
  }

  ctx.step(`reading the shutdown configuration of ${name}'s kubelet (/configz)`);
  const config = await readKubeletConfigz<KubeletShutdownConfig>(kube, name);
  const reading = readShutdownConfig(config, kubeletVersion);
  evidence.push(
    `GET ${configzPath(name)}: featureGates ${JSON.stringify(config.featureGates ?? {})}, shutdownGracePeriod ${JSON.stringify(config.shutdownGracePeriod ?? null)}, shutdownGracePeriodCriticalPods ${JSON.stringify(config.shutdownGracePeriodCriticalPods ?? null)}${config.shutdownGracePeriodByPodPriority?.length ? `, shutdownGracePeriodByPodPriority ${JSON.stringify(config.shutdownGracePeriodByPodPriority)}` : ''}`,
    `${reading.gate}; kill groups ${reading.groups.length ? reading.groups.map(g => `priority >= ${g.priority}: ${g.seconds} s`).join(', ') : 'none'}`,
  );
  if (reading.disabled)
    return { works: false, summary: reading.disabled, evidence, node: name, notApplicable: `${reading.disabled}; the node was not shut down` };

  ctx.step(
    `creating ${PODS.length} pods on ${name} (agnhost netexec --delay-shutdown 9999; grace periods ${PODS.map(p => `${p.grace} s${p.critical ? ' critical' : ''}`).join(', ')})`,
  );
  await Promise.all(PODS.map(p => createObject(kube, gracePod(ctx, name, p.name, p.grace, p.critical))));
  const running = await Promise.all(PODS.map(p => ctx.waitForPodReady(p.name)));
  const sightings: PodSighting[] = running.map(p => ({ name: p.metadata!.name!, critical: (p.spec?.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY }));
  for (const [i, p] of running.entries()) {
    const own = p.spec?.terminationGracePeriodSeconds;
    evidence.push(
      `pod ${sightings[i].name} Ready on ${name}: priority ${p.spec?.priority ?? 0}${sightings[i].critical ? ' (critical)' : ''}, terminationGracePeriodSeconds ${own}; the kubelet should kill it with ${shutdownGraceOf(reading.groups, p.spec?.priority ?? 0, own)} s`,
    );
  }
  const mine = new Map(sightings.map(s => [s.name, s]));

  // Every status change of the pods from now on, in order: the shutdown's sequence is read from it.
  const since = Date.now();
  let seq = 0;
  const stop = new AbortController();
  const onRunAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onRunAbort, { once: true });
  const path = `/api/v1/namespaces/${encodeURIComponent(ctx.namespace)}/pods`;
  const watched = seenBeforeEnd(
    watchUntil<V1Pod, true>({
      kube,
      path,
      fieldSelector: `spec.nodeName=${name}`,
      list: () => listAll(q => kube.core.listNamespacedPod({ namespace: ctx.namespace, fieldSelector: `spec.nodeName=${name}`, ...q })),
      check: p => {
        const s = mine.get(p.metadata?.name ?? '');
        if (!s) return undefined;
        seq++;
        s.last = p;
        if (p.status?.phase === 'Failed' && isPodReady(p)) s.failedReady = true;
        if (!s.shutdownAt && isPodShutdown(p)) s.shutdownAt = { seq, ms: Date.now() - since };
        return sightings.every(x => x.shutdownAt) ? true : undefined;
      },
      what: `the ${PODS.length} pods on ${name} to be shut down by the kubelet`,
      describe: () => sightings.map(s => `${s.name} ${s.last?.status?.phase ?? '?'}${s.shutdownAt ? ' (shut down)' : ''}`).join(', '),
      timeoutMs: t.nodeReboot,
      signal: stop.signal,
    }),
    stop.signal,
    ctx.signal,
  );

  // Awaited below; an interrupt before then must not leave its rejection unhandled.
  watched.catch(() => undefined);
  let settle: NodeJS.Timeout | undefined;
  try {
    const ran = await runShutdownPod(ctx, name, 'shutdown-host', SHUTDOWN_DELAY_S);
    evidence.push(ran.line);
    if (!ran.ok)
      return {
        works: false,
        summary: `the HostProcess pod running shutdown.exe -r failed (${ran.line})`,
        evidence,
        node: name,
        control: control(false, `shutdown.exe -r -t ${SHUTDOWN_DELAY_S} did not run on ${name}: ${ran.line}`),
      };
    const back = await waitForNodeBack(ctx, name, bootBefore, since);
    evidence.push(back.line);
    if (back.notReadyMessage) evidence.push(`node ${name} Ready condition while down: ${JSON.stringify(back.notReadyMessage)}`);
    // The pods' last statuses may come after the node is back (upstream allows them 90 s).
    settle = setTimeout(() => stop.abort(), Math.min(POD_STATUS_UPDATE_MS, t.nodeReboot));
    const all = await watched;
    for (const s of sightings) {
      const st = s.last?.status;
      const dt = s.last && disruptionTargetOf(s.last);
      const cs = st?.containerStatuses?.[0]?.state?.terminated;
      evidence.push(
        `pod ${s.name}${s.critical ? ' (critical)' : ''}: ${s.shutdownAt ? `shut down ${(s.shutdownAt.ms / 1000).toFixed(1)} s after the shutdown pod started (#${s.shutdownAt.seq})` : 'not shut down'}; phase ${st?.phase ?? '?'}, reason ${st?.reason ?? '-'}, message ${JSON.stringify(st?.message ?? '')}${dt ? `, DisruptionTarget ${dt.reason}` : ''}${cs ? `, container exit ${cs.exitCode}${cs.reason ? ` (${cs.reason})` : ''}` : ''}`,
      );
    }
    const events = await listAll(q =>
      kube.core.listEventForAllNamespaces({ fieldSelector: `involvedObject.kind=Node,involvedObject.name=${name}`, ...q }),
    ).catch(() => ({ items: [] as CoreV1Event[] }));
    const noticed = events.items.find(e => e.reason === 'NodeShutdown');
    evidence.push(
      noticed ? `event ${noticed.type} NodeShutdown from ${noticed.source?.component ?? '?'}: ${noticed.message}` : `no NodeShutdown event about node ${name}`,
    );
    const went = back.back || back.rebooted;
    const ctl = control(
      went,
      went
        ? `node ${name} went through the shutdown: bootID ${JSON.stringify(bootBefore)} -> ${JSON.stringify(back.back ? bootIdOf(back.node) : '(changed)')}${back.back ? ', back Ready' : ''}`
        : `node ${name} never shut down after shutdown.exe -r (bootID unchanged after ${Math.round(t.nodeReboot / 1000)} s)`,
    );
    const problems = shutdownProblems(sightings);
    if (!back.back) problems.push(`node ${name} is not back in service (Ready ${back.readyNow})`);
    if (!all && !problems.length) problems.push('the pods were not all seen shut down');
    ctx.step(back.back ? `node ${name} is back in service (Ready, bootID ${bootIdOf(back.node)})` : `node ${name} is not back in service`);
    return {
      works: !problems.length,
      summary: problems.length
        ? `node ${name} shut down, but not gracefully as the kubelet's shutdown manager does: ${problems.join('; ')}`
        : `node ${name}'s kubelet shut its pods down before the node went down: the non-critical ones first, then the critical ones, each Failed with reason Terminated, the shutdown message and DisruptionTarget TerminationByKubelet; the node came back`,
      evidence,
      node: name,
      control: ctl,
    };
  } finally {
    clearTimeout(settle);
    stop.abort();
    ctx.signal.removeEventListener('abort', onRunAbort);
  }
}

export const features: Feature[] = [
  {
    id: 'node.graceful-shutdown',
    area: 'node',
    title: "A Windows node's shutdown terminates its pods gracefully, non-critical before critical, with the kubelet's reason (disruptive)",
    needs: ['windows-node', 'hostprocess', 'disruptive-node'],
    fixtures: [],
    images: [AGNHOST, HOSTPROCESS_IMAGE],
    access: [...NODE_SUMMARY_ACCESS, ...permissions('', 'events', ['list'], 'all-namespaces')],
    perBuild: false,
    expect: c => {
      const win = c.nodes.filter(n => n.os === 'windows');
      const old = win.filter(n => n.kubeletVersion && !versionAtLeast(n.kubeletVersion, MIN_KUBELET));
      return old.length && old.length === win.length
        ? notApplicable(
            `every Windows kubelet is older than 1.32 (${old[0].kubeletVersion}): the Windows kubelet has no graceful node shutdown before ${GATE_NAME} (alpha 1.32)`,
            sources(GATE, MANAGER),
          )
        : supported(
            `where the kubelet's ${GATE_NAME} gate is on (alpha 1.32-1.33, off by default; beta from 1.34, on) and shutdownGracePeriod is non-zero (read from /configz; otherwise n/a), a node shutdown kills non-critical pods, then critical ones, each with its grace period, ending Failed with reason Terminated, "Pod was terminated in response to imminent node shutdown." and DisruptionTarget TerminationByKubelet`,
            sources(
              SPEC,
              KILL,
              MANAGER,
              GATE,
              cite.doc(
                'concepts/cluster-administration/node-shutdown',
                'Windows graceful node shutdown: shutdownGracePeriod and shutdownGracePeriodCriticalPods non-zero',
              ),
            ),
          );
    },
    probe: gracefulShutdownProbe,
  },
];
