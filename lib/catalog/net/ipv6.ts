// IPv6 for Windows pods: dual-stack pod addresses and paths, a single-stack IPv6 Service.

import { control } from '../kit/observe.ts';
import { readyPods } from '../kit/podWaits.ts';
import type { EvidenceItem, Feature } from '../types.ts';
import { clusterIPOf, podIPs, readService, urlOf } from './addresses.ts';
import { httpAttempt } from './attempts.ts';
import { dualStackExpectation, ipv6OnlyExpectation } from './expect.ts';
import { FX, NETEXEC_PORT, SERVICE_PORT } from './netexec.ts';
import { peersAnswer } from './pathChecks.ts';
import { steadyPeriod, warmupThenSteady } from './steady.ts';

const SUITE = 'networking';

export const features: Feature[] = [
  {
    id: 'net.dual-stack',
    area: 'networking',
    suite: SUITE,
    title: 'Dual-stack: Windows pods get IPv4 and IPv6 and reach each other over IPv6',
    netPath: { from: 'windows-pod', to: 'windows-pod-ipv6' },
    needs: ['windows-node', 'dual-stack'],
    fixtures: [FX.win, FX.winPeer],
    designedWaitMs: steadyPeriod,
    expect: dualStackExpectation,
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id, FX.winPeer.id]);
      if (!ready.ok) return ready.observation;
      const node = ready.pods[FX.win.id].spec?.nodeName;
      const families = Object.fromEntries([FX.win.id, FX.winPeer.id].map(n => [n, podIPs(ready.pods[n])]));
      const evidence: EvidenceItem[] = [
        `pod IPs: ${Object.entries(families)
          .map(([n, ips]) => `${n}=${ips.join(',')}`)
          .join('; ')}`,
      ];
      const v6 = families[FX.winPeer.id].find(ip => ip.includes(':'));
      const t = ctx.podTransport(FX.win.id, 'windows');
      // Control: the peer answers over IPv4, so an IPv6 failure is about IPv6.
      const v4 = await peersAnswer(ctx, t, [ready.pods[FX.winPeer.id]]);
      if (!families[FX.win.id].some(ip => ip.includes(':')) || !v6)
        return {
          works: false,
          summary: 'the Windows pods have no IPv6 address',
          evidence,
          node,
          control: control(v4.ok, `pod IPs were read from the API; ${v4.summary}`, v4.evidence),
        };
      const v = await warmupThenSteady(ctx, `W → W over IPv6 (${v6})`, () => httpAttempt(ctx, t, urlOf(v6, NETEXEC_PORT)));
      evidence.push(...v.evidence);
      return { works: v.ok, summary: v.detail, evidence, node, control: v4 };
    },
  },
  {
    id: 'net.ipv6-only',
    area: 'networking',
    suite: SUITE,
    title: 'IPv6-only: a single-stack IPv6 Service in front of Windows pods',
    needs: ['windows-node'],
    fixtures: [FX.win, FX.winPeer, FX.winPeer2, FX.svcIpv6],
    designedWaitMs: steadyPeriod,
    expect: ipv6OnlyExpectation,
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id, FX.winPeer.id, FX.winPeer2.id]);
      if (!ready.ok) return ready.observation;
      const node = ready.pods[FX.win.id].spec?.nodeName;
      const ip = clusterIPOf(await readService(ctx, FX.svcIpv6.id));
      const t = ctx.podTransport(FX.win.id, 'windows');
      const v = await warmupThenSteady(ctx, `W → IPv6 ClusterIP ${ip}`, () => httpAttempt(ctx, t, urlOf(ip, SERVICE_PORT)));
      // Control: the Service's backends answer by pod IP, so a failure is about the IPv6 Service path.
      return {
        works: v.ok,
        summary: v.detail,
        evidence: v.evidence,
        node,
        control: await peersAnswer(ctx, t, [ready.pods[FX.winPeer.id], ready.pods[FX.winPeer2.id]]),
      };
    },
  },
];
