// Services (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Networking", the Service rows): ClusterIP with W and L backends, the
// Windows node → ClusterIP, NodePort from outside and from the node itself, LoadBalancer,
// ClientIP session affinity (and its timeout), externalTrafficPolicy Local / DSR, the
// preserve-destination annotation and hairpin. Suite "services"; area "networking".
// "Outside the cluster" is this process: a Node.js HTTP client to a node's InternalIP:nodePort.

import type { V1Pod } from '@kubernetes/client-node';
import type { NodeInfo } from '../../discovery/types.ts';
import { limited, supported } from '../expect.ts';
import { AFFINITY_TIMEOUT_SECONDS, FX, SERVICE_PORT, NETEXEC_PORT } from './netexec.ts';
import { clusterIPOf, internalIP, nodePortOf, readService, urlOf } from './addresses.ts';
import { httpAttempt, oneLine } from './attempts.ts';
import { nodeGetObservation, nodeTransportOf, peersAnswer } from './pathChecks.ts';
import { readyPods } from '../kit/podWaits.ts';
import { waitForIngress, noIngressReason } from './loadBalancer.ts';
import {
  affinityTimeoutExpectation,
  podToNodePortExpectation,
  preserveClientIpExpectation,
  preserveDestinationExpectation,
  sessionAffinityExpectation,
} from './expect.ts';
import { httpGetFromHere, holdConnection, type ExternalAttempt } from './external.ts';
import { clientIpOf, destinationVerdict, hostnameOf, parseNetstat, unmapped } from './parse.ts';
import { pause } from '../../../util/pause.ts';
import { control } from '../kit/observe.ts';
import { boundedNegative, confirmWindow, controlPasses, steadyPeriod, timingsOf, warmupThenSteady, type Attempt } from './steady.ts';
import type { CheckContext, EvidenceItem, Feature } from '../types.ts';
import { cite, sources } from '../../facts/sources.ts';

const SUITE = 'services';
/** net.session-affinity-timeout idles past the timeout this many times (a chance of 1/2^rounds that random picks never move). */
const AFFINITY_ROUNDS = 4;
const AFFINITY_IDLE_MS = (AFFINITY_TIMEOUT_SECONDS + 1) * 1000;
const WIN_BACKENDS = [FX.winPeer.id, FX.winPeer2.id];

function nodeOf(ctx: CheckContext, name: string | undefined): NodeInfo {
  const n = ctx.cluster.nodes.find(x => x.name === name);
  if (!n) throw new Error(`node ${name ?? '(none)'} of a fixture pod is not in discovery`);
  return n;
}

/** The control of the outside → NodePort checks: the Local NodePort of net-linux's node (a Linux backend there). */
async function linuxControlNodePort(ctx: CheckContext, linuxPod: V1Pod, path?: string): Promise<{ linux: NodeInfo; controlUrl: string }> {
  const linux = nodeOf(ctx, linuxPod.spec?.nodeName);
  return { linux, controlUrl: urlOf(internalIP(linux), nodePortOf(await readService(ctx, FX.svcLocalLinux.id)), path) };
}

/**
 * How long to wait for a LoadBalancer address: the long deadline, cut to the short one when no
 * provisioner acts on the Service (unless the config says the cluster has one).
 */
function lbWaits(ctx: CheckContext): { wait: number; quiet: number } {
  const wait = ctx.options.timeouts.netLoadBalancer;
  return { wait, quiet: ctx.cluster.loadBalancer === 'yes' ? wait : Math.min(wait, ctx.options.timeouts.netLoadBalancerActs) };
}

function fromHere(ctx: CheckContext, url: string): Promise<ExternalAttempt> {
  return httpGetFromHere(url, ctx.options.timeouts.netConnect, ctx.signal);
}

/** Hostnames that answered, in order, from the outputs of passing attempts. */
function answered(outputs: string[]): string[] {
  return outputs.map(hostnameOf).filter(Boolean);
}

/** Up to `count` more GET /hostname through the same path, poll interval apart (fewer once `enough` says so): the backends seen. */
async function backendsSeen(
  ctx: CheckContext,
  attempt: () => Promise<Attempt>,
  count: number,
  enough?: (names: string[]) => boolean,
): Promise<{ names: string[]; evidence: EvidenceItem[] }> {
  const names: string[] = [];
  const evidence: EvidenceItem[] = [];
  const { pollMs } = timingsOf(ctx.options.timeouts);
  let last = 0;
  for (let i = 0; i < count && !enough?.(names); i++) {
    // A poll apart from start to start, as apimachinery's wait.Poll ticks: a slow command does
    // not stretch the interval (affinity is judged across these tries).
    if (i) await pause(Math.max(0, pollMs - (Date.now() - last)), ctx.signal);
    last = Date.now();
    const a = await attempt();
    if (i === 0 || !a.ok) evidence.push(a.evidence);
    if (a.ok) names.push(hostnameOf(a.evidence.stdout));
  }
  return { names, evidence };
}

export const features: Feature[] = [
  {
    id: 'net.pod-to-clusterip',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod → ClusterIP Service with Windows and Linux backends',
    netPath: { from: 'windows-pod', to: 'clusterip' },
    needs: ['windows-node', 'linux-node'],
    fixtures: [FX.win, FX.winPeer, FX.winPeer2, FX.linux, FX.svcMixed],
    designedWaitMs: steadyPeriod,
    expect: () => supported('Windows pods reach ClusterIP Services whose backends run on Windows and Linux', sources(cite.intro(), cite.e2eTest('service.go'))),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id, ...WIN_BACKENDS, FX.linux.id]);
      if (!ready.ok) return ready.observation;
      const ip = clusterIPOf(await readService(ctx, FX.svcMixed.id));
      const t = ctx.podTransport(FX.win.id, 'windows');
      const url = urlOf(ip, SERVICE_PORT);
      ctx.step(`GET ${url} from ${FX.win.id}`);
      const attempt = () => httpAttempt(ctx, t, url);
      const v = await warmupThenSteady(ctx, `W → ClusterIP ${ip}`, attempt);
      const node = ready.pods[FX.win.id].spec?.nodeName;
      if (!v.ok) return { works: false, summary: v.detail, evidence: v.evidence, node };
      const seen = new Set(answered(v.outputs));
      const evidence: EvidenceItem[] = [...v.evidence];
      // Not part of the verdict (kube-proxy may pick backends at random): which backends answered,
      // polling a few more times only while one of the Service's backends has not.
      const backends = [...WIN_BACKENDS, FX.linux.id];
      const allSeen = (more: string[]) => backends.every(b => seen.has(b) || more.includes(b));
      if (!allSeen([])) {
        const more = await backendsSeen(ctx, attempt, 6, allSeen);
        more.names.forEach(n => seen.add(n));
        evidence.push(...more.evidence);
      }
      const linuxSeen = seen.has(FX.linux.id);
      return {
        works: true,
        summary: `${v.detail}; backends that answered: ${[...seen].join(', ')}${linuxSeen ? '' : ' (the Linux backend was not picked)'}`,
        evidence,
        node,
      };
    },
  },
  {
    id: 'net.node-to-service',
    area: 'networking',
    suite: SUITE,
    title: 'Windows node → ClusterIP Service',
    netPath: { from: 'windows-node', to: 'clusterip' },
    needs: ['windows-node', 'linux-node', 'node-access'],
    fixtures: [FX.winPeer, FX.winPeer2, FX.linux, FX.svcMixed],
    designedWaitMs: steadyPeriod,
    expect: () => supported('a Windows node reaches ClusterIP Services (kube-proxy programs the host too)', [cite.intro()]),
    probe: async ctx => {
      const ready = await readyPods(ctx, [...WIN_BACKENDS, FX.linux.id]);
      if (!ready.ok) return ready.observation;
      const node = nodeOf(ctx, ready.pods[FX.winPeer.id].spec?.nodeName);
      return nodeGetObservation(ctx, node, 'ClusterIP', async () => urlOf(clusterIPOf(await readService(ctx, FX.svcMixed.id)), SERVICE_PORT));
    },
  },
  {
    id: 'net.nodeport-external',
    area: 'networking',
    suite: SUITE,
    title: 'Client outside the cluster → NodePort on a Windows node',
    netPath: { from: 'outside', to: 'nodeport' },
    needs: ['windows-node', 'linux-node'],
    fixtures: [FX.winPeer, FX.winPeer2, FX.linux, FX.svcNodePort, FX.svcLocalLinux],
    designedWaitMs: steadyPeriod,
    expect: () =>
      supported("a NodePort Service answers on a Windows node's address from outside the cluster", sources(cite.intro(), cite.e2eTest('service.go'))),
    probe: async ctx => {
      const ready = await readyPods(ctx, [...WIN_BACKENDS, FX.linux.id]);
      if (!ready.ok) return ready.observation;
      const win = nodeOf(ctx, ready.pods[FX.winPeer.id].spec?.nodeName);
      const url = urlOf(internalIP(win), nodePortOf(await readService(ctx, FX.svcNodePort.id)));
      ctx.step(`GET ${url} from this host (NodePort on ${win.name})`);
      const v = await warmupThenSteady(ctx, `outside → ${win.name} NodePort`, () => fromHere(ctx, url));
      if (v.ok) return { works: true, summary: v.detail, evidence: v.evidence, node: win.name };
      // Control: can this host reach a node at all? A Linux node's NodePort (Local, Linux backend).
      const { linux, controlUrl } = await linuxControlNodePort(ctx, ready.pods[FX.linux.id]);
      ctx.step(`control: GET ${controlUrl} (NodePort on Linux node ${linux.name})`);
      const control = await warmupThenSteady(ctx, `outside → ${linux.name} NodePort (control)`, () => fromHere(ctx, controlUrl));
      const evidence = [...v.evidence, ...control.evidence];
      if (!control.ok)
        return {
          works: false,
          summary: v.detail,
          evidence,
          node: win.name,
          notApplicable: `this host cannot reach the nodes' addresses: the Linux control NodePort ${controlUrl} failed too (${control.detail})`,
        };
      return { works: false, summary: `${v.detail}; the Linux node's NodePort answered`, evidence, node: win.name };
    },
  },
  {
    id: 'net.pod-to-nodeport',
    area: 'networking',
    suite: SUITE,
    title: 'Windows pod → NodePort on a Windows node',
    netPath: { from: 'windows-pod', to: 'nodeport' },
    needs: ['windows-node'],
    fixtures: [FX.win, FX.winPeer, FX.winPeer2, FX.svcNodePort],
    designedWaitMs: steadyPeriod,
    expect: podToNodePortExpectation,
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id, ...WIN_BACKENDS]);
      if (!ready.ok) return ready.observation;
      const svc = await readService(ctx, FX.svcNodePort.id);
      const client = ready.pods[FX.win.id];
      const win = nodeOf(ctx, client.spec?.nodeName);
      const t = ctx.podTransport(FX.win.id, 'windows');
      // Control: the same pod reaches the same Service by its ClusterIP, so a NodePort that
      // does not answer is about the NodePort, not the Service or its backends.
      const clusterUrl = urlOf(clusterIPOf(svc), SERVICE_PORT);
      ctx.step(`control: GET ${clusterUrl} (the Service's ClusterIP) from ${FX.win.id}`);
      const viaClusterIP = await controlPasses(ctx, `W → ClusterIP of ${FX.svcNodePort.id} (control)`, () => httpAttempt(ctx, t, clusterUrl));
      const ctl = control(
        viaClusterIP.ok,
        viaClusterIP.ok
          ? `${FX.win.id} reached the same Service by its ClusterIP`
          : `the Service did not answer on its ClusterIP either: ${viaClusterIP.detail}`,
        viaClusterIP.evidence,
      );
      // upstream test/e2e/windows/service.go: curl http://<nodeIP>:<nodePort> from a Windows pod, consistently.
      const url = urlOf(internalIP(win), nodePortOf(svc));
      ctx.step(`GET ${url} from ${FX.win.id} (NodePort on ${win.name})`);
      const v = await warmupThenSteady(ctx, `W pod → ${win.name} NodePort`, () => httpAttempt(ctx, t, url));
      const who = v.ok ? [...new Set(answered(v.outputs))] : [];
      return {
        works: v.ok,
        summary: `${v.detail}${who.length ? `; answered by ${who.join(', ')}` : ''}`,
        evidence: v.evidence,
        node: win.name,
        control: ctl,
      };
    },
  },
  {
    id: 'net.nodeport-local',
    area: 'networking',
    suite: SUITE,
    title: 'A Windows node → its own NodePort',
    netPath: { from: 'windows-node', to: 'own-nodeport' },
    needs: ['windows-node', 'linux-node', 'node-access'],
    fixtures: [FX.winPeer, FX.winPeer2, FX.linuxHost, FX.svcNodePort],
    designedWaitMs: confirmWindow,
    expect: () => limited('a Windows node cannot reach NodePort Services on its own address', sources(cite.v122Intro(), cite.networking())),
    probe: async ctx => {
      const ready = await readyPods(ctx, [...WIN_BACKENDS, FX.linuxHost.id]);
      if (!ready.ok) return ready.observation;
      const port = nodePortOf(await readService(ctx, FX.svcNodePort.id));
      const evidence: EvidenceItem[] = [];
      // Control: a Linux node (host-network pod) reaching its own NodePort shows the Service works.
      const linux = nodeOf(ctx, ready.pods[FX.linuxHost.id].spec?.nodeName);
      const lt = ctx.podTransport(FX.linuxHost.id, 'linux');
      const linuxUrl = urlOf(internalIP(linux), port);
      ctx.step(`control: GET ${linuxUrl} from Linux node ${linux.name} (host-network pod)`);
      const linuxOwn = await controlPasses(ctx, `Linux node ${linux.name} → its own NodePort`, () => httpAttempt(ctx, lt, linuxUrl));
      evidence.push(...linuxOwn.evidence);
      const win = nodeOf(ctx, ready.pods[FX.winPeer.id].spec?.nodeName);
      const nt = await nodeTransportOf(ctx, win);
      if ('observation' in nt) return nt.observation;
      const url = urlOf(internalIP(win), port);
      ctx.step(`GET ${url} from Windows node ${win.name} (${nt.t.description})`);
      // After the control answered, a few failed tries are conclusive (boundedNegative).
      const v = await boundedNegative(ctx, `Windows node ${win.name} → its own NodePort`, () => httpAttempt(ctx, nt.t, url), linuxOwn.ok);
      evidence.push(...v.evidence);
      const controlLine = linuxOwn.ok
        ? `the Linux node ${linux.name} reached its own NodePort`
        : `the Linux node ${linux.name} did not reach its own NodePort either`;
      return {
        works: v.ok,
        summary: `Windows node ${win.name}: ${v.ok ? 'reached' : 'could not reach'} its own NodePort ${url}; control: ${controlLine}`,
        evidence,
        node: win.name,
        control: control(linuxOwn.ok, controlLine),
      };
    },
  },
  {
    id: 'net.lb',
    area: 'networking',
    suite: SUITE,
    title: 'LoadBalancer Service gets an address and serves Windows backends',
    netPath: { from: 'outside', to: 'loadbalancer' },
    needs: ['windows-node', 'load-balancer'],
    fixtures: [FX.winPeer, FX.winPeer2, FX.svcLb],
    designedWaitMs: steadyPeriod,
    expect: c =>
      supported(
        c.loadBalancer === 'yes'
          ? 'the cluster has a LoadBalancer provisioner (config)'
          : 'a LoadBalancer provisioner may exist (not known before the probe: no address in time means n/a)',
        [cite.intro()],
      ),
    probe: async ctx => {
      const ready = await readyPods(ctx, WIN_BACKENDS);
      if (!ready.ok) return ready.observation;
      ctx.fixture(FX.svcLb.id);
      const node = ready.pods[FX.winPeer.id].spec?.nodeName;
      const { wait, quiet } = lbWaits(ctx);
      ctx.step(
        `waiting up to ${Math.round(wait / 1000)}s for a LoadBalancer address${quiet < wait ? ` (${Math.round(quiet / 1000)}s unless a provisioner is seen acting on the Service)` : ''}`,
      );
      const lb = await waitForIngress(ctx, FX.svcLb.id, wait, quiet);
      const ingress = lb.ingress;
      if (!ingress) {
        const why = `service ${FX.svcLb.id} got no LoadBalancer address within ${Math.round((lb.boundMs ?? lb.waitedMs) / 1000)}s${lb.acted ? ` (${lb.acted})` : ''}`;
        if (ctx.cluster.loadBalancer === 'yes') return { works: false, summary: why, evidence: [why], node };
        const none = noIngressReason(FX.svcLb.id, lb);
        if (none.error) throw new Error(none.error);
        return { works: false, summary: why, evidence: [why], node, notApplicable: none.notApplicable };
      }
      const url = urlOf(ingress, SERVICE_PORT);
      ctx.step(`GET ${url} from this host`);
      const v = await warmupThenSteady(ctx, `outside → LoadBalancer ${ingress}`, () => fromHere(ctx, url));
      return {
        works: v.ok,
        summary: `${v.detail}${v.ok ? `; answered by ${[...new Set(answered(v.outputs))].join(', ')}` : ''}`,
        evidence: [`ingress ${ingress}`, ...v.evidence],
        node,
      };
    },
  },
  {
    id: 'net.session-affinity',
    area: 'networking',
    suite: SUITE,
    title: 'sessionAffinity: ClientIP keeps one backend',
    needs: ['windows-node'],
    fixtures: [FX.win, FX.winPeer, FX.winPeer2, FX.svcAffinity],
    designedWaitMs: steadyPeriod,
    expect: sessionAffinityExpectation,
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id, ...WIN_BACKENDS]);
      if (!ready.ok) return ready.observation;
      const t = ctx.podTransport(FX.win.id, 'windows');
      const url = urlOf(clusterIPOf(await readService(ctx, FX.svcAffinity.id)), SERVICE_PORT);
      ctx.step(`GET ${url} repeatedly from ${FX.win.id} (2 Windows backends, ClientIP affinity)`);
      const attempt = () => httpAttempt(ctx, t, url);
      const v = await warmupThenSteady(ctx, `W → ClientIP-affinity ClusterIP`, attempt);
      const node = ready.pods[FX.win.id].spec?.nodeName;
      if (!v.ok)
        return {
          works: false,
          summary: `the Service did not answer steadily: ${v.detail}`,
          evidence: v.evidence,
          node,
          control: control(false, `the Service did not answer steadily, so affinity cannot be judged: ${v.detail}`),
        };
      // Control: both backends answer by pod IP, so one backend answering is a choice, not the only one alive.
      const both = await peersAnswer(
        ctx,
        t,
        WIN_BACKENDS.map(n => ready.pods[n]),
      );
      const names = answered(v.outputs);
      const evidence: EvidenceItem[] = [...v.evidence];
      if (names.length < 6) {
        const more = await backendsSeen(ctx, attempt, 6 - names.length);
        names.push(...more.names);
        evidence.push(...more.evidence);
      }
      const distinct = [...new Set(names)];
      evidence.push(`backends in order: ${names.join(', ')}`);
      return distinct.length === 1
        ? { works: true, summary: `all ${names.length} requests went to ${distinct[0]} (2 ready backends)`, evidence, node, control: both }
        : { works: false, summary: `${names.length} requests were spread over ${distinct.join(', ')}: affinity did not hold`, evidence, node, control: both };
    },
  },
  {
    id: 'net.session-affinity-timeout',
    area: 'networking',
    suite: SUITE,
    title: 'sessionAffinityConfig.clientIP.timeoutSeconds expires the affinity',
    needs: ['windows-node'],
    fixtures: [FX.win, FX.winPeer, FX.winPeer2, FX.svcAffinityTimeout],
    // Its idle rounds (all of them when the timeout is not honoured), after 3 quick tries a poll apart.
    designedWaitMs: t => AFFINITY_ROUNDS * AFFINITY_IDLE_MS + 2 * timingsOf(t).pollMs,
    expect: affinityTimeoutExpectation,
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id, ...WIN_BACKENDS]);
      if (!ready.ok) return ready.observation;
      const node = ready.pods[FX.win.id].spec?.nodeName;
      const t = ctx.podTransport(FX.win.id, 'windows');
      const url = urlOf(clusterIPOf(await readService(ctx, FX.svcAffinityTimeout.id)), SERVICE_PORT);
      const attempt = () => httpAttempt(ctx, t, url);
      const v = await warmupThenSteady(ctx, `W → ClusterIP (ClientIP, timeoutSeconds ${AFFINITY_TIMEOUT_SECONDS})`, attempt, {
        ...timingsOf(ctx.options.timeouts),
        steadyMs: 0,
      });
      if (!v.ok)
        return {
          works: false,
          summary: `the Service did not answer: ${v.detail}`,
          evidence: v.evidence,
          node,
          control: control(false, `the Service did not answer, so its affinity timeout cannot be judged: ${v.detail}`),
        };
      const evidence: EvidenceItem[] = [...v.evidence];
      // First, affinity must hold within the timeout (else there is no timeout to honour).
      const quick = await backendsSeen(ctx, attempt, 3);
      evidence.push(...quick.evidence);
      const first = hostnameOf(v.firstPass!.evidence.stdout);
      const held = quick.names.length === 3 && quick.names.every(n => n === first);
      if (!held) {
        const summary = `affinity itself did not hold (${[first, ...quick.names].join(', ')}), so no timeout can be honoured`;
        // Where ClientIP affinity is itself documented as unavailable (Windows Server 2019), its
        // absence is the documented limitation of the timeout too: the control is then that the
        // Service and both backends answer. Elsewhere a missing affinity says nothing of the timeout.
        const affinity = sessionAffinityExpectation(ctx.cluster);
        if (affinity.expected !== 'limited')
          return {
            works: false,
            summary,
            evidence,
            node,
            control: control(false, `affinity itself did not hold (${[first, ...quick.names].join(', ')}): there is no timeout to judge`),
          };
        const both = await peersAnswer(
          ctx,
          t,
          WIN_BACKENDS.map(n => ready.pods[n]),
        );
        return {
          works: false,
          summary: `${summary} (${affinity.reason})`,
          evidence,
          node,
          control: both.ok ? control(true, `the Service answered and ${both.summary}`, both.evidence) : both,
        };
      }
      // Control: the Service answered, affinity held, and both backends answer by pod IP (so
      // staying on one is not for want of another). Asked during the first idle period: by pod
      // IP, not through the Service, so it does not renew the client's affinity.
      const controlled = peersAnswer(
        ctx,
        t,
        WIN_BACKENDS.map(n => ready.pods[n]),
      ).then(both => (both.ok ? control(true, `the Service answered, affinity held within the timeout; ${both.summary}`, both.evidence) : both));
      controlled.catch(() => undefined);
      // Then idle past the timeout: an honoured timeout lets the next connection pick anew.
      // Rounds bound the chance that random picks land on the same backend every time (1/2^rounds).
      const rounds = AFFINITY_ROUNDS;
      const idleMs = AFFINITY_IDLE_MS;
      const seen = [first];
      for (let i = 0; i < rounds; i++) {
        ctx.step(`idling ${idleMs / 1000}s (past timeoutSeconds ${AFFINITY_TIMEOUT_SECONDS}), then GET again`);
        await pause(idleMs, ctx.signal);
        const a = await attempt();
        if (!a.ok) {
          evidence.push(a.evidence);
          continue;
        }
        const name = hostnameOf(a.evidence.stdout);
        seen.push(name);
        if (name !== seen[seen.length - 2]) {
          evidence.push(a.evidence, `backends in order: ${seen.join(', ')}`);
          return {
            works: true,
            summary: `after idling ${idleMs / 1000}s the client moved from ${seen[seen.length - 2]} to ${name}: the ${AFFINITY_TIMEOUT_SECONDS}s timeout was honoured`,
            evidence,
            node,
            control: await controlled,
          };
        }
      }
      evidence.push(`backends in order: ${seen.join(', ')}`);
      const answeredAfterIdle = seen.length - 1;
      // Awaited either way: its commands end with the check.
      const ctl = await controlled;
      return {
        works: false,
        summary: `the client stayed on ${first} across ${answeredAfterIdle} of ${rounds} idle periods longer than timeoutSeconds ${AFFINITY_TIMEOUT_SECONDS}: the timeout was not honoured`,
        evidence,
        node,
        control: answeredAfterIdle === rounds ? ctl : control(false, `the Service answered only ${answeredAfterIdle} of ${rounds} requests after idling`),
      };
    },
  },
  {
    id: 'net.preserve-client-ip',
    area: 'networking',
    suite: SUITE,
    title: 'externalTrafficPolicy: Local keeps the client IP (DSR)',
    needs: ['windows-node', 'linux-node'],
    fixtures: [FX.winPeer, FX.winPeer2, FX.linux, FX.svcLocal, FX.svcLocalLinux],
    expect: preserveClientIpExpectation,
    probe: async ctx => {
      const ready = await readyPods(ctx, [...WIN_BACKENDS, FX.linux.id]);
      if (!ready.ok) return ready.observation;
      const win = nodeOf(ctx, ready.pods[FX.winPeer.id].spec?.nodeName);
      const url = urlOf(internalIP(win), nodePortOf(await readService(ctx, FX.svcLocal.id)), '/clientip');
      ctx.step(`GET ${url} from this host (NodePort, externalTrafficPolicy Local, on ${win.name})`);
      const v = await warmupThenSteady(ctx, `outside → ${win.name} Local NodePort`, () => fromHere(ctx, url), {
        ...timingsOf(ctx.options.timeouts),
        steadyMs: 0,
      });
      if (!v.ok)
        return {
          works: false,
          summary: `the Local NodePort did not answer: ${v.detail}`,
          evidence: v.evidence,
          node: win.name,
          control: control(false, `the Local NodePort did not answer, so the client IP it sees cannot be read: ${v.detail}`),
        };
      const first = v.firstPass as ExternalAttempt;
      const seen = clientIpOf(first.body);
      const mine = first.localAddress ? unmapped(first.localAddress) : undefined;
      const evidence: EvidenceItem[] = [
        ...v.evidence,
        `this host connected from ${mine ?? 'an unknown address'}; the Windows backend saw ${seen ?? oneLine(first.body)}`,
      ];
      if (seen && seen === mine)
        return {
          works: true,
          summary: `the Windows backend saw this host's address ${seen}: client IP preserved`,
          evidence,
          node: win.name,
          control: control(true, `the Windows backend answered /clientip and this host knows its own address ${mine}`),
        };
      // Control: a Linux node with a Local Service always keeps the client IP. If it does not see
      // this host's address either, something on the way (a NAT in front of the nodes) hides it.
      const { linux, controlUrl } = await linuxControlNodePort(ctx, ready.pods[FX.linux.id], '/clientip');
      const c = await fromHere(ctx, controlUrl);
      const cSeen = c.ok ? clientIpOf(c.body) : undefined;
      const cMine = c.localAddress ? unmapped(c.localAddress) : undefined;
      evidence.push(`control: Linux node ${linux.name} Local NodePort saw ${cSeen ?? 'nothing'} (this host: ${cMine ?? 'unknown'})`, c.evidence);
      if (!cSeen || cSeen !== cMine)
        return {
          works: false,
          summary: `backend saw ${seen}`,
          evidence,
          node: win.name,
          notApplicable: `the client IP cannot be judged from this host: even the Linux control saw ${cSeen ?? 'no answer'} instead of ${cMine ?? 'this host'} (NAT between this host and the nodes?)`,
        };
      return {
        works: false,
        summary: `the Windows backend saw ${seen ?? 'no address'}, not this host's ${mine} (SNAT by the node), while the Linux control saw ${cSeen}`,
        evidence,
        node: win.name,
        control: control(
          seen !== undefined,
          seen
            ? `the Linux node's Local NodePort saw this host's ${cSeen}; the Windows backend answered /clientip with ${seen}`
            : 'the Windows backend answered without a readable client address',
        ),
      };
    },
  },
  {
    id: 'net.preserve-destination',
    area: 'networking',
    suite: SUITE,
    title: 'Service annotation preserve-destination skips DNAT (DSR)',
    needs: ['windows-node', 'load-balancer'],
    fixtures: [FX.winPeer, FX.winPeer2, FX.svcLbPreserve],
    expect: preserveDestinationExpectation,
    probe: async ctx => {
      const ready = await readyPods(ctx, WIN_BACKENDS);
      if (!ready.ok) return ready.observation;
      ctx.fixture(FX.svcLbPreserve.id);
      const node = ready.pods[FX.winPeer.id].spec?.nodeName;
      const { wait, quiet } = lbWaits(ctx);
      const lb = await waitForIngress(ctx, FX.svcLbPreserve.id, wait, quiet);
      const ingress = lb.ingress;
      if (!ingress) {
        const none = noIngressReason(FX.svcLbPreserve.id, lb);
        if (none.error) throw new Error(none.error);
        return { works: false, summary: 'no LoadBalancer address', evidence: [], node, notApplicable: none.notApplicable };
      }
      const url = urlOf(ingress, SERVICE_PORT);
      const v = await warmupThenSteady(ctx, `outside → ${ingress}`, () => fromHere(ctx, url), { ...timingsOf(ctx.options.timeouts), steadyMs: 0 });
      if (!v.ok)
        return {
          works: false,
          summary: `the annotated LoadBalancer did not answer: ${v.detail}`,
          evidence: v.evidence,
          node,
          control: control(false, `the annotated LoadBalancer did not answer, so no connection could be looked at: ${v.detail}`),
        };
      // Hold a connection open and look at it from the backend: its local address is the
      // LoadBalancer address when DNAT was skipped, the pod IP when it was not.
      ctx.step(`holding a connection to ${ingress}:${SERVICE_PORT} and reading netstat -an in the backends`);
      const sock = await holdConnection(ingress, SERVICE_PORT, ctx.options.timeouts.netConnect);
      const evidence: EvidenceItem[] = [...v.evidence];
      // Other checks may hold connections to the backends at the same time (checks run in
      // parallel): only a local address equal to the LoadBalancer's proves DNAT was skipped, and
      // "DNATed" needs every backend read, none showing it while ours is held.
      const established: string[] = [];
      try {
        for (const name of WIN_BACKENDS) {
          const r = await ctx.probe(ctx.podTransport(name, 'windows'), { kind: 'tcp-connections' });
          evidence.push(r.evidence);
          if (r.evidence.exitCode === 9009 || /is not recognized as an internal or external command/i.test(r.evidence.stderr))
            return {
              works: false,
              summary: 'no netstat in the backend image',
              evidence,
              node,
              notApplicable: `the backend image has no netstat (${name}: exit ${r.evidence.exitCode}), so the destination address a connection arrived at cannot be read`,
            };
          if (!r.ok) throw new Error(`netstat -an failed in ${name}: ${r.detail}; the destination address the backend saw cannot be read`);
          const entries = parseNetstat(r.evidence.stdout);
          const verdict = destinationVerdict(entries, ingress, NETEXEC_PORT);
          if (verdict === 'preserved')
            return {
              works: true,
              summary: `backend ${name} holds a connection with local address ${ingress} (the LoadBalancer address): no DNAT`,
              evidence,
              node,
              control: control(true, `the held connection to ${ingress} was seen in netstat of ${name}`),
            };
          if (verdict === 'dnat')
            established.push(
              ...entries
                .filter(e => e.localPort === NETEXEC_PORT && e.state === 'ESTABLISHED')
                .map(e => `${name}: ${e.local}:${e.localPort} ← ${e.foreign}:${e.foreignPort}`),
            );
        }
      } finally {
        sock.destroy();
      }
      if (!established.length) throw new Error('the held connection was not seen in netstat -an of any backend, so the destination address cannot be judged');
      return {
        works: false,
        summary: `while a connection to ${ingress} was held, the backends' connections on ${NETEXEC_PORT} had a local address other than the LoadBalancer's (DNATed): ${established.join('; ')}`,
        evidence,
        node,
        control: control(true, `established connections on ${NETEXEC_PORT} were seen in the backends' netstat while ours was held`),
      };
    },
  },
  {
    id: 'net.hairpin',
    area: 'networking',
    suite: SUITE,
    title: 'A Windows pod reaches itself through its own Service (hairpin)',
    netPath: { from: 'windows-pod', to: 'own-service' },
    needs: ['windows-node'],
    fixtures: [FX.win, FX.svcHairpin],
    designedWaitMs: steadyPeriod,
    expect: () => supported('a pod reaches itself through a Service it backs (hairpin)', [cite.intro()]),
    probe: async ctx => {
      const ready = await readyPods(ctx, [FX.win.id]);
      if (!ready.ok) return ready.observation;
      const url = urlOf(clusterIPOf(await readService(ctx, FX.svcHairpin.id)), SERVICE_PORT);
      const t = ctx.podTransport(FX.win.id, 'windows');
      ctx.step(`GET ${url} from ${FX.win.id}, the Service's only backend`);
      const v = await warmupThenSteady(ctx, `W → its own Service`, () => httpAttempt(ctx, t, url));
      const node = ready.pods[FX.win.id].spec?.nodeName;
      const who = v.ok ? hostnameOf(v.firstPass!.evidence.stdout) : undefined;
      if (v.ok && who !== FX.win.id) return { works: false, summary: `answered by ${who}, not by ${FX.win.id} itself`, evidence: v.evidence, node };
      return { works: v.ok, summary: v.detail, evidence: v.evidence, node };
    },
  },
];
