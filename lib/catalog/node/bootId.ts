// node.boot-id: upstream's "Kubelet-Stats ... when windows is booted should return bootid"
// (test/e2e/windows/kubelet_stats.go): a Windows kubelet reports status.nodeInfo.bootID, which
// tells a reboot apart from a kubelet restart (the node lifecycle and pod restarts rest on it).

import type { V1Node } from '@kubernetes/client-node';
import { listAll } from '../../cluster/list.ts';
import { supported } from '../expect.ts';
import { readyWindowsNodes } from '../kit/nodeTargets.ts';
import { cite, sources } from '../../facts/sources.ts';
import type { CheckContext, Feature, Observation } from '../types.ts';

async function bootIdProbe(ctx: CheckContext): Promise<Observation> {
  const visited = new Set(readyWindowsNodes(ctx).map(n => n.name));
  if (!visited.size) throw new Error('no Ready Windows node');
  ctx.step('reading status.nodeInfo.bootID of the Windows nodes');
  const list = await listAll(q => ctx.kube.core.listNode({ labelSelector: 'kubernetes.io/os=windows', ...q }));
  const nodes = list.items.filter((n: V1Node) => visited.has(n.metadata?.name ?? ''));
  const evidence = nodes.map(n => `node ${n.metadata?.name}: bootID ${JSON.stringify(n.status?.nodeInfo?.bootID ?? '')}`);
  const without = nodes.filter(n => !n.status?.nodeInfo?.bootID);
  return without.length
    ? { works: false, summary: `no bootID on ${without.map(n => n.metadata?.name).join(', ')}`, evidence, node: without[0].metadata?.name }
    : { works: true, summary: `every visited Windows node reports a bootID (${nodes.length} node(s))`, evidence, node: nodes[0]?.metadata?.name };
}

export const features: Feature[] = [
  {
    id: 'node.boot-id',
    area: 'node',
    title: 'Windows kubelets report status.nodeInfo.bootID',
    needs: ['windows-node'],
    fixtures: [],
    expect: () =>
      supported(
        'the Windows kubelet reports the boot ID of its node in status.nodeInfo.bootID',
        sources(cite.e2eTest('kubelet_stats.go', 'when windows is booted should return bootid within 10 seconds')),
      ),
    probe: bootIdProbe,
  },
];
