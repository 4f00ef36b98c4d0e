// The node runtime: one simulated kubelet + container runtime per profile node, the
// subresource handlers (exec, logs, port-forward, nodes/proxy, metrics) and the SSH
// exec handler of Windows nodes (cmd.exe is OpenSSH's default shell there).

import type { Store } from '../api/store.ts';
import type { SubresourceHandlers, ExecStreams } from '../api/runtimeContract.ts';
import type { NetworkTwin } from '../network/types.ts';
import type { Profile } from '../profiles/types.ts';
import { RuntimeContext, type RuntimeOptions } from './context.ts';
import { NodeRuntime } from './nodeRuntime.ts';
import { Kubelet } from './kubelet.ts';
import { makeHandlers } from './handlers.ts';
import { nodeHost } from './shellHost.ts';

export type { RuntimeOptions } from './context.ts';
export { Kubelet } from './kubelet.ts';
export { NodeRuntime } from './nodeRuntime.ts';
export { HYPERV_HANDLER } from './podWorker.ts';
import { runCommandLine } from './shell/index.ts';
import { answer, replayCommand } from './replay.ts';
export { IMAGES, parseImageRef, findImage, windowsTagFor } from './images.ts';

type NodeExecHandler = (node: string, command: string, streams: ExecStreams, signal: AbortSignal) => Promise<number>;
type WithSsh = { setNodeExecHandler?(fn: NodeExecHandler | undefined): void };

export interface Runtime {
  handlers: SubresourceHandlers;
  stop(): Promise<void>;
  kubelet(node: string): Kubelet;
}

export function startRuntime(opts: { store: Store; profile: Profile; network: NetworkTwin; options?: RuntimeOptions }): Runtime {
  const { store, profile, network } = opts;
  for (const b of ['pods', 'secrets', 'configmaps', 'events', 'persistentvolumeclaims', 'services']) store.registerNamespaced(b);
  const ctx = new RuntimeContext(store, profile, network, opts.options);
  const nodes = new Map<string, NodeRuntime>();
  const kubelets = new Map<string, Kubelet>();
  for (const spec of profile.nodes) {
    const nodeCtx = ctx.forNode(spec.name);
    const n = new NodeRuntime(spec, nodeCtx);
    nodes.set(spec.name, n);
    const k = new Kubelet(n, nodeCtx);
    kubelets.set(spec.name, k);
    k.start();
  }
  // SSH sessions on Windows nodes: OpenSSH runs `cmd.exe /c <command line>` as Administrator.
  const ssh = network as NetworkTwin & WithSsh;
  ssh.setNodeExecHandler?.(async (node, command, streams, signal) => {
    const n = nodes.get(node);
    if (!n) {
      streams.stderr.write(`unknown node ${node}\r\n`);
      return 1;
    }
    const host = nodeHost(n.ctx, n, n.os === 'windows' ? `${n.name.toUpperCase().slice(0, 15)}\\Administrator` : 'root');
    const io = { stdin: streams.stdin, stdout: streams.stdout, stderr: streams.stderr, signal };
    const replayed = replayCommand(n.ctx.profile, 'node', node, undefined, command);
    if (replayed) return answer(replayed, io);
    // The client's command line reaches cmd.exe byte for byte: no argv re-quoting.
    if (n.os === 'windows') return runCommandLine(`cmd.exe /c ${command}`, host, io);
    const run = await ctx.runCommand();
    return run(['/bin/sh', '-c', command], host, io);
  });
  return {
    handlers: makeHandlers(ctx, nodes),
    kubelet(node: string): Kubelet {
      const k = kubelets.get(node);
      if (!k) throw new Error(`runtime: no node named "${node}" in profile ${profile.name}`);
      return k;
    },
    async stop(): Promise<void> {
      ssh.setNodeExecHandler?.(undefined);
      ctx.stopped = true;
      await Promise.all([...kubelets.values()].map(k => k.stop()));
      ctx.stop();
    },
  };
}
