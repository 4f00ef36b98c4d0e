// Cluster DNS from Windows pods: Service names (short, FQDN, partial dotted), dnsPolicy
// ClusterFirstWithHostNet on a host-network pod, dnsPolicy None with dnsConfig. Lookups are seen
// through curl.exe as upstream test/e2e/windows/dns.go does.

import type { Transport } from '../../probes/types.ts';
import { limited, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import { readyPods } from '../kit/podWaits.ts';
import { createPodLike } from '../kit/podCopy.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { urlOf } from './addresses.ts';
import { httpAttempt } from './attempts.ts';
import { ipconfigOf } from '../kit/ipconfig.ts';
import { FX, SERVICE_PORT } from './netexec.ts';
import { clusterDomainOf, curlFailureOf } from './parse.ts';
import { dnsServersOf } from '../../probes/readers/ipconfig.ts';
import { boundedNegative, confirmWindow, controlPasses, steadyPeriod, warmupThenSteady, type Attempt } from './steady.ts';
import { cite, sources } from '../../facts/sources.ts';

const SUITE = 'networking';

/**
 * A name lookup seen through curl.exe, as upstream dns.go does (nslookup ignores ndots and may
 * exit 0 on failure): resolved unless curl says it could not resolve (exit 6 / "Resolving timed out").
 */
async function resolveAttempt(ctx: CheckContext, t: Transport, name: string, port = SERVICE_PORT): Promise<Attempt> {
  const a = await httpAttempt(ctx, t, urlOf(name, port));
  if (a.ok) return { ...a, detail: `${name} resolved and answered` };
  const f = curlFailureOf(a.evidence.exitCode, a.evidence.stderr);
  const unresolved = f.kind === 'resolve' || /Resolving timed out|Could not resolve/i.test(a.evidence.stderr);
  return unresolved
    ? { ok: false, detail: `${name} did not resolve (${f.message})`, evidence: a.evidence }
    : { ok: true, detail: `${name} resolved (the connection then failed: ${f.message})`, evidence: a.evidence };
}

/** The cluster domain from the client pod's DNS suffix search list (fallback cluster.local). */
async function clusterDomain(ctx: CheckContext, t: Transport, evidence: EvidenceItem[]): Promise<string> {
  const { r, cfg } = await ipconfigOf(ctx, t);
  const domain = clusterDomainOf(cfg.searchList, ctx.namespace);
  evidence.push(
    domain
      ? `cluster domain ${domain} (from the pod's DNS suffix search list)`
      : "cluster domain not in the pod's DNS suffix search list: assuming cluster.local",
    r.evidence,
  );
  return domain ?? 'cluster.local';
}

/** A name no DNS server answers: upstream dns.go's negative control. */
const BOGUS_NAME = 'kubernetezzzzzzzz';

/**
 * upstream dns.go: a dnsPolicy None pod whose only nameserver is the cluster DNS and whose only
 * search suffix is default.svc.<domain> resolves the short name "kubernetes" (only that server,
 * through that suffix, answers it) and fails on a bogus name (the negative control). The
 * fixture's own settings (1.1.1.1, resolv.conf.local) must show in ipconfig /all as well.
 */
async function dnsConfigProbe(ctx: CheckContext): Promise<Observation> {
  const ready = await readyPods(ctx, [FX.dnsConfig.id, FX.winPeer.id]);
  if (!ready.ok) return ready.observation;
  const node = ready.pods[FX.dnsConfig.id].spec?.nodeName;
  const evidence: EvidenceItem[] = [];
  const problems: string[] = [];
  const { r, cfg } = await ipconfigOf(ctx, ctx.podTransport(FX.dnsConfig.id, 'windows'));
  evidence.push(r.evidence);
  if (!r.ok) return { works: false, summary: `ipconfig /all failed: ${r.detail}`, evidence, node };
  const servers = dnsServersOf(cfg);
  const seen = `DNS servers ${servers.join(', ') || 'none'}; search list ${cfg.searchList.join(', ') || 'none'}`;
  if (!servers.includes('1.1.1.1')) problems.push(`ipconfig /all of ${FX.dnsConfig.id} does not show the configured nameserver 1.1.1.1 (${seen})`);
  if (!cfg.searchList.map(x => x.toLowerCase()).includes('resolv.conf.local')) problems.push(`the search suffix resolv.conf.local is missing (${seen})`);
  // The cluster DNS address and domain as an ordinary (ClusterFirst) Windows pod sees them.
  const peer = await ipconfigOf(ctx, ctx.podTransport(FX.winPeer.id, 'windows'));
  evidence.push(peer.r.evidence);
  const clusterDns = dnsServersOf(peer.cfg)[0];
  const domain = clusterDomainOf(peer.cfg.searchList, ctx.namespace) ?? 'cluster.local';
  if (!clusterDns) throw new Error(`ipconfig /all of ${FX.winPeer.id} (dnsPolicy ClusterFirst) shows no DNS server, so the cluster DNS address is unknown`);
  const name = `${FX.dnsConfig.id}-cluster`;
  const dnsConfig = { nameservers: [clusterDns, '1.1.1.1'], searches: [`default.svc.${domain}`] };
  ctx.step(`creating pod ${name}: dnsPolicy None, nameservers ${dnsConfig.nameservers.join(', ')}, search ${dnsConfig.searches[0]}`);
  await createPodLike(ctx, FX.dnsConfig.id, name, pod => {
    pod.spec!.dnsConfig = dnsConfig;
  });
  await ctx.waitForPodReady(name);
  const t = ctx.podTransport(name, 'windows');
  ctx.step(`resolving ${BOGUS_NAME} (must fail) and kubernetes (only ${clusterDns}, through ${dnsConfig.searches[0]}, answers it) from ${name}`);
  const bogus = await resolveAttempt(ctx, t, BOGUS_NAME);
  evidence.push(bogus.evidence);
  if (bogus.ok) throw new Error(`the bogus name ${BOGUS_NAME} resolved from ${name} (${bogus.detail}), so a resolution there proves nothing`);
  // Port 443: the kubernetes Service's own, so the connection after the lookup does not hang.
  const real = await resolveAttempt(ctx, t, 'kubernetes', 443);
  evidence.push(real.evidence);
  if (!real.ok)
    problems.push(
      `the short name kubernetes did not resolve through the injected nameserver ${clusterDns} and suffix ${dnsConfig.searches[0]}: ${real.detail}`,
    );
  return problems.length
    ? { works: false, summary: problems.join('; '), evidence, node }
    : {
        works: true,
        summary: `ipconfig /all shows the injected 1.1.1.1 and resolv.conf.local; with nameserver ${clusterDns} and suffix ${dnsConfig.searches[0]} injected, kubernetes resolves and ${BOGUS_NAME} does not`,
        evidence,
        node,
      };
}

export const features: Feature[] = [
  {
    id: 'net.dns-service',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod resolves Service names (short and FQDN)',
    netPath: { from: 'windows-pod', to: 'cluster-dns' },
    needs: ['windows-node', 'linux-node'],
    fixtures: [FX.win, FX.winPeer, FX.winPeer2, FX.linux, FX.svcMixed],
    designedWaitMs: steadyPeriod,
    expect: () => supported('Windows pods resolve Service names through cluster DNS, short and fully qualified', sources(cite.intro(), cite.e2eTest('dns.go'))),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id]);
      if (!ready.ok) return ready.observation;
      ctx.fixture(FX.svcMixed.id);
      const t = ctx.podTransport(FX.win.id, 'windows');
      const evidence: EvidenceItem[] = [];
      const domain = await clusterDomain(ctx, t, evidence);
      const names = [FX.svcMixed.id, `${FX.svcMixed.id}.${ctx.namespace}.svc.${domain}`];
      const failed: string[] = [];
      const passed: string[] = [];
      // Both names at once: two independent paths, so two steady periods need not queue.
      for (const name of names) ctx.step(`resolving ${name} from ${FX.win.id} (curl.exe)`);
      const verdicts = await Promise.all(names.map(name => warmupThenSteady(ctx, `resolve ${name}`, () => resolveAttempt(ctx, t, name))));
      for (const [i, v] of verdicts.entries()) {
        evidence.push(...v.evidence);
        (v.ok ? passed : failed).push(v.ok ? names[i] : v.detail);
      }
      return failed.length
        ? { works: false, summary: failed.join('; '), evidence, node: ready.pods[FX.win.id].spec?.nodeName }
        : { works: true, summary: `resolved ${passed.join(' and ')} steadily`, evidence, node: ready.pods[FX.win.id].spec?.nodeName };
    },
  },
  {
    id: 'net.dns-dotted-name',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod resolves a partial dotted name (svc.namespace)',
    needs: ['windows-node', 'linux-node'],
    fixtures: [FX.win, FX.winPeer, FX.winPeer2, FX.linux, FX.svcMixed],
    designedWaitMs: confirmWindow,
    expect: () =>
      limited(
        'Windows treats any dotted name as an FQDN and skips the search suffixes, so "svc.namespace" does not resolve',
        sources(cite.intro(), cite.dns(), cite.networking()),
      ),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id]);
      if (!ready.ok) return ready.observation;
      ctx.fixture(FX.svcMixed.id);
      const t = ctx.podTransport(FX.win.id, 'windows');
      const evidence: EvidenceItem[] = [];
      const domain = await clusterDomain(ctx, t, evidence);
      // Control: the FQDN resolves from the same pod, so a failure below is about the dotted name;
      // once it has, a few failed tries of the dotted name are conclusive (boundedNegative).
      const fqdnName = `${FX.svcMixed.id}.${ctx.namespace}.svc.${domain}`;
      const resolved = await controlPasses(ctx, `resolve ${fqdnName} (control)`, () => resolveAttempt(ctx, t, fqdnName));
      const fqdn = resolved.failure ?? resolved.firstPass!;
      evidence.push(`control: ${fqdn.detail}`, fqdn.evidence);
      const dotted = `${FX.svcMixed.id}.${ctx.namespace}`;
      ctx.step(`resolving ${dotted} from ${FX.win.id} (curl.exe)`);
      const v = await boundedNegative(ctx, `resolve ${dotted}`, () => resolveAttempt(ctx, t, dotted), resolved.ok);
      evidence.push(...v.evidence);
      return {
        works: v.ok,
        summary: `${v.detail}${fqdn.ok ? '' : ' (the FQDN control did not resolve either)'}`,
        evidence,
        node: ready.pods[FX.win.id].spec?.nodeName,
        control: control(resolved.ok, `the FQDN from the same pod: ${fqdn.detail}`),
      };
    },
  },
  {
    id: 'net.dns-hostnet',
    area: 'networking',
    suite: SUITE,
    title: 'dnsPolicy ClusterFirstWithHostNet on a Windows host-network pod',
    needs: ['windows-node', 'linux-node', 'hostprocess'],
    fixtures: [FX.hostnetDns, FX.winPeer, FX.winPeer2, FX.linux, FX.svcMixed],
    designedWaitMs: confirmWindow,
    expect: () =>
      limited(
        "ClusterFirstWithHostNet is not supported on Windows: a host-network pod uses the node's DNS, not cluster DNS",
        sources(cite.intro(), cite.dns()),
      ),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.hostnetDns.id]);
      if (!ready.ok) throw new Error(`the HostProcess pod did not start, so its DNS cannot be seen: ${ready.observation.summary}`);
      ctx.fixture(FX.svcMixed.id);
      const t = ctx.podTransport(FX.hostnetDns.id, 'windows');
      const node = ready.pods[FX.hostnetDns.id].spec?.nodeName;
      // ClusterFirst(WithHostNet) means the cluster's resolver and search list: a short Service
      // name resolves only then. (An FQDN is weaker evidence: a node's own DNS may forward
      // cluster.local.) The FQDN and ipconfig /all are kept as evidence.
      const { r } = await ipconfigOf(ctx, t);
      const fqdn = await resolveAttempt(ctx, t, `${FX.svcMixed.id}.${ctx.namespace}.svc.cluster.local`);
      // The pod's resolver answers (the FQDN, else the outside host's name through the node's
      // DNS): then a few failed tries of the short name are conclusive (boundedNegative).
      const outside = ctx.options.egressUrl ? new URL(ctx.options.egressUrl).hostname.replace(/^\[|\]$/g, '') : undefined;
      const resolver = fqdn.ok || !outside ? undefined : await controlPasses(ctx, `resolve ${outside} (control)`, () => resolveAttempt(ctx, t, outside));
      const answered = fqdn.ok || Boolean(resolver?.ok);
      const name = FX.svcMixed.id;
      ctx.step(`resolving the short name ${name} from the host-network pod`);
      const v = await boundedNegative(
        ctx,
        `resolve the short name ${name} from a ClusterFirstWithHostNet host-network pod`,
        () => resolveAttempt(ctx, t, name),
        answered,
      );
      const controlEvidence = resolver ? [`resolver: ${resolver.detail}`, (resolver.firstPass ?? resolver.failure)!.evidence] : [];
      // Control: the same short name resolves from an ordinary (ClusterFirst) Windows pod, so
      // cluster DNS serves it and a failure above is about the host-network pod's DNS policy.
      const peer = await readyPods(ctx, [FX.winPeer.id]);
      if (!peer.ok) throw new Error(`the control pod ${FX.winPeer.id} did not start: ${peer.observation.summary}`);
      ctx.step(`control: resolving ${name} from ${FX.winPeer.id} (dnsPolicy ClusterFirst)`);
      const ordinary = await resolveAttempt(ctx, ctx.podTransport(FX.winPeer.id, 'windows'), name);
      return {
        works: v.ok,
        summary: `${v.detail} (FQDN: ${fqdn.detail})`,
        evidence: [r.evidence, fqdn.evidence, ...controlEvidence, ...v.evidence],
        node,
        control: control(ordinary.ok, `the short name ${name} from ${FX.winPeer.id} (ClusterFirst): ${ordinary.detail}`, [ordinary.evidence]),
      };
    },
  },
  {
    id: 'net.dns-config',
    area: 'networking',
    suite: SUITE,
    title: 'dnsPolicy None + dnsConfig: the injected nameserver and search suffix are used to resolve names',
    needs: ['windows-node'],
    fixtures: [FX.dnsConfig, FX.winPeer],
    expect: () =>
      supported(
        "dnsPolicy None with dnsConfig sets the pod's DNS servers and search list, and names resolve through them",
        sources(cite.e2eTest('dns.go', 'should support configurable pod DNS servers: kubernetes resolves through the injected server, a bogus name does not')),
      ),
    probe: dnsConfigProbe,
  },
];
