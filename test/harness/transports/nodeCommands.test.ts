// Node-level checks send a node's commands together (the per-node limit bounds them, lib/run
// context.ts) instead of one after another, on every node at once; the evidence keeps its order.

import { expect } from 'chai';
import { features } from '../../../lib/catalog/node/node.ts';
import type { CheckContext } from '../../../lib/catalog/types.ts';
import { Redactor } from '../../../lib/fixtures/secrets.ts';
import { runProbe } from '../../../lib/probes/runProbe.ts';
import type { Transport } from '../../../lib/probes/types.ts';
import type { CommandResult } from '../../../lib/cluster/exec.ts';
import { cluster, winNode } from '../../support/clusterFixture.ts';

const SERVICE = (name: string) => `SERVICE_NAME: ${name}\r\n        TYPE               : 10  WIN32_OWN_PROCESS\r\n        STATE              : 4  RUNNING\r\n`;

function fakeCtx(nodes: string[]) {
  const inFlight = new Map<string, number>();
  const most = new Map<string, number>();
  const order: string[] = [];
  const transport = (node: string): Transport => ({
    os: 'windows',
    description: `fake ${node}`,
    async run(command): Promise<CommandResult> {
      const argv = Array.isArray(command) ? command : [command];
      order.push(`${node} ${argv.slice(0, 3).join(' ')}`);
      inFlight.set(node, (inFlight.get(node) ?? 0) + 1);
      most.set(node, Math.max(most.get(node) ?? 0, inFlight.get(node)!));
      // Answers arrive in the reverse of the order asked: evidence must still come out in order.
      await new Promise(r => setTimeout(r, argv.includes('kubelet') ? 30 : 5));
      inFlight.set(node, inFlight.get(node)! - 1);
      return { stdout: SERVICE(String(argv[argv.length - 1])), stderr: '', exitCode: 0 };
    },
  });
  const ctx = {
    cluster: cluster({ nodes: nodes.map(n => winNode(n)) }),
    nodeTransport: async (n: { name: string }) => transport(n.name),
    probe: (t: Transport, op: Parameters<CheckContext['probe']>[1]) => runProbe(t, op, new Redactor([]), { timeoutMs: 5_000 }),
    step: () => undefined,
    options: { timeouts: {}, nodes: [] },
    signal: new AbortController().signal,
  } as unknown as CheckContext;
  return { ctx, most, order };
}

describe("node-level checks: a node's commands go out together", () => {
  it('node.services asks kubelet, containerd and kube-proxy at once on each node, evidence in that order', async () => {
    const { ctx, most } = fakeCtx(['win-1', 'win-2', 'win-3']);
    const obs = await features.find(f => f.id === 'node.services')!.probe(ctx);
    expect(obs.works, obs.summary).to.equal(true);
    for (const n of ['win-1', 'win-2', 'win-3']) expect(most.get(n), n).to.equal(3);
    const asked = obs.evidence.map(e => (typeof e === 'string' ? '' : e.command)).filter(Boolean);
    expect(asked.slice(0, 3).map(c => /queryex (\S+)/.exec(c)?.[1])).to.deep.equal(['kubelet', 'containerd', 'kube-proxy']);
  });
});
