// What the networking features share: their fixtures (declared once here so every feature
// names them identically), ready-pod and Service lookups, and the path checks built on
// warmupThenSteady (pod → address over curl.exe / nc, the harness → a node address).

import type { CoreV1Event, V1Pod, V1Service } from '@kubernetes/client-node';
import { apiStatusCode } from '../../cluster/apiError.ts';
import { WaitTimeoutError, watchUntil } from '../../cluster/watch.ts';
import { schedulableWindowsNodes } from '../../discovery/nodes.ts';
import type { NodeInfo } from '../../discovery/types.ts';
import { FIXTURE_LABEL } from '../../fixtures/render.ts';
import type { FixtureSpec } from '../../fixtures/types.ts';
import type { ProbeOp, ProbeOS, Transport } from '../../probes/types.ts';
import { createPodLike } from '../../probes/podSettle.ts';
import { control, notStarted, podSettles } from '../kit/observe.ts';
import type { CheckContext, Control, EvidenceItem, Observation } from '../types.ts';
import { clientIpOf, curlFailureOf, hostnameOf } from './parse.ts';
import { timingsOf, warmupThenSteady, type Attempt, type PathVerdict } from './steady.ts';

export const NETEXEC_PORT = 8080;
export const SERVICE_PORT = 80;
/** timeoutSeconds of the affinity-timeout Service: short, so the idle rounds stay short. */
export const AFFINITY_TIMEOUT_SECONDS = 2;

const netexec = (id: string, os: 'windows' | 'linux', backend: boolean, winBackend: boolean): FixtureSpec => ({
  id, template: 'net-netexec', os, ...(os === 'windows' ? { pin: 'node' as const } : {}),
  params: { os, backend: backend ? 'yes' : 'no', winBackend: winBackend ? 'yes' : 'no' },
});
const byLabel = (key: string, value: string) => ({ selectorKey: key, selectorValue: value });
const WIN_BACKENDS = byLabel('wincheck.io/net-win-backend', 'yes');

/** The fixtures, by role. Windows pods are pinned to the target Windows node (same node). */
export const FX = {
  /** W client (and the server of L → W and of hairpin). */
  win: netexec('net-win', 'windows', false, false),
  /** W servers on the same node: the same-node target and the Windows backends. */
  winPeer: netexec('net-win-peer', 'windows', true, true),
  winPeer2: netexec('net-win-peer2', 'windows', true, true),
  /** L client and server. */
  linux: netexec('net-linux', 'linux', true, false),
  /** Linux host-network pod: the Linux node's own view (control of nodeport-local). */
  linuxHost: { id: 'net-linux-host', template: 'net-linux-hostnet', os: 'linux' } as FixtureSpec,
  svcMixed: { id: 'net-svc-mixed', template: 'net-svc-clusterip', os: 'linux', params: byLabel('wincheck.io/net-backend', 'yes') } as FixtureSpec,
  svcHairpin: { id: 'net-svc-hairpin', template: 'net-svc-clusterip', os: 'linux', params: byLabel('app', 'net-win') } as FixtureSpec,
  svcAffinity: { id: 'net-svc-affinity', template: 'net-svc-affinity', os: 'linux', params: { ...WIN_BACKENDS, timeoutSeconds: '10800' } } as FixtureSpec,
  svcAffinityTimeout: { id: 'net-svc-affinity-timeout', template: 'net-svc-affinity', os: 'linux', params: { ...WIN_BACKENDS, timeoutSeconds: String(AFFINITY_TIMEOUT_SECONDS) } } as FixtureSpec,
  svcNodePort: { id: 'net-svc-nodeport', template: 'net-svc-nodeport', os: 'linux', params: { ...WIN_BACKENDS, trafficPolicy: 'Cluster' } } as FixtureSpec,
  svcLocal: { id: 'net-svc-local', template: 'net-svc-nodeport', os: 'linux', params: { ...WIN_BACKENDS, trafficPolicy: 'Local' } } as FixtureSpec,
  svcLocalLinux: { id: 'net-svc-local-linux', template: 'net-svc-nodeport', os: 'linux', params: { ...byLabel('app', 'net-linux'), trafficPolicy: 'Local' } } as FixtureSpec,
  svcLb: { id: 'net-svc-lb', template: 'net-svc-lb', os: 'linux', params: { ...WIN_BACKENDS, trafficPolicy: 'Cluster', preserveDestination: 'false' } } as FixtureSpec,
  svcLbPreserve: { id: 'net-svc-lb-preserve', template: 'net-svc-lb', os: 'linux', params: { ...WIN_BACKENDS, trafficPolicy: 'Local', preserveDestination: 'true' } } as FixtureSpec,
  svcIpv6: { id: 'net-svc-ipv6', template: 'net-svc-ipv6', os: 'linux', params: WIN_BACKENDS } as FixtureSpec,
  dnsConfig: { id: 'net-dns-config', template: 'net-dns-config', os: 'windows', pin: 'node' } as FixtureSpec,
  hostnetDns: { id: 'net-hostnet-dns', template: 'net-hostnet-dns', os: 'windows', pin: 'node' } as FixtureSpec,
} satisfies Record<string, FixtureSpec>;

/** The W pod created at probe time on a second Windows node (cross-node path). */
export const FAR_POD = 'net-win-far';

export type Ready = { ok: true; pods: Record<string, V1Pod> } | { ok: false; observation: Observation };

/** Waits for the named pods to be Ready; a pod that fails to start is the observation. */
export async function readyPods(ctx: CheckContext, names: string[]): Promise<Ready> {
  ctx.step(`waiting for pod(s) ${names.join(', ')} to be Ready`);
  const settled = await Promise.all(names.map(n => podSettles(ctx, n, 'ready')));
  const pods: Record<string, V1Pod> = {};
  for (const [i, s] of settled.entries()) {
    if (!s.ok) return { ok: false, observation: notStarted(names[i], s.error) };
    pods[names[i]] = s.pod;
  }
  return { ok: true, pods };
}

export function podIP(pod: V1Pod): string {
  const ip = pod.status?.podIP;
  if (!ip) throw new Error(`pod ${pod.metadata?.name} is Ready but has no pod IP`);
  return ip;
}

export function podIPs(pod: V1Pod): string[] {
  const ips = (pod.status?.podIPs ?? []).map(p => p.ip).filter(Boolean);
  return ips.length ? ips : pod.status?.podIP ? [pod.status.podIP] : [];
}

export async function readService(ctx: CheckContext, name: string): Promise<V1Service> {
  ctx.fixture(name);
  return ctx.kube.core.readNamespacedService({ namespace: ctx.namespace, name });
}

export function clusterIPOf(svc: V1Service): string {
  const ip = svc.spec?.clusterIP;
  if (!ip || ip === 'None') throw new Error(`service ${svc.metadata?.name} has no ClusterIP`);
  return ip;
}

export function nodePortOf(svc: V1Service): number {
  const p = svc.spec?.ports?.[0]?.nodePort;
  if (!p) throw new Error(`service ${svc.metadata?.name} has no nodePort`);
  return p;
}

/** "http://host:port/path" with IPv6 literals in brackets. */
export function urlOf(host: string, port: number, path = '/hostname'): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`;
}

/** One HTTP GET through a pod or node transport (curl.exe on Windows, curl on Linux). */
export async function httpAttempt(ctx: CheckContext, t: Transport, url: string): Promise<Attempt> {
  const op: ProbeOp = url.includes('[')
    ? { kind: 'raw', argv: t.os === 'windows'
      ? ['cmd', '/c', `curl.exe --globoff ${url} --connect-timeout ${timingsOf(ctx.options.timeouts).connectTimeoutSec} --fail`]
      : ['/bin/sh', '-c', `curl -sS --globoff --fail --connect-timeout ${timingsOf(ctx.options.timeouts).connectTimeoutSec} '${url}'`] }
    : { kind: 'http-get', url, connectTimeoutSec: timingsOf(ctx.options.timeouts).connectTimeoutSec };
  const r = await ctx.probe(t, op);
  const detail = r.ok ? `GET ${url}: ${oneLine(r.evidence.stdout) || 'ok'}` : `GET ${url} failed: ${curlFailureOf(r.evidence.exitCode, r.evidence.stderr).message}`;
  return { ok: r.ok, detail, evidence: r.evidence };
}

/** One TCP connect (Linux: nc -vz, the upstream Linux probe). */
export async function tcpAttempt(ctx: CheckContext, t: Transport, host: string, port: number): Promise<Attempt> {
  const r = await ctx.probe(t, { kind: 'tcp-connect', host, port, timeoutSec: timingsOf(ctx.options.timeouts).connectTimeoutSec });
  return { ok: r.ok, detail: `${host}:${port}: ${r.detail}`, evidence: r.evidence };
}

export interface PathCheck {
  verdict: PathVerdict;
  evidence: EvidenceItem[];
  /** Extra facts for the summary: who answered, which source address it saw. */
  notes: string[];
  /** False when the right server did not answer (another pod behind the address). */
  rightServer: boolean;
}

/**
 * A pod → pod path: warm-up and steady period on GET /hostname (or nc for Linux sources, as
 * upstream), then which pod answered (must be `serverPod`) and, from agnhost /clientip, the
 * source address it saw (the client pod's own IP when nothing NATs the path).
 */
export async function checkPodPath(ctx: CheckContext, client: { name: string; os: ProbeOS; ip?: string }, server: { name: string; host: string }, what: string): Promise<PathCheck> {
  const t = ctx.podTransport(client.name, client.os);
  ctx.step(`${what}: ${client.name} → ${server.name} (${server.host}:${NETEXEC_PORT})`);
  const verdict = client.os === 'linux'
    ? await warmupThenSteady(ctx, what, () => tcpAttempt(ctx, t, server.host, NETEXEC_PORT))
    : await warmupThenSteady(ctx, what, () => httpAttempt(ctx, t, urlOf(server.host, NETEXEC_PORT)));
  const evidence: EvidenceItem[] = [...verdict.evidence];
  const notes: string[] = [];
  let rightServer = true;
  if (!verdict.ok) return { verdict, evidence, notes, rightServer };
  const who = client.os === 'linux' ? await httpAttempt(ctx, t, urlOf(server.host, NETEXEC_PORT)) : verdict.firstPass!;
  if (client.os === 'linux') evidence.push(who.evidence);
  const answered = hostnameOf(who.evidence.stdout);
  if (who.ok && answered && answered !== server.name) {
    rightServer = false;
    notes.push(`answered by ${answered}, not ${server.name}`);
  }
  const seen = await clientIpSeen(ctx, t, urlOf(server.host, NETEXEC_PORT, '/clientip'));
  evidence.push(seen.evidence);
  if (seen.ip && client.ip) notes.push(seen.ip === client.ip ? `the server saw the client's own address ${seen.ip} (no NAT)` : `the server saw ${seen.ip}, not the client pod's ${client.ip} (NAT on the path)`);
  return { verdict, evidence, notes, rightServer };
}

/** One GET /clientip: the source address the netexec server saw. */
export async function clientIpSeen(ctx: CheckContext, t: Transport, url: string): Promise<{ ip?: string; evidence: Attempt['evidence'] }> {
  const a = await httpAttempt(ctx, t, url);
  return { ip: a.ok ? clientIpOf(a.evidence.stdout) : undefined, evidence: a.evidence };
}

/**
 * Control "the peer that answers": each pod answers GET /hostname by its pod IP from `t`, so
 * a Service path or a name lookup that fails is about the Service or the name, not the pods.
 */
export async function peersAnswer(ctx: CheckContext, t: Transport, pods: V1Pod[]): Promise<Control> {
  const evidence: EvidenceItem[] = [];
  const silent: string[] = [];
  for (const pod of pods) {
    const name = pod.metadata?.name ?? '';
    const a = await httpAttempt(ctx, t, urlOf(podIP(pod), NETEXEC_PORT));
    evidence.push(a.evidence);
    if (!a.ok || hostnameOf(a.evidence.stdout) !== name) silent.push(`${name} (${a.detail})`);
  }
  const names = pods.map(p => p.metadata?.name).join(', ');
  return silent.length
    ? control(false, `not every peer answered by its pod IP from ${t.description}: ${silent.join('; ')}`, evidence)
    : control(true, `${names} each answered by pod IP from ${t.description}`, evidence);
}

/** The Observation of a path check: works = steady passes from the right server. */
export function pathObservation(check: PathCheck, node: string | undefined): Observation {
  const works = check.verdict.ok && check.rightServer;
  const summary = [check.verdict.detail, ...check.notes].join('; ');
  return { works, summary, evidence: check.evidence, node };
}

/**
 * The W pod on a second Windows node (created here: its node is only known from discovery).
 * A copy of net-win-peer with its own labels, so no Service selects it.
 */
export async function ensureFarPod(ctx: CheckContext, near: string): Promise<{ node: NodeInfo } | { missing: string }> {
  const nearNode = ctx.cluster.nodes.find(n => n.name === near);
  const candidates = schedulableWindowsNodes(ctx.cluster.nodes).filter(n => n.name !== near);
  const far = candidates.find(n => n.windowsBuild === nearNode?.windowsBuild) ?? candidates[0];
  if (!far) return { missing: `no second schedulable Windows node besides ${near}` };
  ctx.step(`creating pod ${FAR_POD} on ${far.name}`);
  try {
    await createPodLike(ctx, FX.winPeer.id, FAR_POD, pod => {
      pod.metadata!.labels = { ...ctx.labels, app: FAR_POD, [FIXTURE_LABEL]: FAR_POD };
      pod.spec!.nodeName = far.name;
    });
  } catch (e) {
    if (apiStatusCode(e) !== 409 && apiStatusCode((e as { cause?: unknown }).cause) !== 409) throw e;
  }
  return { node: far };
}

/** Waits for a LoadBalancer ingress address (watch with a deadline); undefined on timeout. */
/**
 * Event reasons by which a LoadBalancer provisioner says it is acting on a Service. The cloud
 * provider's service controller (kubernetes/cloud-provider controllers/service/controller.go,
 * syncLoadBalancerIfNeeded and processServiceCreateOrUpdate) records Normal "EnsuringLoadBalancer"
 * before it calls the cloud and "EnsuredLoadBalancer" after, Warning "SyncLoadBalancerFailed"
 * ("Error syncing load balancer: ...") when that failed, "UnAvailableLoadBalancer" when no node
 * can back it, and "UpdatedLoadBalancer"/"UpdateLoadBalancerFailed" on node changes. Provisioners
 * outside it: MetalLB ("IPAllocated", "nodeAssigned", "AllocationFailed"), the AWS Load Balancer
 * Controller ("SuccessfullyReconciled", "FailedDeployModel").
 */
export const LB_PROVISIONER_EVENTS = new Set([
  'EnsuringLoadBalancer', 'EnsuredLoadBalancer', 'SyncLoadBalancerFailed', 'UnAvailableLoadBalancer', 'UpdatedLoadBalancer', 'UpdateLoadBalancerFailed',
  'IPAllocated', 'nodeAssigned', 'AllocationFailed', 'SuccessfullyReconciled', 'FailedDeployModel',
]);

export interface LoadBalancerWait {
  /** The first ingress IP or hostname, when one came. */
  ingress?: string;
  /** What showed a provisioner acting on the Service (an event, a finalizer), when anything did. */
  acted?: string;
  /** How long it waited (ms). */
  waitedMs: number;
}

/**
 * Waits for the Service's LoadBalancer address, bounded by evidence: when no provisioner acts
 * on it (no ingress, no provisioner event, no finalizer: the service controller adds
 * service.kubernetes.io/load-balancer-cleanup before it ensures) within quietMs, there is none
 * and the wait ends; while one is seen acting it goes on up to timeoutMs.
 */
export async function waitForIngress(ctx: CheckContext, name: string, timeoutMs: number, quietMs = timeoutMs): Promise<LoadBalancerWait> {
  const ns = ctx.namespace;
  const started = Date.now();
  const fieldSelector = `metadata.name=${name}`;
  const eventSelector = `involvedObject.name=${name}`;
  const ingressOf = (s: V1Service) => s.status?.loadBalancer?.ingress?.map(i => i.ip ?? i.hostname).find(Boolean);
  let acted: string | undefined;
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let quietTimer: NodeJS.Timeout | undefined;
  const quietEnd = new Promise<void>(resolve => { if (quietMs < timeoutMs) quietTimer = setTimeout(resolve, quietMs); });
  // The latest evidence wins (a SyncLoadBalancerFailed after an EnsuringLoadBalancer says more).
  const sawActing = (what: string) => { acted = what; clearTimeout(quietTimer); };
  const service = watchUntil<V1Service, string>({
    kube: ctx.kube,
    path: `/api/v1/namespaces/${ns}/services`,
    fieldSelector,
    list: () => ctx.kube.core.listNamespacedService({ namespace: ns, fieldSelector }),
    check: s => {
      if (s.metadata?.name !== name) return undefined;
      if (s.metadata.finalizers?.length && !acted) sawActing(`finalizer ${s.metadata.finalizers.join(', ')}`);
      return ingressOf(s);
    },
    what: `service ${ns}/${name} to get a LoadBalancer ingress address`,
    describe: s => (s ? `status.loadBalancer ${JSON.stringify(s.status?.loadBalancer ?? {})}` : 'not seen'),
    timeoutMs,
    signal: stop.signal,
  });
  // Events only say a provisioner acted; the wait for them never ends a wait by itself.
  const events = watchUntil<CoreV1Event, never>({
    kube: ctx.kube,
    path: `/api/v1/namespaces/${ns}/events`,
    fieldSelector: eventSelector,
    list: () => ctx.kube.core.listNamespacedEvent({ namespace: ns, fieldSelector: eventSelector }),
    check: ev => {
      if (ev.involvedObject?.kind === 'Service' && LB_PROVISIONER_EVENTS.has(ev.reason ?? '')) sawActing(`event ${ev.reason}${ev.source?.component ? ` from ${ev.source.component}` : ''}: ${ev.message ?? ''}`);
      return undefined;
    },
    what: `events of service ${ns}/${name}`,
    describe: () => acted ?? 'no provisioner event',
    timeoutMs,
    signal: stop.signal,
  });
  events.catch(() => undefined);
  try {
    const first = await Promise.race([service.then(ingress => ({ ingress })), quietEnd.then(() => ({ quiet: true as const }))]);
    if ('ingress' in first) return { ingress: first.ingress, acted, waitedMs: Date.now() - started };
    return { acted, waitedMs: Date.now() - started };
  } catch (e) {
    if (e instanceof WaitTimeoutError) return { acted, waitedMs: Date.now() - started };
    throw e;
  } finally {
    clearTimeout(quietTimer);
    ctx.signal.removeEventListener('abort', onAbort);
    stop.abort();
    service.catch(() => undefined);
  }
}

/** Why there is no LoadBalancer address: no provisioner (n/a), or one that acted and gave none (the harness's means failed). */
export function noIngressReason(name: string, w: LoadBalancerWait): { notApplicable?: string; error?: string } {
  const secs = Math.round(w.waitedMs / 1000);
  return w.acted
    ? { error: `a LoadBalancer provisioner acted on service ${name} (${w.acted}) but gave it no address within ${secs}s` }
    : { notApplicable: `no LoadBalancer provisioner acted on the Service within ${secs}s (service ${name}: no ingress address, no EnsuringLoadBalancer/EnsuredLoadBalancer event, no finalizer)` };
}

export function oneLine(s: string): string {
  return s.trim().split(/\r?\n/)[0]?.slice(0, 120) ?? '';
}

/** The node's InternalIP, or an error naming the node. */
export function internalIP(n: NodeInfo): string {
  if (!n.internalIP) throw new Error(`node ${n.name} has no InternalIP address`);
  return n.internalIP;
}

/** The Windows node's transport (HostProcess or SSH), or the n/a observation saying why not. */
export async function nodeTransportOf(ctx: CheckContext, node: NodeInfo): Promise<{ t: Transport } | { observation: Observation }> {
  const t = await ctx.nodeTransport(node);
  if (t) return { t };
  return { observation: { works: false, summary: 'no node transport', evidence: [], node: node.name, notApplicable: `no node transport for ${node.name}: neither a HostProcess pod nor SSH is available to run commands on the node` } };
}

/**
 * A Windows node → `url` path over the node's own transport: warm-up then steady GETs. `url` is
 * computed once the transport is there (n/a without one); `to` names the target in the verdict.
 */
export async function nodeGetObservation(ctx: CheckContext, node: NodeInfo, to: string, url: () => Promise<string>): Promise<Observation> {
  const nt = await nodeTransportOf(ctx, node);
  if ('observation' in nt) return nt.observation;
  const target = await url();
  ctx.step(`GET ${target} from node ${node.name} (${nt.t.description})`);
  const v = await warmupThenSteady(ctx, `node ${node.name} → ${to}`, () => httpAttempt(ctx, nt.t, target));
  return { works: v.ok, summary: v.detail, evidence: v.evidence, node: node.name };
}
