// node.reboot: upstream's "RebootHost containers should run as a reboot process on the host/node"
// (test/e2e/windows/reboot_node.go, [Serial] [Disruptive], kubelet 1.22+): a HostProcess pod runs
// `shutdown.exe -r -t 30` on the node; the node restarts and comes back, and the pod that ran there
// (restartPolicy Always) has its container restarted once and runs again. Disruptive: only on the
// node --disruptive-node names. Evidence: status.nodeInfo.bootID before and after, the Ready
// transitions, the restarted container's last state, and the kubelet's "Rebooted" event. As
// upstream, a Linux pod must reach the Windows pod (TCP to its port 80, a warm-up then a steady
// period) before the reboot (part of the positive control) and again after it. Upstream also checks
// egress from the Windows pod before the reboot (curl.exe www.google.com); here to --egress-url (never
// a built-in internet name), before and after the reboot: egress that worked before and no longer
// works after is a regression of the reboot. Without --egress-url, or when egress already failed
// before the reboot (net.egress reports that), the egress part is not judged and the evidence says
// so; the reboot verdict rests on the rest.

import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { createObject } from '../../cluster/create.ts';
import { listAll } from '../../cluster/list.ts';
import { permissions } from '../../cluster/permission.ts';
import { waitForPodCondition } from '../../cluster/podWait.ts';
import { isPodReady } from '../../cluster/podState.ts';
import { cite, sources } from '../../facts/sources.ts';
import { versionAtLeast } from '../../../util/version.ts';
import { notApplicable, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { readyPods } from '../kit/podWaits.ts';
import { FX } from '../net/netexec.ts';
import { httpAttempt, tcpAttempt } from '../net/attempts.ts';
import { warmupThenSteady } from '../net/steady.ts';
import { AGNHOST, HOSTPROCESS_IMAGE, bootIdOf, podOnNode, readyOf, runShutdownPod, waitForNodeBack } from './hostShutdown.ts';
import { isPodShutdown } from './gracefulShutdown.ts';

const SPEC = cite.e2eTest('reboot_node.go', 'RebootHost containers [Serial] [Disruptive] [Slow] should run as a reboot process on the host/node');
/** Upstream's [MinimumKubeletVersion:1.22]. */
const MIN_KUBELET = '1.22';
const CONTAINER = 'windows-container';

/** The pod that runs on the node across the reboot (upstream: agnhost test-webserver, restartPolicy Always). */
function survivorPod(ctx: CheckContext, node: string): V1Pod {
  return podOnNode(ctx, node, 'reboot-survivor', {
    restartPolicy: 'Always',
    containers: [{ name: CONTAINER, image: AGNHOST, args: ['test-webserver'], ports: [{ containerPort: 80 }] }],
  });
}

/** upstream's assertConsistentConnectivity(linuxCheck(podIP, 80)) from the Linux pod: TCP to the Windows pod's port 80, warm-up then steady. */
async function linuxReaches(ctx: CheckContext, ip: string | undefined, when: string): Promise<{ ok: boolean; line: string; evidence: EvidenceItem[] }> {
  if (!ip) return { ok: false, line: `L → W ${when}: reboot-survivor has no pod IP`, evidence: [`L → W ${when}: reboot-survivor has no pod IP`] };
  ctx.step(`L → W ${when}: ${FX.linux.id} → reboot-survivor (${ip}:80)`);
  const t = ctx.podTransport(FX.linux.id, 'linux');
  const v = await warmupThenSteady(ctx, `L → W ${when} (${FX.linux.id} → reboot-survivor ${ip}:80)`, () => tcpAttempt(ctx, t, ip, 80));
  // The verdict's evidence begins with its detail line.
  return { ok: v.ok, line: v.detail, evidence: v.evidence };
}

/** upstream's assertConsistentConnectivity(windowsCheck(...)) from the Windows pod: curl.exe to --egress-url, warm-up then steady. */
async function windowsEgress(ctx: CheckContext, url: string, when: string): Promise<{ ok: boolean; line: string; evidence: EvidenceItem[] }> {
  ctx.step(`W → ${url} ${when}: reboot-survivor`);
  const t = ctx.podTransport('reboot-survivor', 'windows', CONTAINER);
  const v = await warmupThenSteady(ctx, `W → ${url} ${when} (reboot-survivor)`, () => httpAttempt(ctx, t, url));
  return { ok: v.ok, line: v.detail, evidence: v.evidence };
}

export const NO_EGRESS_URL = 'no --egress-url given: egress from reboot-survivor before and after the reboot not checked';

const restartsOf = (p: V1Pod) => p.status?.containerStatuses?.find(c => c.name === CONTAINER)?.restartCount ?? 0;

async function rebootProbe(ctx: CheckContext): Promise<Observation> {
  const name = ctx.options.disruptiveNode;
  if (!name) throw new Error('node.reboot ran without --disruptive-node');
  const t = ctx.options.timeouts;
  const kube = ctx.kube;
  const before = await kube.core.readNode({ name });
  const bootBefore = bootIdOf(before);
  const evidence: EvidenceItem[] = [`node ${name}: bootID before ${JSON.stringify(bootBefore)}, Ready ${readyOf(before)}`];

  ctx.step(`creating pod reboot-survivor (agnhost test-webserver, restartPolicy Always) on ${name}`);
  await createObject(kube, survivorPod(ctx, name));
  const running = await ctx.waitForPodReady('reboot-survivor');
  const restarts0 = restartsOf(running);
  evidence.push(`pod reboot-survivor Ready on ${name}, restartCount ${restarts0}`);
  const linux = await readyPods(ctx, [FX.linux.id]);
  if (!linux.ok) return linux.observation;
  const reachBefore = await linuxReaches(ctx, running.status?.podIP, 'before the reboot');
  evidence.push(...reachBefore.evidence);
  const url = ctx.options.egressUrl;
  const egressBefore = url && reachBefore.ok ? await windowsEgress(ctx, url, 'before the reboot') : undefined;
  if (egressBefore) evidence.push(...egressBefore.evidence);
  else if (!url) evidence.push(NO_EGRESS_URL);

  const since = Date.now();
  const ran = await runShutdownPod(ctx, name, 'reboot-host', 30);
  evidence.push(ran.line);
  const ctl = control(
    reachBefore.ok,
    reachBefore.ok
      ? `pod reboot-survivor ran on ${name} (Ready, restartCount ${restarts0}) and a Linux pod reached it before the reboot`
      : `a Linux pod could not reach pod reboot-survivor on ${name} before the reboot (${reachBefore.line}), so reaching it after says nothing`,
  );
  if (!reachBefore.ok) return { works: false, summary: reachBefore.line, evidence, node: name, control: ctl };
  if (!ran.ok) return { works: false, summary: `the HostProcess pod running shutdown.exe -r failed (${ran.line})`, evidence, node: name, control: ctl };

  // Back in service: a new bootID and Ready True (NotReady sightings on the way are evidence).
  const back = await waitForNodeBack(ctx, name, bootBefore, since);
  evidence.push(back.line);
  if (!back.back)
    return {
      works: false,
      summary: !back.rebooted
        ? `node ${name} did not reboot: bootID unchanged ${Math.round(t.nodeReboot / 1000)} s after shutdown.exe -r`
        : `node ${name} rebooted but is not back in service (Ready ${back.readyNow}) after ${Math.round(t.nodeReboot / 1000)} s`,
      evidence,
      node: name,
      control: ctl,
    };
  const bootAfter = bootIdOf(back.node);

  ctx.step('waiting for reboot-survivor to run again with its container restarted');
  const again = await waitForPodCondition(
    kube,
    ctx.namespace,
    'reboot-survivor',
    `Ready with restartCount ${restarts0 + 1}, or terminated by the kubelet's graceful node shutdown`,
    p => (isPodReady(p) && restartsOf(p) > restarts0) || isPodShutdown(p),
    t.podStart,
    {
      signal: ctx.signal,
      failFast: false,
    },
  );
  // A kubelet with graceful node shutdown on (node.graceful-shutdown) ends the pods before the
  // reboot, phase Failed: they are not restarted, by design (upstream runs reboot_node.go without it).
  if (isPodShutdown(again)) {
    evidence.push(`pod reboot-survivor ${again.status?.phase}, reason ${again.status?.reason}: ${again.status?.message}`);
    if (egressBefore) evidence.push('egress after the reboot not checked: the pod that would run it was shut down');
    ctx.step(`node ${name} is back in service (Ready, bootID ${bootAfter})`);
    return {
      works: true,
      summary: `node ${name} rebooted (bootID changed) and is back in service (Ready); its kubelet's graceful node shutdown terminated the pod on it before the reboot (Failed, Terminated), so it is not restarted`,
      evidence,
      node: name,
      control: ctl,
    };
  }
  const cs = again.status?.containerStatuses?.find(c => c.name === CONTAINER);
  const last = cs?.lastState?.terminated;
  evidence.push(
    `pod reboot-survivor ${again.status?.phase}, Ready, restartCount ${restarts0} -> ${cs?.restartCount}${last ? `; last state terminated exit ${last.exitCode}${last.reason ? ` (${last.reason})` : ''}` : ''}`,
  );
  const events = await listAll(q => kube.core.listEventForAllNamespaces({ fieldSelector: `involvedObject.kind=Node,involvedObject.name=${name}`, ...q })).catch(
    () => ({ items: [] as CoreV1Event[] }),
  );
  const rebooted = events.items.filter(e => e.reason === 'Rebooted' && (e.message ?? '').includes(bootAfter));
  evidence.push(
    rebooted.length
      ? `event ${rebooted[0].type} Rebooted from ${rebooted[0].source?.component ?? '?'}: ${rebooted[0].message}`
      : `no Rebooted event about node ${name} names boot id ${bootAfter}`,
  );
  const once = (cs?.restartCount ?? 0) - restarts0 === 1;
  const reachAfter = await linuxReaches(ctx, again.status?.podIP, 'after the reboot');
  evidence.push(...reachAfter.evidence);
  // Egress after the reboot is judged only against egress that worked before it.
  const egressAfter = url && egressBefore?.ok ? await windowsEgress(ctx, url, 'after the reboot') : undefined;
  if (egressAfter) evidence.push(...egressAfter.evidence);
  else if (egressBefore)
    evidence.push(`egress from reboot-survivor failed before the reboot (${egressBefore.line}), so egress after it is not judged (net.egress reports egress)`);
  ctx.step(`node ${name} is back in service (Ready, bootID ${bootAfter})`);
  const problems = [
    ...(once ? [] : [`the pod on it restarted ${(cs?.restartCount ?? 0) - restarts0} times (upstream expects exactly 1)`]),
    ...(reachAfter.ok ? [] : [`a Linux pod no longer reaches it (${reachAfter.line})`]),
    ...(egressAfter && !egressAfter.ok ? [`it no longer reaches ${url} outside the cluster, as it did before the reboot (${egressAfter.line})`] : []),
  ];
  const egressPart = egressAfter?.ok
    ? `, and it reaches ${url} before and after the reboot`
    : !url
      ? ' (egress not checked: no --egress-url given)'
      : egressBefore && !egressBefore.ok
        ? ` (egress not judged: it did not reach ${url} before the reboot)`
        : '';
  return {
    works: !problems.length,
    summary: !problems.length
      ? `node ${name} rebooted (bootID changed) and is back in service (Ready); the pod on it restarted its container once, runs again and a Linux pod reaches it${egressPart}`
      : `node ${name} rebooted, but ${problems.join('; ')}`,
    evidence,
    node: name,
    control: ctl,
  };
}

export const features: Feature[] = [
  {
    id: 'node.reboot',
    area: 'node',
    title: 'A Windows node rebooted from a HostProcess pod comes back with a new bootID and its pods restart (disruptive)',
    needs: ['windows-node', 'linux-node', 'hostprocess', 'disruptive-node'],
    fixtures: [FX.linux],
    images: [AGNHOST, HOSTPROCESS_IMAGE],
    access: [...permissions('', 'events', ['list'], 'all-namespaces')],
    perBuild: false,
    expect: c => {
      const old = c.nodes.filter(n => n.os === 'windows' && n.kubeletVersion && !versionAtLeast(n.kubeletVersion, MIN_KUBELET));
      return old.length && old.length === c.nodes.filter(n => n.os === 'windows').length
        ? notApplicable(
            `every Windows kubelet is older than 1.22 (${old[0].kubeletVersion}); upstream runs the reboot test from 1.22 ([MinimumKubeletVersion:1.22])`,
            sources(SPEC),
          )
        : supported(
            'a HostProcess pod running shutdown.exe -r restarts its node; the node comes back Ready with a new status.nodeInfo.bootID and the pods on it restart their containers once (upstream expects restartCount +1 and the pod Running)',
            sources(SPEC, cite.hostProcessPod('HostProcess containers run as processes on the host')),
          );
    },
    probe: rebootProbe,
  },
];
