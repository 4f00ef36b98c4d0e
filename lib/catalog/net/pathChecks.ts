// Path checks built on warmupThenSteady: pod → pod (who answered, which source address it saw),
// the peers' own answers as a control, a Windows node → a URL over the node's transport.

import type { V1Pod } from '@kubernetes/client-node';
import { control } from '../kit/observe.ts';
import { podIP, urlOf } from './addresses.ts';
import { clientIpSeen, httpAttempt, tcpAttempt } from './attempts.ts';
import { NETEXEC_PORT } from './netexec.ts';
import { hostnameOf } from './parse.ts';
import { type PathVerdict, warmupThenSteady } from './steady.ts';
import type { CheckContext, Control, EvidenceItem, Observation } from '../types.ts';
import type { NodeInfo } from '../../discovery/types.ts';
import type { ProbeOS, Transport } from '../../probes/types.ts';

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
export async function checkPodPath(
  ctx: CheckContext,
  client: { name: string; os: ProbeOS; ip?: string },
  server: { name: string; host: string },
  what: string,
): Promise<PathCheck> {
  const t = ctx.podTransport(client.name, client.os);
  ctx.step(`${what}: ${client.name} → ${server.name} (${server.host}:${NETEXEC_PORT})`);
  const verdict =
    client.os === 'linux'
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
  if (seen.ip && client.ip)
    notes.push(
      seen.ip === client.ip
        ? `the server saw the client's own address ${seen.ip} (no NAT)`
        : `the server saw ${seen.ip}, not the client pod's ${client.ip} (NAT on the path)`,
    );
  return { verdict, evidence, notes, rightServer };
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

/** The Windows node's transport (HostProcess or SSH), or the n/a observation saying why not. */
export async function nodeTransportOf(ctx: CheckContext, node: NodeInfo): Promise<{ t: Transport } | { observation: Observation }> {
  const t = await ctx.nodeTransport(node);
  if (t) return { t };
  return {
    observation: {
      works: false,
      summary: 'no node transport',
      evidence: [],
      node: node.name,
      notApplicable: `no node transport for ${node.name}: neither a HostProcess pod nor SSH is available to run commands on the node`,
    },
  };
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
