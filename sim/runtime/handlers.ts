// The kubelet side of pods/exec, pods/log, pods/portforward and nodes/proxy, plus
// metrics.k8s.io. Errors are StoreErrors with the API server's codes and texts.

import type { Duplex, Writable } from 'node:stream';
import type { V1Pod } from '@kubernetes/client-node';
import { StoreError } from '../api/store.ts';
import type { ExecRequest, ExecResult, ExecStreams, LogRequest, NodeProxyResponse, PortForwardRequest, SubresourceHandlers } from '../api/runtimeContract.ts';
import type { RuntimeContext } from './context.ts';
import type { NodeRuntime } from './nodeRuntime.ts';
import type { PodWorker } from './podWorker.ts';
import type { ContainerRunner } from './container.ts';
import { nodeMetrics, podMetrics, summary } from './stats.ts';
import { resourceMetrics } from './resourceMetrics.ts';
import { answer, replayCommand } from './replay.ts';
import { joinWindowsArgv } from './shell/quote.ts';
import { kubeletMemoryConfig, kubeletShutdownConfig } from '../nodes/kubeletConfig.ts';
import { nodeSpecOf } from '../nodes/nodeSpec.ts';

export function makeHandlers(ctx: RuntimeContext, nodes: Map<string, NodeRuntime>): SubresourceHandlers {
  const worker = (ns: string, name: string): PodWorker => {
    const pod = ctx.store.tryGet('pods', ns, name) as unknown as V1Pod | undefined;
    if (!pod) throw new StoreError(404, 'NotFound', `pods "${name}" not found`, { name, kind: 'pods' });
    const node = pod.spec?.nodeName ? nodes.get(pod.spec.nodeName) : undefined;
    const w = node?.pods.get(`${ns}/${name}`);
    if (!w) throw new StoreError(400, 'BadRequest', `pod ${name} does not have a host assigned`);
    return w;
  };
  const container = (w: PodWorker, name: string | undefined): ContainerRunner => {
    const all = [...w.containers, ...w.init];
    const c = name ? all.find(x => x.name === name) : w.containers[0];
    if (!c) throw new StoreError(400, 'BadRequest', `container ${name} is not valid for pod ${w.pod.metadata!.name}`);
    return c;
  };

  return {
    async exec(req: ExecRequest, streams: ExecStreams, signal: AbortSignal): Promise<ExecResult> {
      const w = worker(req.namespace, req.pod);
      const c = container(w, req.container);
      if (!c.running || !c.host) throw new StoreError(400, 'BadRequest', `unable to upgrade connection: container not found ("${c.name}")`);
      if (w.ctx.broken('exec', w.windows))
        return {
          exitCode: 126,
          error: `Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "${c.containerID?.slice(0, 12)}": hcs::System::CreateProcess ${c.containerID?.slice(0, 12)}: The system cannot find the file specified.: unknown`,
        };
      // A profile's replay entry answers as the real node did: "node" in a HostProcess container.
      const line = w.windows ? joinWindowsArgv(req.command) : req.command.join(' ');
      const replayed = replayCommand(w.ctx.profile, w.hostProcess ? 'node' : 'pod', w.node.name, w.pod, line);
      if (replayed) return { exitCode: answer(replayed, streams) };
      const run = await ctx.runCommand();
      const code = await run(req.command, c.host, { stdin: req.stdin ? streams.stdin : null, stdout: streams.stdout, stderr: streams.stderr, signal });
      return { exitCode: code };
    },

    async log(req: LogRequest, out: Writable, signal: AbortSignal): Promise<void> {
      const w = worker(req.namespace, req.pod);
      const c = container(w, req.container);
      const podName = w.pod.metadata!.name;
      if (req.previous) {
        if (!c.prevLog) throw new StoreError(400, 'BadRequest', `previous terminated container "${c.name}" in pod "${podName}" not found`);
        return c.prevLog.stream(out, { ...req, follow: false }, signal);
      }
      if (!c.started && !c.state.terminated && !c.running) {
        const reason = c.state.waiting?.reason ?? 'ContainerCreating';
        throw new StoreError(
          400,
          'BadRequest',
          `container "${c.name}" in pod "${podName}" is waiting to start: ${reason === 'ErrImagePull' || reason === 'ImagePullBackOff' ? 'trying and failing to pull image' : reason}`,
        );
      }
      return c.log.stream(out, req, signal);
    },

    async portForward(req: PortForwardRequest, signal: AbortSignal): Promise<Duplex> {
      const w = worker(req.namespace, req.pod);
      const where = `error forwarding port ${req.port} to pod ${w.sandboxID}, uid `;
      if (w.ctx.broken('port-forward', w.windows))
        throw new StoreError(
          500,
          'InternalError',
          `${where}: failed to execute portforward in network namespace "": wincat.exe: The system cannot find the file specified.`,
        );
      try {
        const s = await ctx.network.connect({ from: w.endpoint(), host: w.podAddress(), port: req.port, timeoutMs: 10_000 });
        signal.addEventListener('abort', () => s.destroy(), { once: true });
        return s;
      } catch (e) {
        throw new StoreError(
          500,
          'InternalError',
          `${where}: failed to execute portforward in network namespace "${w.sandboxID.slice(0, 12)}": failed to connect to localhost:${req.port} inside namespace "${w.sandboxID.slice(0, 12)}", IPv4: dial tcp4 127.0.0.1:${req.port}: connect: connection refused ${e instanceof Error ? '' : ''}`.trim(),
        );
      }
    },

    async nodeProxy(nodeName: string, path: string): Promise<NodeProxyResponse> {
      const node = nodes.get(nodeName);
      if (!node) throw new StoreError(404, 'NotFound', `nodes "${nodeName}" not found`, { name: nodeName, kind: 'nodes' });
      const p = path.replace(/^\/+/, '').split('?')[0].replace(/\/+$/, '');
      const json = (o: object): NodeProxyResponse => ({ status: 200, contentType: 'application/json', body: JSON.stringify(o, null, 2) });
      switch (p) {
        case 'stats/summary':
          return json(summary(ctx, node));
        case 'metrics/resource':
          return { status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8', body: resourceMetrics(summary(ctx, node)) };
        case 'metrics':
          return { status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8', body: node.metrics.render(node.name) };
        case 'healthz':
        case 'healthz/ping':
          return { status: 200, contentType: 'text/plain; charset=utf-8', body: 'ok' };
        case 'pods':
          return json({
            kind: 'PodList',
            apiVersion: 'v1',
            metadata: {},
            items: [...node.pods.values()].map(w => ctx.store.tryGet('pods', w.pod.metadata!.namespace, w.pod.metadata!.name!)).filter(Boolean),
          });
        case 'configz':
          return json({
            kubeletconfig: {
              enableServer: true,
              podPidsLimit: -1,
              cgroupDriver: node.os === 'linux' ? 'systemd' : 'cgroupfs',
              clusterDomain: ctx.profile.network.clusterDomain ?? 'cluster.local',
              clusterDNS: [ctx.network.dnsServer().address],
              ...kubeletMemoryConfig(ctx.profile, nodeSpecOf(ctx.profile, nodeName)!),
              ...kubeletShutdownConfig(ctx.profile),
            },
          });
        default:
          return { status: 404, contentType: 'text/plain; charset=utf-8', body: '404 page not found\n' };
      }
    },

    ...(ctx.profile.addons.metricsServer
      ? {
          podMetrics: async (ns: string | undefined) => podMetrics(ctx, [...nodes.values()], ns),
          nodeMetrics: async () => nodeMetrics(ctx, [...nodes.values()]),
        }
      : {}),
  };
}
