// The Windows node's own path to a pod IP (through node access).

import { supported } from '../expect.ts';
import { readyPods } from '../kit/podWaits.ts';
import type { Feature } from '../types.ts';
import { podIP, urlOf } from './addresses.ts';
import { FX, NETEXEC_PORT } from './netexec.ts';
import { nodeGetObservation } from './pathChecks.ts';
import { steadyPeriod } from './steady.ts';
import { cite } from '../../facts/sources.ts';

const SUITE = 'networking';

export const features: Feature[] = [
  {
    id: 'net.node-to-pod',
    area: 'networking',
    suite: SUITE,
    title: 'Windows node → pod IP',
    netPath: { from: 'windows-node', to: 'windows-pod-same-node' },
    needs: ['windows-node', 'node-access'],
    fixtures: [FX.winPeer],
    designedWaitMs: steadyPeriod,
    expect: () => supported('a Windows node reaches pods by pod IP', [cite.intro()]),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.winPeer.id]);
      if (!ready.ok) return ready.observation;
      const server = ready.pods[FX.winPeer.id];
      const node = ctx.cluster.nodes.find(n => n.name === server.spec?.nodeName) ?? ctx.windowsNode!;
      return nodeGetObservation(ctx, node, FX.winPeer.id, async () => urlOf(podIP(server), NETEXEC_PORT));
    },
  },
];
