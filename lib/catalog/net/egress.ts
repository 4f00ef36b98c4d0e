// Windows pod → outside the cluster (--egress-url): TCP through the node's outbound NAT, and ICMP;
// and the hybrid cluster's Linux side of it (upstream hybrid_network.go checks both, as two specs).

import { limited, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import { readyPods } from '../kit/podWaits.ts';
import type { EvidenceItem, Feature } from '../types.ts';
import { httpAttempt, tcpAttempt } from './attempts.ts';
import { FX } from './netexec.ts';
import { curlFailureOf, nameUnresolved, pingReplies, pingUnresolved } from './parse.ts';
import { boundedNegative, confirmWindow, controlPasses, steadyPeriod, warmupThenSteady } from './steady.ts';
import { cite, sources } from '../../facts/sources.ts';

const SUITE = 'networking';

/** The host and port a TCP connect to the URL dials (the scheme's default port when it names none). */
export function hostPortOf(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port: u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80 };
}

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
  // Upstream's "should provide Internet connection for Linux containers using DNS" runs
  // `nc -vz 8.8.8.8 53 -w 10` in a Linux pod of the hybrid cluster (warm-up, then a steady
  // period); here the same nc to the host and port of --egress-url, from the net-linux pod.
  {
    id: 'net.linux-egress',
    area: 'networking',
    suite: SUITE,
    title: "Linux pod → outside the cluster (--egress-url), the hybrid cluster's Linux side",
    netPath: { from: 'linux-pod', to: 'outside-tcp' },
    needs: ['windows-node', 'linux-node', 'egress-url'],
    fixtures: [FX.linux],
    designedWaitMs: steadyPeriod,
    expect: () =>
      supported(
        'Linux pods of a hybrid cluster reach addresses outside the cluster (upstream checks it beside the Windows side)',
        sources(cite.e2eTest('hybrid_network.go', 'Hybrid cluster network should provide Internet connection for Linux containers using DNS')),
      ),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.linux.id]);
      if (!ready.ok) return ready.observation;
      const { host, port } = hostPortOf(ctx.options.egressUrl!);
      ctx.step(`nc -vz ${host} ${port} from ${FX.linux.id}`);
      const t = ctx.podTransport(FX.linux.id, 'linux');
      const v = await warmupThenSteady(ctx, `L → ${host}:${port}`, () => tcpAttempt(ctx, t, host, port));
      // As for net.egress: a name that does not resolve never reached the egress path.
      if (!v.ok && v.evidence.some(e => typeof e !== 'string' && nameUnresolved(e.stdout, e.stderr)))
        throw new Error(`the Linux pod could not resolve ${host}, so egress to it cannot be judged: ${v.detail}`);
      return { works: v.ok, summary: v.detail, evidence: v.evidence, node: ready.pods[FX.linux.id].spec?.nodeName };
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
