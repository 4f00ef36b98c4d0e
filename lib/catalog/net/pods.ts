// Networking (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Networking"): pod addresses, pod ↔ pod paths, DNS, egress, ICMP and the
// Windows node's own paths, suite "networking". Service paths (ClusterIP, NodePort, LoadBalancer,
// affinity, DSR, hairpin) are in services.ts. Probes follow upstream test/e2e/windows
// (hybrid_network.go, dns.go): curl.exe from Windows, nc from Linux, never ICMP for reachability,
// a warm-up then a steady period per path (lib/catalog/net/steady.ts).

import { limited, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import { checkPodPath, nodeGetObservation, pathObservation, peersAnswer } from './pathChecks.ts';
import { clusterIPOf, podIP, podIPs, readService, urlOf } from './addresses.ts';
import { ensureFarPod } from './farPod.ts';
import { FAR_POD, FX, SERVICE_PORT, NETEXEC_PORT } from './netexec.ts';
import { httpAttempt } from './attempts.ts';
import { readyPods } from '../kit/podWaits.ts';
import { dualStackExpectation, ipv6OnlyExpectation } from './expect.ts';
import { clusterDomainOf, curlFailureOf, dnsServersOf, parseIpconfig, pingReplies, pingUnresolved } from './parse.ts';
import { boundedNegative, confirmWindow, controlPasses, steadyPeriod, warmupThenSteady, type Attempt } from './steady.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import type { ProbeOS, Transport } from '../../probes/types.ts';

const SUITE = 'networking';
const POD_PATH_SOURCE = 'FEATURES.md; upstream test/e2e/windows/hybrid_network.go';

/** `ipconfig /all` in a Windows pod: evidence plus the parsed view. */
async function ipconfigOf(ctx: CheckContext, t: Transport) {
  const r = await ctx.probe(t, { kind: 'ip-config', all: true });
  return { r, cfg: parseIpconfig(r.evidence.stdout) };
}

/**
 * A name lookup seen through curl.exe, as upstream dns.go does (nslookup ignores ndots and may
 * exit 0 on failure): resolved unless curl says it could not resolve (exit 6 / "Resolving timed out").
 */
async function resolveAttempt(ctx: CheckContext, t: Transport, name: string): Promise<Attempt> {
  const a = await httpAttempt(ctx, t, urlOf(name, SERVICE_PORT));
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

/**
 * A pod → pod path by pod IP between net-win and another fixture pod (both Ready first), from
 * net-win to the peer or from the peer (probing with its OS's tools) to net-win; the observation
 * is on net-win's node.
 */
async function pathWithWinPod(ctx: CheckContext, direction: 'from' | 'to', peer: { id: string; os: ProbeOS }, what: string): Promise<Observation> {
  const ready = await readyPods(ctx, [FX.win.id, peer.id]);
  if (!ready.ok) return ready.observation;
  const win = ready.pods[FX.win.id];
  const check =
    direction === 'from'
      ? await checkPodPath(ctx, { name: FX.win.id, os: 'windows', ip: podIP(win) }, { name: peer.id, host: podIP(ready.pods[peer.id]) }, what)
      : await checkPodPath(ctx, { name: peer.id, os: peer.os, ip: podIP(ready.pods[peer.id]) }, { name: FX.win.id, host: podIP(win) }, what);
  return pathObservation(check, win.spec?.nodeName);
}

export const features: Feature[] = [
  {
    id: 'net.pod-ip',
    area: 'networking',
    suite: SUITE,
    title: 'Each Windows pod gets its own IP (one endpoint per pod)',
    needs: ['windows-node'],
    fixtures: [FX.win, FX.winPeer, FX.winPeer2],
    expect: () => supported('every Windows pod gets its own IP address (one HNS endpoint per pod)', 'FEATURES.md; seed 003'),
    probe: async ctx => {
      const names = [FX.win.id, FX.winPeer.id, FX.winPeer2.id];
      const ready = await readyPods(ctx, names);
      if (!ready.ok) return ready.observation;
      const evidence: EvidenceItem[] = [];
      const problems: string[] = [];
      const ips = names.map(n => ready.pods[n].status?.podIP ?? '');
      evidence.push(`pod IPs: ${names.map((n, i) => `${n}=${ips[i] || 'none'}@${ready.pods[n].spec?.nodeName}`).join(', ')}`);
      if (ips.some(ip => !ip)) problems.push('a Ready pod has no IP');
      if (new Set(ips).size !== ips.length) problems.push('pods share an IP');
      const nodeIPs = new Set(ctx.cluster.nodes.map(n => n.internalIP).filter(Boolean));
      if (ips.some(ip => nodeIPs.has(ip))) problems.push("a pod has its node's IP (host network)");
      for (const [i, n] of names.entries()) {
        const { r, cfg } = await ipconfigOf(ctx, ctx.podTransport(n, 'windows'));
        evidence.push(r.evidence);
        const own = cfg.adapters.flatMap(a => a.ipv4);
        if (!r.ok) problems.push(`ipconfig failed in ${n}`);
        else if (ips[i] && !own.includes(ips[i])) problems.push(`ipconfig in ${n} shows ${own.join(', ') || 'no IPv4 address'}, not its pod IP ${ips[i]}`);
      }
      return problems.length
        ? { works: false, summary: problems.join('; '), evidence, node: ready.pods[names[0]].spec?.nodeName }
        : {
            works: true,
            summary: `${names.length} Windows pods on one node have distinct IPs ${ips.join(', ')}, each shown by its own ipconfig`,
            evidence,
            node: ready.pods[names[0]].spec?.nodeName,
          };
    },
  },
  {
    id: 'net.w2w-same-node',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod → Windows pod on the same node (pod IP, HTTP)',
    netPath: { from: 'windows-pod', to: 'windows-pod-same-node' },
    needs: ['windows-node'],
    fixtures: [FX.win, FX.winPeer],
    designedWaitMs: steadyPeriod,
    expect: () => supported('Windows pods reach each other by pod IP', POD_PATH_SOURCE),
    probe: ctx => pathWithWinPod(ctx, 'from', { id: FX.winPeer.id, os: 'windows' }, 'W → W (same node)'),
  },
  {
    id: 'net.w2w-cross-node',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod → Windows pod on another node (pod IP, HTTP)',
    netPath: { from: 'windows-pod', to: 'windows-pod-other-node' },
    needs: ['two-windows-nodes'],
    fixtures: [FX.win, FX.winPeer],
    designedWaitMs: steadyPeriod,
    expect: () => supported('Windows pods on different nodes reach each other by pod IP', POD_PATH_SOURCE),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id]);
      if (!ready.ok) return ready.observation;
      const client = ready.pods[FX.win.id];
      const far = await ensureFarPod(ctx, client.spec?.nodeName ?? '');
      if ('missing' in far) return { works: false, summary: far.missing, evidence: [], notApplicable: far.missing };
      const farReady = await readyPods(ctx, [FAR_POD]);
      if (!farReady.ok) return farReady.observation;
      const check = await checkPodPath(
        ctx,
        { name: FX.win.id, os: 'windows', ip: podIP(client) },
        { name: FAR_POD, host: podIP(farReady.pods[FAR_POD]) },
        `W → W (${client.spec?.nodeName} → ${far.node.name})`,
      );
      return pathObservation(check, client.spec?.nodeName);
    },
  },
  {
    id: 'net.w2l',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod → Linux pod (pod IP, HTTP)',
    netPath: { from: 'windows-pod', to: 'linux-pod' },
    needs: ['windows-node', 'linux-node'],
    fixtures: [FX.win, FX.linux],
    designedWaitMs: steadyPeriod,
    expect: () => supported('Windows pods reach Linux pods by pod IP', POD_PATH_SOURCE),
    probe: ctx => pathWithWinPod(ctx, 'from', { id: FX.linux.id, os: 'linux' }, 'W → L'),
  },
  {
    id: 'net.l2w',
    area: 'networking',
    suite: SUITE,
    title: 'Linux pod → Windows pod (pod IP, TCP then HTTP)',
    netPath: { from: 'linux-pod', to: 'windows-pod-other-node' },
    needs: ['windows-node', 'linux-node'],
    fixtures: [FX.win, FX.linux],
    designedWaitMs: steadyPeriod,
    expect: () => supported('Linux pods reach Windows pods by pod IP', POD_PATH_SOURCE),
    probe: ctx => pathWithWinPod(ctx, 'to', { id: FX.linux.id, os: 'linux' }, 'L → W'),
  },
  {
    id: 'net.dns-service',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod resolves Service names (short and FQDN)',
    netPath: { from: 'windows-pod', to: 'cluster-dns' },
    needs: ['windows-node', 'linux-node'],
    fixtures: [FX.win, FX.winPeer, FX.winPeer2, FX.linux, FX.svcMixed],
    designedWaitMs: steadyPeriod,
    expect: () =>
      supported('Windows pods resolve Service names through cluster DNS, short and fully qualified', 'FEATURES.md; upstream test/e2e/windows/dns.go'),
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
        'FEATURES.md; upstream doc dns-pod-service and windows-networking',
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
        'FEATURES.md; upstream doc dns-pod-service',
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
    title: 'dnsPolicy None + dnsConfig nameservers visible in ipconfig /all',
    needs: ['windows-node'],
    fixtures: [FX.dnsConfig],
    expect: () => supported("dnsPolicy None with dnsConfig sets the pod's DNS servers and search list", 'FEATURES.md; upstream test/e2e/windows/dns.go'),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.dnsConfig.id]);
      if (!ready.ok) return ready.observation;
      const { r, cfg } = await ipconfigOf(ctx, ctx.podTransport(FX.dnsConfig.id, 'windows'));
      const servers = dnsServersOf(cfg);
      const node = ready.pods[FX.dnsConfig.id].spec?.nodeName;
      if (!r.ok) return { works: false, summary: `ipconfig /all failed: ${r.detail}`, evidence: [r.evidence], node };
      const hasServer = servers.includes('1.1.1.1');
      const hasSuffix = cfg.searchList.map(s => s.toLowerCase()).includes('resolv.conf.local');
      const seen = `DNS servers ${servers.join(', ') || 'none'}; search list ${cfg.searchList.join(', ') || 'none'}`;
      return hasServer
        ? {
            works: true,
            summary: `ipconfig /all shows the configured nameserver 1.1.1.1 (${seen})${hasSuffix ? '' : '; the search suffix resolv.conf.local is missing'}`,
            evidence: [r.evidence],
            node,
          }
        : { works: false, summary: `ipconfig /all does not show the configured nameserver 1.1.1.1 (${seen})`, evidence: [r.evidence], node };
    },
  },
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
      supported("Windows pods reach addresses outside the cluster through the node's outbound NAT", 'FEATURES.md; upstream test/e2e/windows/hybrid_network.go'),
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
        'seed 003; upstream doc windows-networking',
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
  {
    id: 'net.node-to-pod',
    area: 'networking',
    suite: SUITE,
    title: 'Windows node → pod IP',
    netPath: { from: 'windows-node', to: 'windows-pod-same-node' },
    needs: ['windows-node', 'node-access'],
    fixtures: [FX.winPeer],
    designedWaitMs: steadyPeriod,
    expect: () => supported('a Windows node reaches pods by pod IP', 'FEATURES.md'),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.winPeer.id]);
      if (!ready.ok) return ready.observation;
      const server = ready.pods[FX.winPeer.id];
      const node = ctx.cluster.nodes.find(n => n.name === server.spec?.nodeName) ?? ctx.windowsNode!;
      return nodeGetObservation(ctx, node, FX.winPeer.id, async () => urlOf(podIP(server), NETEXEC_PORT));
    },
  },
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
