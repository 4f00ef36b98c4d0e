// What the disruptive node features share: upstream's HostProcess pod that runs `shutdown.exe -r`
// on the node (reboot_node.go with -t 30, node_shutdown.go with -t 60), and the wait for the node
// to be back in service afterwards (a new status.nodeInfo.bootID and Ready True), so the rest of
// the run and its cleanup find the node as they left it.

import type { V1Node, V1Pod, V1PodSpec } from '@kubernetes/client-node';
import { createObject } from '../../cluster/create.ts';
import { rewriteImage } from '../../fixtures/images.ts';
import { listAll } from '../../cluster/list.ts';
import { waitForPodFinished } from '../../cluster/podWait.ts';
import { watchUntil, WaitTimeoutError } from '../../cluster/watch.ts';
import type { CheckContext } from '../types.ts';

/** The image upstream's disruptive tests run on the node (agnhost test-webserver, netexec). */
export const AGNHOST = 'registry.k8s.io/e2e-test-images/agnhost:2.52';
export const HOSTPROCESS_IMAGE = 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0';

export const readyOf = (n: V1Node) => n.status?.conditions?.find(c => c.type === 'Ready')?.status ?? 'Unknown';
export const bootIdOf = (n: V1Node) => n.status?.nodeInfo?.bootID ?? '';

/**
 * A run-labelled Windows pod bound to the node by name, tolerating every taint (the disruptive
 * checks' pods), its images from --image-registry as a fixture's are.
 */
export function podOnNode(ctx: CheckContext, node: string, name: string, spec: Omit<V1PodSpec, 'nodeName'>): V1Pod {
  const mirrored = <C extends { image?: string }>(cs: C[] | undefined) =>
    cs?.map(c => ({ ...c, image: rewriteImage(c.image ?? '', ctx.options.imageRegistry) }));
  spec = { ...spec, containers: mirrored(spec.containers)!, ...(spec.initContainers ? { initContainers: mirrored(spec.initContainers) } : {}) };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ctx.namespace, labels: { ...ctx.labels } },
    spec: { os: { name: 'windows' }, nodeName: node, tolerations: [{ operator: 'Exists' }], ...spec },
  };
}

/** Upstream's reboot pod: HostProcess as SYSTEM, host network, `shutdown.exe -r -t <delay>`, restartPolicy Never. */
export function shutdownPod(ctx: CheckContext, node: string, name: string, delaySeconds: number): V1Pod {
  return podOnNode(ctx, node, name, {
    hostNetwork: true,
    restartPolicy: 'Never',
    securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
    containers: [
      { name: 'reboot-computer-test', image: HOSTPROCESS_IMAGE, command: ['powershell.exe', '-NoProfile', '-Command', `shutdown.exe -r -t ${delaySeconds}`] },
    ],
  });
}

/** Creates the shutdown pod and waits until it ran; `ok` when it Succeeded (shutdown.exe scheduled the restart). */
export async function runShutdownPod(ctx: CheckContext, node: string, name: string, delaySeconds: number): Promise<{ ok: boolean; line: string }> {
  ctx.step(`creating HostProcess pod ${name} on ${node}: powershell.exe -Command "shutdown.exe -r -t ${delaySeconds}"`);
  await createObject(ctx.kube, shutdownPod(ctx, node, name, delaySeconds));
  const finished = await waitForPodFinished(ctx.kube, ctx.namespace, name, ctx.options.timeouts.podStart, { signal: ctx.signal });
  const term = finished.status?.containerStatuses?.[0]?.state?.terminated;
  return {
    ok: finished.status?.phase === 'Succeeded',
    line: `pod ${name} ${finished.status?.phase} (exit ${term?.exitCode ?? '?'}${term?.reason ? `, ${term.reason}` : ''})`,
  };
}

export type NodeBack =
  | { back: true; node: V1Node; line: string; notReady?: string; notReadyMessage?: string }
  | { back: false; rebooted: boolean; line: string; notReady?: string; notReadyMessage?: string; readyNow: string };

/**
 * Waits (timeouts.nodeReboot) for the node to report a bootID other than `bootBefore` and Ready
 * True; NotReady sightings on the way are told ("Ready False after 1.2 s"), timed from `since`.
 */
export async function waitForNodeBack(ctx: CheckContext, name: string, bootBefore: string, since: number): Promise<NodeBack> {
  const kube = ctx.kube;
  const t = ctx.options.timeouts.nodeReboot;
  const secs = () => ((Date.now() - since) / 1000).toFixed(1);
  ctx.step(`waiting up to ${Math.round(t / 1000)} s for ${name} to come back with a new bootID and Ready`);
  let notReady: string | undefined;
  let notReadyMessage: string | undefined;
  try {
    const node = await watchUntil<V1Node, V1Node>({
      kube,
      path: '/api/v1/nodes',
      fieldSelector: `metadata.name=${name}`,
      list: () => listAll(q => kube.core.listNode({ fieldSelector: `metadata.name=${name}`, ...q })),
      check: n => {
        const ready = readyOf(n);
        if (ready !== 'True' && !notReady) {
          notReady = `Ready ${ready} after ${secs()} s`;
          notReadyMessage = n.status?.conditions?.find(c => c.type === 'Ready')?.message;
        }
        const boot = bootIdOf(n);
        return boot && boot !== bootBefore && ready === 'True' ? n : undefined;
      },
      what: `node ${name} to report a new bootID and Ready`,
      describe: n => (n ? `bootID ${JSON.stringify(bootIdOf(n))}, Ready ${readyOf(n)}` : 'not seen'),
      timeoutMs: t,
      signal: ctx.signal,
    });
    return {
      back: true,
      node,
      notReady,
      notReadyMessage,
      line: `node ${name}: ${notReady ? `went ${notReady}; ` : ''}back Ready with bootID ${JSON.stringify(bootIdOf(node))} after ${secs()} s`,
    };
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    const now = await kube.core.readNode({ name });
    return {
      back: false,
      rebooted: bootIdOf(now) !== bootBefore,
      notReady,
      notReadyMessage,
      readyNow: readyOf(now),
      line: `node ${name} after ${Math.round(t / 1000)} s: bootID ${JSON.stringify(bootIdOf(now))}, Ready ${readyOf(now)}${notReady ? ` (went ${notReady})` : ' (never went NotReady)'}`,
    };
  }
}
