// Windows pod → outside the cluster (--egress-url): TCP through the node's outbound NAT, and ICMP.

import { limited, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import { readyPods } from '../kit/podWaits.ts';
import type { EvidenceItem, Feature } from '../types.ts';
import { httpAttempt } from './attempts.ts';
import { FX } from './netexec.ts';
import { curlFailureOf, pingReplies, pingUnresolved } from './parse.ts';
import { boundedNegative, confirmWindow, controlPasses, steadyPeriod, warmupThenSteady } from './steady.ts';
import { cite, sources } from '../../facts/sources.ts';

const SUITE = 'networking';

export const features: Feature[] = [
  // Egress needs a target outside the cluster. Without --egress-url it is n/a ("no --egress-url
  // given") rather than a built-in default: an air-gapped cluster has no outside to reach, and a
  // public default would make the verdict depend on the runner's internet access and that site.
  {
    id: 'net.egress',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod → outside the cluster (--egress-url)',
    netPath: { from: 'windows-pod', to: 'outside-tcp' },
    needs: ['windows-node', 'egress-url'],
    fixtures: [FX.win],
    designedWaitMs: steadyPeriod,
    expect: () =>
      supported("Windows pods reach addresses outside the cluster through the node's outbound NAT", sources(cite.intro(), cite.e2eTest('hybrid_network.go'))),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id]);
      if (!ready.ok) return ready.observation;
      const url = ctx.options.egressUrl!;
      ctx.step(`GET ${url} from ${FX.win.id}`);
      const t = ctx.podTransport(FX.win.id, 'windows');
      const v = await warmupThenSteady(ctx, `W → ${url}`, () => httpAttempt(ctx, t, url));
      // A name that does not resolve never reached the egress path: that is DNS (net.dns-service), not egress.
      const unresolved =
        !v.ok &&
        v.evidence.some(
          e => typeof e !== 'string' && (curlFailureOf(e.exitCode, e.stderr).kind === 'resolve' || /Resolving timed out|Could not resolve/i.test(e.stderr)),
        );
      if (unresolved) throw new Error(`the pod could not resolve ${new URL(url).hostname}, so egress to it cannot be judged: ${v.detail}`);
      return { works: v.ok, summary: v.detail, evidence: v.evidence, node: ready.pods[FX.win.id].spec?.nodeName };
    },
  },
  {
    id: 'net.icmp-egress',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod → ping outside its network',
    netPath: { from: 'windows-pod', to: 'outside-icmp' },
    needs: ['windows-node', 'egress-url'],
    fixtures: [FX.win],
    designedWaitMs: confirmWindow,
    expect: () =>
      limited(
        'Windows pods have no outbound ICMP rules across networks: ping outside the pod network gets no reply',
        sources(cite.v122Intro(), cite.networking()),
      ),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id]);
      if (!ready.ok) return ready.observation;
      const url = ctx.options.egressUrl!;
      const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
      const t = ctx.podTransport(FX.win.id, 'windows');
      const evidence: EvidenceItem[] = [];
      // Control: TCP egress to the same host, so "no reply" is about ICMP, not about egress;
      // once it answered, a few pings without a reply are conclusive (boundedNegative).
      const tcp = await controlPasses(ctx, `W → ${url} (control)`, () => httpAttempt(ctx, t, url));
      const tcpSeen = tcp.firstPass ?? tcp.failure!;
      evidence.push(`control (TCP): ${tcpSeen.detail}`, tcpSeen.evidence);
      ctx.step(`ping -n 1 ${host} from ${FX.win.id}`);
      const v = await boundedNegative(
        ctx,
        `ping ${host}`,
        async () => {
          const r = await ctx.probe(t, { kind: 'ping', host, count: 1 });
          if (pingUnresolved(r.evidence.stdout, r.evidence.stderr)) throw new Error(`ping could not resolve ${host}, so ICMP cannot be judged`);
          const n = pingReplies(r.evidence.stdout);
          return { ok: n > 0, detail: n > 0 ? `reply from ${host}` : `no reply from ${host} (exit ${r.evidence.exitCode})`, evidence: r.evidence };
        },
        tcp.ok,
      );
      evidence.push(...v.evidence);
      return {
        works: v.ok,
        summary: `${v.detail}; TCP to the same host ${tcp.ok ? 'worked' : 'failed too'}`,
        evidence,
        node: ready.pods[FX.win.id].spec?.nodeName,
        control: control(tcp.ok, `TCP egress to the same host: ${tcp.detail}`),
      };
    },
  },
];
