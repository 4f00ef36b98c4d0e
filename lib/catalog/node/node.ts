// Node (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Node"): services and HNS networks seen on the node itself (HostProcess pod or
// SSH), runtime, OS build support, version skew, the pause image on every Windows build.

import { permissions } from '../../cluster/permission.ts';
import type { V1Node } from '@kubernetes/client-node';
import { rawGet } from '../../cluster/rawGet.ts';
import { WaitTimeoutError } from '../../cluster/watch.ts';
import { nodeInfoOf, schedulableWindowsNodes, windowsNodes } from '../../discovery/nodes.ts';
import type { ClusterInfo, NodeInfo } from '../../discovery/types.ts';
import type { ServerVersion } from '../../facts/kubernetes.ts';
import { buildNumberOf, windowsBuildRow } from '../../facts/windows.ts';
import { checkImageForBuild, NoImageError } from '../../fixtures/images.ts';
import { FIXTURE_LABEL } from '../../fixtures/render.ts';
import type { ProbeResult, Transport } from '../../probes/types.ts';
import { serviceState } from '../../probes/readers/service.ts';
import { isHnsdiagListing, parseHnsdiagNetworks, parseHnsNetworks, type HnsNetwork } from '../../probes/readers/hnsNetworks.ts';
import { supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import type { CheckContext, EvidenceItem, Expectation, Feature, Observation } from '../types.ts';
import { DOCKERSHIM_REMOVED, DOCKERSHIM_SOURCE, k8sAtLeast, runtimeSupport } from '../../facts/kubernetes.ts';
import { firstSandboxFailure, recentEvents, throwIfNoPodMade, waitForPodSet } from '../kit/podWaits.ts';
import { notVisitedWindowsNodes, nodeTransportOf, readyWindowsNodes, selectedNodes } from '../kit/nodeTargets.ts';
import { isPlatformMismatch, pullFailureText } from '../../cluster/podFailures.ts';
import { listAll } from '../../cluster/list.ts';
import { cite, sources } from '../../facts/sources.ts';
import { whileFixtureControllerActs } from '../kit/controllerActs.ts';
import { probeBatch } from '../kit/probeBatch.ts';

// ---- pure rules (tested without a cluster) ------------------------------------------------

/** Whether the control plane's version supports the build (lib/facts/windows.ts WINDOWS_BUILDS). */
export function buildSupport(build: string | undefined, v: ServerVersion): { ok: boolean; why: string } {
  const row = windowsBuildRow(build ? buildNumberOf(build) : undefined);
  const range = row?.kubernetes;
  if (!row || !range) return { ok: false, why: `build ${build ?? 'unknown'} is not a supported Windows Server release` };
  const after = k8sAtLeast(v, ...range.from);
  const before = !range.until || !k8sAtLeast(v, range.until[0], range.until[1] + 1);
  return after && before
    ? { ok: true, why: `${row.release} (${build}) is supported by Kubernetes ${v.gitVersion}` }
    : {
        ok: false,
        why: `${row.release} (${build}) is supported by Kubernetes v${range.from.join('.')}${range.until ? `-v${range.until.join('.')}` : '+'}, not ${v.gitVersion}`,
      };
}

/** Minor versions a kubelet may lag the API server: 3 from 1.28 (KEP-3935), 2 before. */
export function allowedSkew(v: ServerVersion): number {
  return k8sAtLeast(v, 1, 28) ? 3 : 2;
}

export function skewOf(kubeletVersion: string, v: ServerVersion): { ok: boolean; why: string } {
  const m = /^v?(\d+)\.(\d+)/.exec(kubeletVersion);
  if (!m) return { ok: false, why: `kubelet version "${kubeletVersion}" cannot be read` };
  const [major, minor] = [Number(m[1]), Number(m[2])];
  const allowed = allowedSkew(v);
  if (major !== v.major) return { ok: false, why: `kubelet ${kubeletVersion} is another major version than the API server ${v.gitVersion}` };
  const lag = v.minor - minor;
  if (lag < 0) return { ok: false, why: `kubelet ${kubeletVersion} is newer than the API server ${v.gitVersion}` };
  return lag <= allowed
    ? { ok: true, why: `kubelet ${kubeletVersion} is ${lag} minor version(s) behind ${v.gitVersion} (at most ${allowed})` }
    : { ok: false, why: `kubelet ${kubeletVersion} is ${lag} minor versions behind ${v.gitVersion} (at most ${allowed} allowed)` };
}

export { serviceState } from '../../probes/readers/service.ts';
export { parseHnsNetworks, parseHnsdiagNetworks } from '../../probes/readers/hnsNetworks.ts';

/** `ipconfig` adapters named vEthernet (...). */
export function vEthernetAdapters(ipconfig: string): string[] {
  return [...ipconfig.matchAll(/adapter (vEthernet \([^)]*\)):/g)].map(m => m[1]);
}

/** HNS network types the Windows CNIs create, per discovered network mode. */
const HNS_TYPE_FOR_MODE: Record<string, string> = { l2bridge: 'L2Bridge', 'host-gw': 'L2Bridge', overlay: 'Overlay' };

/** The pause image the fixture runs (the kubelet's default sandbox image since v1.31). */
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10';

/**
 * What the pause image's manifest list promises per Windows build: 1809 and ltsc2022 variants
 * (k8s build/pause/Makefile); 2025 and 23H2 run the ltsc2022 one under the stable ABI.
 */
export function pauseImageExpectation(c: ClusterInfo): Expectation {
  const builds = [
    ...new Set(
      schedulableWindowsNodes(c.nodes)
        .map(n => n.windowsBuild)
        .filter((b): b is string => !!b),
    ),
  ].sort();
  const per = builds.map(b => {
    try {
      const note = checkImageForBuild(PAUSE_IMAGE, b);
      return { b, ok: true, why: note ? `build ${b}: no variant of its own; ${note.slice(PAUSE_IMAGE.length + 2)}` : `build ${b}: its own variant` };
    } catch (e) {
      return { b, ok: false, why: `build ${b}: ${e instanceof NoImageError ? e.message : String(e)}` };
    }
  });
  const source = sources(
    cite.v122Intro('pause image'),
    cite.k8s('build/pause/Makefile', 'Windows 1809, ltsc2022'),
    cite.containerdPlatforms('stable ABI'),
    cite.ours('docs/images.md'),
  );
  const head = `${PAUSE_IMAGE} holds Linux and Windows 1809 and ltsc2022 variants`;
  const bad = per.filter(p => !p.ok);
  return bad.length
    ? { expected: 'limited', reason: `${head}: ${per.map(p => p.why).join('; ')}`, source }
    : supported(`${head}${per.length ? `: ${per.map(p => p.why).join('; ')}` : ''}`, source);
}

// ---- probes -------------------------------------------------------------------------------

async function liveWindowsNodes(ctx: CheckContext): Promise<NodeInfo[]> {
  const list = await listAll(q => ctx.kube.core.listNode(q));
  return selectedNodes(ctx, windowsNodes(list.items.map((n: V1Node) => nodeInfoOf(n))));
}

/** What one node's check found: a problem, nothing wrong (undefined), or that it could not tell. */
type NodeFinding = string | undefined | { couldNotTell: string };

/** Runs `perNode` on every Ready Windows node in parallel; n/a if any has no transport or could not tell. */
async function onEveryNode(ctx: CheckContext, perNode: (node: NodeInfo, t: Transport, evidence: EvidenceItem[]) => Promise<NodeFinding>): Promise<Observation> {
  const skipped = notVisitedWindowsNodes(ctx);
  const nodes = readyWindowsNodes(ctx);
  if (!nodes.length && skipped.length)
    return { works: false, summary: 'no Windows node visited', evidence: [], notApplicable: `no Windows node can be visited: ${skipped.join(', ')}` };
  if (!nodes.length) throw new Error('no Ready Windows node');
  const evidence: EvidenceItem[] = [];
  const results = await Promise.all(
    nodes.map(async node => {
      const access = await nodeTransportOf(ctx, node.name);
      if ('na' in access) return { node: node.name, na: access.na };
      const ev: EvidenceItem[] = [];
      const found = await perNode(node, access.transport, ev);
      return typeof found === 'object'
        ? { node: node.name, ev, na: { works: false, summary: found.couldNotTell, evidence: ev, node: node.name, notApplicable: found.couldNotTell } }
        : { node: node.name, problem: found, ev };
    }),
  );
  for (const r of results) evidence.push(...(r.ev ?? []));
  if (skipped.length) evidence.push(`not visited: ${skipped.join(', ')}`);
  const problems = results.filter(r => r.problem).map(r => `${r.node}: ${r.problem}`);
  // A problem seen on one node is an observation even where another node could not tell.
  const na = results.find(r => r.na);
  if (na?.na && !problems.length) return { ...na.na, evidence };
  return problems.length
    ? { works: false, summary: problems.join('; '), evidence, node: results.find(r => r.problem)?.node }
    : { works: true, summary: `checked on ${visitedText(ctx)}`, evidence, node: nodes[0].name };
}

/** "win-1, win-2; not visited: win-3 (cordoned ...)": the nodes a node-level check ran on, and those it left out. */
function visitedText(ctx: CheckContext): string {
  const skipped = notVisitedWindowsNodes(ctx);
  return `${readyWindowsNodes(ctx)
    .map(n => n.name)
    .join(', ')}${skipped.length ? `; not visited: ${skipped.join(', ')}` : ''}`;
}

/** kube-proxy's Windows service names: upstream and most providers, and AKS's. */
export const KUBE_PROXY_SERVICES = ['kube-proxy', 'kubeproxy'];

/** `sc.exe queryex <svc>` on the node: its state (RUNNING, STOPPED, NOT_INSTALLED...) or undefined. */
async function queryService(
  ctx: CheckContext,
  node: NodeInfo,
  t: Transport,
  svc: string,
  evidence: EvidenceItem[],
): Promise<{ state: string | undefined; exitCode: number }> {
  ctx.step(`on ${node.name}: sc.exe queryex ${svc}`);
  const r = await ctx.probe(t, { kind: 'service-query', name: svc });
  evidence.push(r.evidence);
  return { state: serviceState(r.evidence.stdout + r.evidence.stderr, r.evidence.exitCode), exitCode: r.evidence.exitCode };
}

/** `sc.exe queryex` of each service on the node, in one exec session where the transport allows; evidence in this order. */
async function queryServices(
  ctx: CheckContext,
  node: NodeInfo,
  t: Transport,
  svcs: string[],
  evidence: EvidenceItem[],
): Promise<{ state: string | undefined; exitCode: number }[]> {
  for (const svc of svcs) ctx.step(`on ${node.name}: sc.exe queryex ${svc}`);
  const results = await probeBatch(
    ctx,
    t,
    svcs.map(name => ({ kind: 'service-query', name })),
  );
  return results.map(r => {
    evidence.push(r.evidence);
    return { state: serviceState(r.evidence.stdout + r.evidence.stderr, r.evidence.exitCode), exitCode: r.evidence.exitCode };
  });
}

const describeState = (state: string | undefined, exitCode: number) =>
  state === undefined ? `in an unreadable state (exit ${exitCode})` : state === 'NOT_INSTALLED' ? 'not installed as a service' : state;

/** A Running kube-proxy pod of a kube-system DaemonSet on the node (the sig-windows-tools HostProcess layout). */
async function kubeProxyPodOn(ctx: CheckContext, node: string): Promise<string | undefined> {
  const pods = await listAll(q => ctx.kube.core.listNamespacedPod({ namespace: 'kube-system', fieldSelector: `spec.nodeName=${node}`, ...q }));
  const pod = pods.items.find(
    p =>
      p.spec?.nodeName === node &&
      p.status?.phase === 'Running' &&
      (p.metadata?.ownerReferences ?? []).some(o => o.kind === 'DaemonSet' && /kube-?proxy/i.test(o.name)),
  );
  return pod ? `${pod.metadata?.name} of DaemonSet ${pod.metadata?.ownerReferences?.find(o => o.kind === 'DaemonSet')?.name}` : undefined;
}

async function servicesProbe(ctx: CheckContext): Promise<Observation> {
  const proxyDaemonSets = ctx.cluster.network.kubeProxyDaemonSets.filter(n => /win/i.test(n));
  const obs = await onEveryNode(ctx, async (node, t, evidence) => {
    const problems: string[] = [];
    // The node's three queries in one exec session (one request per node, not three).
    const [kubelet, containerd, first] = await queryServices(ctx, node, t, ['kubelet', 'containerd', KUBE_PROXY_SERVICES[0]], evidence);
    for (const [svc, q] of [
      ['kubelet', kubelet],
      ['containerd', containerd],
    ] as const)
      if (q.state !== 'RUNNING') problems.push(`${svc} is ${describeState(q.state, q.exitCode)}`);
    // kube-proxy: a service under either name (AKS: kubeproxy), else a HostProcess DaemonSet pod.
    const proxy: { name: string; state: string | undefined; exitCode: number }[] = [{ name: KUBE_PROXY_SERVICES[0], ...first }];
    for (const name of KUBE_PROXY_SERVICES.slice(1)) {
      if (proxy[proxy.length - 1].state !== 'NOT_INSTALLED') break;
      proxy.push({ name, ...(await queryService(ctx, node, t, name, evidence)) });
    }
    const installed = proxy.find(p => p.state !== 'NOT_INSTALLED');
    if (installed) {
      if (installed.state !== 'RUNNING') problems.push(`kube-proxy (service ${installed.name}) is ${describeState(installed.state, installed.exitCode)}`);
      else evidence.push(`${node.name}: kube-proxy runs as the Windows service ${installed.name}`);
    } else {
      ctx.step(`on ${node.name}: kube-proxy is no service; looking for a kube-proxy DaemonSet pod on the node`);
      const pod = await kubeProxyPodOn(ctx, node.name);
      if (pod) evidence.push(`${node.name}: kube-proxy is not a Windows service; it runs as pod ${pod} (HostProcess)`);
      else
        problems.push(
          `kube-proxy is not installed as a service (${KUBE_PROXY_SERVICES.join(' or ')}) and no kube-proxy DaemonSet pod runs on the node${proxyDaemonSets.length ? ` (DaemonSet ${proxyDaemonSets.join(', ')} exists)` : ''}`,
        );
    }
    return problems.length ? problems.join(', ') : undefined;
  });
  return obs.works
    ? {
        ...obs,
        summary: `kubelet, containerd and kube-proxy are running on ${visitedText(ctx)}`,
      }
    : obs;
}

const NOT_RECOGNIZED = /is not recognized as (the name of a cmdlet|an internal or external command)/i;
/** PowerShell's CommandNotFoundException for Get-HnsNetwork itself (its error record names the term). */
const NOT_RECOGNIZED_HNS = /'Get-HnsNetwork' is not recognized as the name of a cmdlet/i;

/**
 * The node's HNS networks: Get-HnsNetwork, else (its hns.psm1 module absent, as on nodes that do
 * not download it) hnsdiag list networks. `couldNotTell` when neither source answered readably.
 */
/** The HNS networks from Get-HnsNetwork's answer, or from hnsdiag where Get-HnsNetwork is not installed. */
async function hnsNetworksOf(
  ctx: CheckContext,
  node: NodeInfo,
  t: Transport,
  hns: ProbeResult,
  evidence: EvidenceItem[],
): Promise<{ nets: HnsNetwork[]; source: string; failed?: string } | { couldNotTell: string }> {
  evidence.push(hns.evidence);
  const absent = !hns.ok && NOT_RECOGNIZED_HNS.test(hns.evidence.stdout + hns.evidence.stderr);
  if (!absent) {
    const nets = parseHnsNetworks(hns.evidence.stdout);
    // No network prints nothing; output that holds no Name/Type block was not understood.
    if (hns.ok && !nets.length && hns.evidence.stdout.trim())
      throw new Error(`could not read Get-HnsNetwork's output on ${node.name}: ${hns.evidence.stdout.trim().split(/\r?\n/)[0].slice(0, 200)}`);
    return { nets, source: 'Get-HnsNetwork', failed: !hns.ok && !nets.length ? `Get-HnsNetwork failed (${hns.detail})` : undefined };
  }
  ctx.step(`on ${node.name}: Get-HnsNetwork is not installed (no hns.psm1); hnsdiag list networks`);
  const diag = await ctx.probe(t, { kind: 'host-networks' });
  evidence.push(diag.evidence);
  const nets = parseHnsdiagNetworks(diag.evidence.stdout);
  const why = `could not tell the HNS networks of ${node.name}: Get-HnsNetwork is not installed there (its hns.psm1 module is not imported; AKS downloads it)`;
  if (diag.evidence.exitCode !== 0)
    return {
      couldNotTell: `${why}, and hnsdiag list networks failed (exit ${diag.evidence.exitCode}${NOT_RECOGNIZED.test(diag.evidence.stdout + diag.evidence.stderr) ? ': not on the node' : ''})`,
    };
  if (!nets.length && diag.evidence.stdout.trim() && !isHnsdiagListing(diag.evidence.stdout))
    return { couldNotTell: `${why}, and hnsdiag's output could not be read: ${diag.evidence.stdout.trim().split(/\r?\n/)[0].slice(0, 200)}` };
  return { nets, source: 'hnsdiag list networks' };
}

async function hnsProbe(ctx: CheckContext): Promise<Observation> {
  const wantType = ctx.cluster.network.networkMode ? HNS_TYPE_FOR_MODE[ctx.cluster.network.networkMode] : undefined;
  const obs = await onEveryNode(ctx, async (node, t, evidence) => {
    // Get-HnsNetwork and ipconfig in one exec session (one request per node, not two); a batch's
    // stderr is shared, but only Get-HnsNetwork's own "not recognized" counts as its absence.
    ctx.step(`on ${node.name}: Get-HnsNetwork and ipconfig`);
    const [hns, ip] = await probeBatch(ctx, t, [{ kind: 'node-command', script: 'Get-HnsNetwork | Format-List Name, Type, ID' }, { kind: 'ip-config' }]);
    const found = await hnsNetworksOf(ctx, node, t, hns, evidence);
    evidence.push(ip.evidence);
    if ('couldNotTell' in found) return found;
    const { nets } = found;
    // Older hnsdiag lists no type: such a network is the CNI's unless its name is the host's NAT/ICS one.
    const cni = nets.filter(n => !/^(nat|ics)$/i.test(n.type) && !(n.type === '' && /^(nat|ics|default switch)$/i.test(n.name)));
    const adapters = vEthernetAdapters(ip.evidence.stdout);
    evidence.push(
      `${node.name}: HNS networks (${found.source}) ${nets.map(n => `${n.name} (${n.type || 'type not listed'})`).join(', ') || 'none'}; adapters ${adapters.join(', ') || 'none'}`,
    );
    const problems: string[] = [];
    if (found.failed) problems.push(found.failed);
    else if (!cni.length) problems.push('no CNI HNS network (only NAT or none)');
    else if (wantType && !cni.some(n => n.type === '' || n.type.toLowerCase() === wantType.toLowerCase()))
      problems.push(`no ${wantType} network for ${ctx.cluster.network.networkMode} mode (found ${cni.map(n => n.type).join(', ')})`);
    if (!adapters.length) problems.push('no vEthernet adapter in ipconfig');
    return problems.length ? problems.join('; ') : undefined;
  });
  return obs.works
    ? {
        ...obs,
        summary: `the CNI's HNS network and a vEthernet adapter exist on ${visitedText(ctx)}`,
      }
    : obs;
}

async function runtimeProbe(ctx: CheckContext): Promise<Observation> {
  ctx.step('reading status.nodeInfo.containerRuntimeVersion of every Windows node');
  const nodes = await liveWindowsNodes(ctx);
  const { v, evidence: ve } = await serverVersion(ctx);
  const verdicts = nodes.map(n => ({ n, ...runtimeSupport(n, v) }));
  const evidence: EvidenceItem[] = [ve, ...verdicts.map(x => `node ${x.n.name}: ${x.why}`)];
  const bad = verdicts.filter(x => x.ok === false);
  const unknown = verdicts.filter(x => x.ok === undefined);
  if (bad.length) return { works: false, summary: bad.map(x => x.why).join('; '), evidence, node: bad[0].n.name };
  if (unknown.length)
    return { works: false, summary: unknown.map(x => x.why).join('; '), evidence, node: unknown[0].n.name, notApplicable: unknown.map(x => x.why).join('; ') };
  return {
    works: true,
    summary: `every Windows node runs a runtime Kubernetes ${v.gitVersion} supports (${[...new Set(nodes.map(n => `${n.runtimeName} ${n.runtimeVersion}`))].join(', ')})`,
    evidence,
    node: nodes[0]?.name,
  };
}

async function serverVersion(ctx: CheckContext): Promise<{ v: ServerVersion; evidence: string }> {
  const r = await rawGet(ctx.kube, '/version');
  if (r.status !== 200) throw new Error(`GET /version: HTTP ${r.status}`);
  const body = JSON.parse(r.body) as { gitVersion: string; major: string; minor: string };
  const v = { gitVersion: body.gitVersion, major: Number(body.major), minor: parseInt(body.minor, 10) };
  return { v, evidence: `GET /version: ${body.gitVersion} (major ${body.major}, minor ${body.minor})` };
}

async function osSupportedProbe(ctx: CheckContext): Promise<Observation> {
  ctx.step("reading GET /version and every Windows node's build");
  const { v, evidence: ve } = await serverVersion(ctx);
  const nodes = await liveWindowsNodes(ctx);
  const verdicts = nodes.map(n => ({ n, ...buildSupport(n.windowsBuild, v) }));
  const evidence: EvidenceItem[] = [
    ve,
    ...verdicts.map(
      x => `node ${x.n.name}: ${x.n.osImage}, kernel ${x.n.kernelVersion}, label ${x.n.labels['node.kubernetes.io/windows-build'] ?? 'absent'}: ${x.why}`,
    ),
  ];
  const bad = verdicts.filter(x => !x.ok);
  return bad.length
    ? { works: false, summary: bad.map(x => `${x.n.name}: ${x.why}`).join('; '), evidence, node: bad[0].n.name }
    : {
        works: true,
        summary: `every Windows node runs a build Kubernetes ${v.gitVersion} supports (${[...new Set(nodes.map(n => n.windowsBuild))].join(', ')})`,
        evidence,
        node: nodes[0]?.name,
      };
}

async function skewProbe(ctx: CheckContext): Promise<Observation> {
  ctx.step("reading GET /version and every Windows node's kubelet version");
  const { v, evidence: ve } = await serverVersion(ctx);
  const nodes = await liveWindowsNodes(ctx);
  const verdicts = nodes.map(n => ({ n, ...skewOf(n.kubeletVersion, v) }));
  const evidence: EvidenceItem[] = [ve, ...verdicts.map(x => `node ${x.n.name}: ${x.why}`)];
  const bad = verdicts.filter(x => !x.ok);
  return bad.length
    ? { works: false, summary: bad.map(x => `${x.n.name}: ${x.why}`).join('; '), evidence, node: bad[0].n.name }
    : { works: true, summary: `every Windows kubelet is within n-${allowedSkew(v)} of ${v.gitVersion}`, evidence, node: nodes[0]?.name };
}

async function pauseImageProbe(ctx: CheckContext): Promise<Observation> {
  const fixture = ctx.fixture('pause-image');
  const nodes = schedulableWindowsNodes(ctx.cluster.nodes);
  const builds = [...new Set(nodes.map(n => n.windowsBuild ?? 'unknown'))];
  ctx.step(`waiting for one pause pod per schedulable Windows node (${nodes.length}; builds ${builds.join(', ')})`);
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const evidence: EvidenceItem[] = [];
  let pods;
  try {
    const sandbox = firstSandboxFailure(ctx, 'pause-image-', stop.signal).then(m => ({ sandbox: m }));
    const set = whileFixtureControllerActs(ctx, fixture, () =>
      waitForPodSet(ctx, `${FIXTURE_LABEL}=pause-image`, nodes.length, ctx.options.timeouts.podStart, stop.signal),
    ).then(p => ({ pods: p }));
    const first = await Promise.race([sandbox, set]);
    if ('sandbox' in first) {
      evidence.push(first.sandbox);
      // Control (for a limited build): the runtime's refusal names the image's platform.
      const platform = isPlatformMismatch(first.sandbox);
      return {
        works: false,
        summary: `a pod sandbox could not start: ${first.sandbox}`,
        evidence,
        control: control(
          platform,
          platform ? "the sandbox failure names the pause image's platform" : "the sandbox failure does not name the image's platform",
        ),
      };
    }
    pods = first.pods;
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    // A DaemonSet that made no pod at all never ran the pause image: its controller or placement
    // (the harness's means) failed, not the image.
    await throwIfNoPodMade(ctx, `${FIXTURE_LABEL}=pause-image`, 'DaemonSet pause-image (so the pause image never ran)', e);
    return { works: false, summary: e.message, evidence: [...evidence, e.message] };
  } finally {
    stop.abort();
    ctx.signal.removeEventListener('abort', onAbort);
  }
  const byNode = new Map(nodes.map(n => [n.name, n]));
  const readyBuilds = new Set<string>();
  const problems: string[] = [];
  for (const p of pods) {
    const nodeName = p.pod.spec?.nodeName ?? '';
    const build = byNode.get(nodeName)?.windowsBuild ?? 'unknown';
    const waiting = p.pod.status?.containerStatuses?.[0]?.state?.waiting;
    evidence.push(`pod ${p.pod.metadata?.name} on ${nodeName} (build ${build}): ${p.state}${waiting?.message ? ` — ${waiting.message}` : ''}`);
    if (p.state === 'ready') {
      readyBuilds.add(build);
      continue;
    }
    const said = `${waiting?.message ?? ''} ${p.state === 'failed' ? p.reason : p.message}`.trim();
    const pulling = /ErrImagePull|ImagePullBackOff|Back-off pulling/.test(`${waiting?.reason ?? ''} ${said}`);
    // Kubelets before 1.32 say only 'Back-off pulling image "X"': the cause is in the pod's events.
    const msg = pulling ? pullFailureText(said, await recentEvents(ctx, p.pod.metadata?.name ?? '', 20)) : said;
    if (pulling && !isPlatformMismatch(msg)) throw new Error(`pause image pull failed on ${nodeName} for a reason other than the platform: ${msg}`);
    problems.push(`${nodeName} (build ${build}): ${msg}`);
  }
  const missing = builds.filter(b => !readyBuilds.has(b));
  // Control (for a limited build): every failure names the image's platform, so the failures are
  // about the pause image, not about the nodes.
  const aboutPlatform = problems.length > 0 && problems.every(p => isPlatformMismatch(p));
  return missing.length || problems.length
    ? {
        works: false,
        summary: `the pause image did not run on build(s) ${missing.join(', ') || '-'}: ${problems.join('; ')}`,
        evidence,
        node: pods.find(p => p.state !== 'ready')?.pod.spec?.nodeName,
        control: aboutPlatform ? control(true, "each failure names the pause image's platform") : undefined,
      }
    : {
        works: true,
        summary: `the pause image runs on every Windows build (${builds.join(', ')})`,
        evidence,
        node: nodes[0]?.name,
        control: control(true, `a pause pod is Ready on each of ${builds.length} build(s)`),
      };
}

export const features: Feature[] = [
  {
    id: 'node.services',
    area: 'node',
    title: 'kubelet and kube-proxy run as Windows services',
    // kube-proxy as a HostProcess DaemonSet (no Windows service): its pod on the node, in kube-system.
    access: permissions('', 'pods', ['list'], 'kube-system'),
    needs: ['windows-node', 'node-access'],
    fixtures: [],
    expect: () =>
      supported(
        'kubelet and containerd run as Windows services; kube-proxy as a service (kube-proxy, or kubeproxy on AKS) or as a HostProcess DaemonSet pod (sig-windows-tools)',
        sources(cite.v19Guide('kubelet and kube-proxy as Windows services'), cite.intro('HostProcess kube-proxy')),
      ),
    probe: servicesProbe,
  },
  {
    id: 'node.hns-network',
    area: 'node',
    title: "The CNI's HNS network and vEthernet adapter exist",
    needs: ['windows-node', 'node-access'],
    fixtures: [],
    expect: (c: ClusterInfo) =>
      supported(
        `the CNI creates an HNS network${c.network.networkMode ? ` (${HNS_TYPE_FOR_MODE[c.network.networkMode] ?? c.network.networkMode} for ${c.network.networkMode} mode)` : ''} and its vEthernet adapter`,
        [cite.v122Intro('troubleshooting: Get-HnsNetwork')],
      ),
    probe: hnsProbe,
  },
  {
    id: 'node.runtime',
    area: 'node',
    title: 'containerd >= 1.6 (dockershim is gone since 1.24)',
    needs: ['windows-node'],
    fixtures: [],
    expect: c =>
      supported(
        k8sAtLeast(c.version, ...DOCKERSHIM_REMOVED)
          ? `Windows nodes run containerd >= 1.6: dockershim is gone since 1.24 (cluster ${c.version.gitVersion}; discovery: ${windowsNodes(c.nodes)
              .map(n => `${n.name} ${n.runtimeName} ${n.runtimeVersion}`)
              .join(', ')})`
          : `before 1.24 Windows nodes run Docker EE 19.03+ (dockershim) or containerd 1.4+ (cluster ${c.version.gitVersion}; discovery: ${windowsNodes(c.nodes)
              .map(n => `${n.name} ${n.runtimeName} ${n.runtimeVersion}`)
              .join(', ')})`,
        sources(cite.intro(), DOCKERSHIM_SOURCE, cite.intro('container runtimes')),
      ),
    probe: runtimeProbe,
  },
  {
    id: 'node.os-supported',
    area: 'node',
    title: "The node's Windows build is supported by the control plane's Kubernetes version",
    needs: ['windows-node'],
    fixtures: [],
    expect: c => {
      const verdicts = windowsNodes(c.nodes).map(n => `${n.name}: ${buildSupport(n.windowsBuild, c.version).why}`);
      return supported(
        `the control plane supports the Windows Server LTSC builds of its version (${verdicts.join('; ')})`,
        sources(cite.v122Intro('supported versions table'), cite.intro('OS version compatibility')),
      );
    },
    probe: osSupportedProbe,
  },
  {
    id: 'node.version-skew',
    area: 'node',
    title: 'Windows kubelet within the version-skew policy of the API server',
    needs: ['windows-node'],
    fixtures: [],
    expect: c =>
      supported(
        `Windows nodes follow the version-skew policy: kubelet up to ${allowedSkew(c.version)} minor versions older than ${c.version.gitVersion}, never newer`,
        sources(cite.v122Intro('version skew'), cite.versionSkew()),
      ),
    probe: skewProbe,
  },
  {
    id: 'node.pause-image',
    area: 'node',
    title: "The pause image is multi-arch and includes the node's build",
    needs: ['windows-node'],
    subject: ['image-platform', 'sandbox'],
    fixtures: [{ id: 'pause-image', template: 'pause-daemonset', os: 'windows', pin: 'none', everyBuild: true }],
    expect: pauseImageExpectation,
    probe: pauseImageProbe,
  },
];
