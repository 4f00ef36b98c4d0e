// node.reboot: upstream's "RebootHost containers should run as a reboot process on the host/node"
// (test/e2e/windows/reboot_node.go, [Serial] [Disruptive], kubelet 1.22+): a HostProcess pod runs
// `shutdown.exe -r -t 30` on the node; the node restarts and comes back, and the pod that ran there
// (restartPolicy Always) has its container restarted once and runs again. Disruptive: only on the
// node --disruptive-node names. Evidence: status.nodeInfo.bootID before and after, the Ready
// transitions, the restarted container's last state, and the kubelet's "Rebooted" event.

import type { CoreV1Event, V1Node, V1Pod } from '@kubernetes/client-node';
import { createObject } from '../../cluster/create.ts';
import { listAll } from '../../cluster/list.ts';
import { permissions } from '../../cluster/permission.ts';
import { waitForPodCondition } from '../../cluster/podWait.ts';
import { isPodReady } from '../../cluster/podState.ts';
import { watchUntil, WaitTimeoutError } from '../../cluster/watch.ts';
import { cite, sources } from '../../facts/sources.ts';
import { versionAtLeast } from '../../../util/version.ts';
import { notApplicable, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import type { CheckContext, Feature, Observation } from '../types.ts';

const SPEC = cite.e2eTest('reboot_node.go', 'RebootHost containers [Serial] [Disruptive] [Slow] should run as a reboot process on the host/node');
/** Upstream's [MinimumKubeletVersion:1.22]. */
const MIN_KUBELET = '1.22';
const AGNHOST = 'registry.k8s.io/e2e-test-images/agnhost:2.52';
const HOSTPROCESS_IMAGE = 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0';
const CONTAINER = 'windows-container';

/** The pod that runs on the node across the reboot (upstream: agnhost test-webserver, restartPolicy Always). */
function survivorPod(ctx: CheckContext, node: string): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'reboot-survivor', namespace: ctx.namespace, labels: { ...ctx.labels } },
    spec: {
      os: { name: 'windows' },
      nodeName: node,
      restartPolicy: 'Always',
      tolerations: [{ operator: 'Exists' }],
      containers: [{ name: CONTAINER, image: AGNHOST, args: ['test-webserver'], ports: [{ containerPort: 80 }] }],
    },
  };
}

/** Upstream's reboot pod: HostProcess as SYSTEM, host network, `shutdown.exe -r -t 30`, restartPolicy Never. */
function rebootPod(ctx: CheckContext, node: string): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'reboot-host', namespace: ctx.namespace, labels: { ...ctx.labels } },
    spec: {
      os: { name: 'windows' },
      nodeName: node,
      hostNetwork: true,
      restartPolicy: 'Never',
      tolerations: [{ operator: 'Exists' }],
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
      containers: [{ name: 'reboot-computer-test', image: HOSTPROCESS_IMAGE, command: ['powershell.exe', '-NoProfile', '-Command', 'shutdown.exe -r -t 30'] }],
    },
  };
}

const readyOf = (n: V1Node) => n.status?.conditions?.find(c => c.type === 'Ready')?.status ?? 'Unknown';
const restartsOf = (p: V1Pod) => p.status?.containerStatuses?.find(c => c.name === CONTAINER)?.restartCount ?? 0;

async function rebootProbe(ctx: CheckContext): Promise<Observation> {
  const name = ctx.options.disruptiveNode;
  if (!name) throw new Error('node.reboot ran without --disruptive-node');
  const t = ctx.options.timeouts;
  const kube = ctx.kube;
  const before = await kube.core.readNode({ name });
  const bootBefore = before.status?.nodeInfo?.bootID ?? '';
  const evidence: string[] = [`node ${name}: bootID before ${JSON.stringify(bootBefore)}, Ready ${readyOf(before)}`];

  ctx.step(`creating pod reboot-survivor (agnhost test-webserver, restartPolicy Always) on ${name}`);
  await createObject(kube, survivorPod(ctx, name));
  const running = await ctx.waitForPodReady('reboot-survivor');
  const restarts0 = restartsOf(running);
  evidence.push(`pod reboot-survivor Ready on ${name}, restartCount ${restarts0}`);

  ctx.step(`creating HostProcess pod reboot-host on ${name}: powershell.exe -Command "shutdown.exe -r -t 30"`);
  const since = Date.now();
  await createObject(kube, rebootPod(ctx, name));
  const finished = await waitForPodCondition(
    kube,
    ctx.namespace,
    'reboot-host',
    'Succeeded or Failed',
    p => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed',
    t.podStart,
    { signal: ctx.signal },
  );
  const term = finished.status?.containerStatuses?.[0]?.state?.terminated;
  evidence.push(`pod reboot-host ${finished.status?.phase} (exit ${term?.exitCode ?? '?'}${term?.reason ? `, ${term.reason}` : ''})`);
  const ctl = control(true, `pod reboot-survivor ran on ${name} (Ready, restartCount ${restarts0}) before the reboot`);
  if (finished.status?.phase !== 'Succeeded')
    return { works: false, summary: `the HostProcess pod running shutdown.exe -r failed (exit ${term?.exitCode ?? '?'})`, evidence, node: name, control: ctl };

  // Back in service: a new bootID and Ready True (NotReady sightings on the way are evidence).
  ctx.step(`waiting up to ${Math.round(t.nodeReboot / 1000)} s for ${name} to come back with a new bootID and Ready`);
  let sawNotReady: string | undefined;
  let back: V1Node;
  try {
    back = await watchUntil<V1Node, V1Node>({
      kube,
      path: '/api/v1/nodes',
      fieldSelector: `metadata.name=${name}`,
      list: () => listAll(q => kube.core.listNode({ fieldSelector: `metadata.name=${name}`, ...q })),
      check: n => {
        const ready = readyOf(n);
        if (ready !== 'True') sawNotReady ??= `Ready ${ready} after ${((Date.now() - since) / 1000).toFixed(1)} s`;
        const boot = n.status?.nodeInfo?.bootID ?? '';
        return boot && boot !== bootBefore && ready === 'True' ? n : undefined;
      },
      what: `node ${name} to report a new bootID and Ready`,
      describe: n => (n ? `bootID ${JSON.stringify(n.status?.nodeInfo?.bootID ?? '')}, Ready ${readyOf(n)}` : 'not seen'),
      timeoutMs: t.nodeReboot,
      signal: ctx.signal,
    });
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    const now = await kube.core.readNode({ name });
    evidence.push(
      `node ${name} after ${Math.round(t.nodeReboot / 1000)} s: bootID ${JSON.stringify(now.status?.nodeInfo?.bootID ?? '')}, Ready ${readyOf(now)}${sawNotReady ? ` (went ${sawNotReady})` : ' (never went NotReady)'}`,
    );
    const same = (now.status?.nodeInfo?.bootID ?? '') === bootBefore;
    return {
      works: false,
      summary: same
        ? `node ${name} did not reboot: bootID unchanged ${Math.round(t.nodeReboot / 1000)} s after shutdown.exe -r`
        : `node ${name} rebooted but is not back in service (Ready ${readyOf(now)}) after ${Math.round(t.nodeReboot / 1000)} s`,
      evidence,
      node: name,
      control: ctl,
    };
  }
  const bootAfter = back.status?.nodeInfo?.bootID ?? '';
  evidence.push(
    `node ${name}: ${sawNotReady ? `went ${sawNotReady}; ` : ''}back Ready with bootID ${JSON.stringify(bootAfter)} after ${((Date.now() - since) / 1000).toFixed(1)} s`,
  );

  ctx.step('waiting for reboot-survivor to run again with its container restarted');
  const again = await waitForPodCondition(
    kube,
    ctx.namespace,
    'reboot-survivor',
    `Ready with restartCount ${restarts0 + 1}`,
    p => isPodReady(p) && restartsOf(p) > restarts0,
    t.podStart,
    {
      signal: ctx.signal,
      failFast: false,
    },
  );
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
  ctx.step(`node ${name} is back in service (Ready, bootID ${bootAfter})`);
  return {
    works: once,
    summary: once
      ? `node ${name} rebooted (bootID changed) and is back in service (Ready); the pod on it restarted its container once and runs again`
      : `node ${name} rebooted, but the pod on it restarted ${(cs?.restartCount ?? 0) - restarts0} times (upstream expects exactly 1)`,
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
    needs: ['windows-node', 'hostprocess', 'disruptive-node'],
    fixtures: [],
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
