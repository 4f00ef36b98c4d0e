// net.network-policy: NetworkPolicy enforced on a Windows pod (readiness Extend.NetworkPolicy).
// One feature, not four: deny-all, allow by pod label, by namespace label and by port are
// layered on one server pod (rules are additive, so each step adds a policy to the last), share
// the positive control taken before any policy, and cost one server pod instead of four.
//
// The server net-netpol-server (Windows, netexec on 8080 and 8081) carries its own label, so the
// policies select it alone. Clients: net-win and net-win-peer (same namespace, different `app`).
//   0. before any policy: net-win → server:8080, net-win-peer → server:8080 and :8081 answer.
//   1. deny-all ingress: net-win → server:8080 is blocked; net-win → net-win-peer:8080 (unpoliced) answers.
//   2. allow from pods labelled app=net-win: net-win answers again; net-win-peer stays blocked.
//   3. allow from namespaces labelled kubernetes.io/metadata.name=<run namespace>, port 8080 only:
//      net-win-peer → server:8080 answers; net-win-peer → server:8081 stays blocked.
// A policy takes effect when the engine has programmed it: each step is a bounded retry (the
// warm-up) of its attempt, ending with the last state seen. Policies carry the run label and
// are deleted when the check ends.

import type { KubernetesObject, V1NetworkPolicy, V1NetworkPolicySpec } from '@kubernetes/client-node';
import { createObject } from '../../cluster/create.ts';
import { permissions } from '../../cluster/permission.ts';
import { readyPods } from '../kit/podWaits.ts';
import { control } from '../kit/observe.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { podIP, urlOf } from './addresses.ts';
import { httpAttempt } from './attempts.ts';
import { networkPolicyExpectation } from './expect.ts';
import { FX, NETEXEC_PORT } from './netexec.ts';
import { type Attempt, controlPasses, type PathVerdict } from './steady.ts';
import type { FixtureSpec } from '../../fixtures/types.ts';

export const NETPOL_SERVER: FixtureSpec = { id: 'net-netpol-server', template: 'net-netpol-server', os: 'windows', pin: 'node' };

/** The server's second port, which the port-scoped rule leaves out. */
const OTHER_PORT = 8081;

/** An attempt that passes when `a` is refused or times out: "blocked" as the policy's observation. */
const blocked = (a: () => Promise<Attempt>) => async (): Promise<Attempt> => {
  const r = await a();
  return { ...r, ok: !r.ok, detail: r.ok ? `still answers: ${r.detail}` : `blocked: ${r.detail}` };
};

async function createPolicy(ctx: CheckContext, name: string, spec: V1NetworkPolicySpec): Promise<V1NetworkPolicy> {
  const policy: V1NetworkPolicy = {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name, namespace: ctx.namespace, labels: { ...ctx.labels } },
    spec,
  };
  ctx.step(`creating NetworkPolicy ${name}: ${JSON.stringify(spec)}`);
  return createObject(ctx.kube, policy);
}

async function deletePolicies(ctx: CheckContext, policies: V1NetworkPolicy[]): Promise<void> {
  for (const p of policies) {
    try {
      await ctx.kube.objects.delete(p as KubernetesObject);
    } catch (e) {
      ctx.step(`deleting NetworkPolicy ${p.metadata?.name} failed (the run's namespace cleanup removes it): ${(e as Error).message}`);
    }
  }
}

async function probe(ctx: CheckContext): Promise<Observation> {
  const ready = await readyPods(ctx, [NETPOL_SERVER.id, FX.win.id, FX.winPeer.id]);
  if (!ready.ok) return ready.observation;
  const server = ready.pods[NETPOL_SERVER.id];
  const node = server.spec?.nodeName;
  const win = ctx.podTransport(FX.win.id, 'windows');
  const peer = ctx.podTransport(FX.winPeer.id, 'windows');
  const serverUrl = (port: number) => urlOf(podIP(server), port);
  const get = (t: typeof win, url: string) => () => httpAttempt(ctx, t, url);
  const evidence: EvidenceItem[] = [];
  const record = (v: PathVerdict) => {
    evidence.push(...v.evidence);
    return v;
  };

  // 0. The positive control: every path the policies will cut answers before any policy.
  for (const [what, t, url] of [
    [`${FX.win.id} → server:${NETEXEC_PORT} (no policy)`, win, serverUrl(NETEXEC_PORT)],
    [`${FX.winPeer.id} → server:${NETEXEC_PORT} (no policy)`, peer, serverUrl(NETEXEC_PORT)],
    [`${FX.winPeer.id} → server:${OTHER_PORT} (no policy)`, peer, serverUrl(OTHER_PORT)],
  ] as const) {
    const v = record(await controlPasses(ctx, what, get(t, url)));
    if (!v.ok) throw new Error(`the positive control failed before any NetworkPolicy: ${v.detail} (pod-to-pod by pod IP is net.w2w-same-node's finding)`);
  }

  const created: V1NetworkPolicy[] = [];
  const selector = { matchLabels: { app: NETPOL_SERVER.id } };
  try {
    // 1. Deny all ingress to the server; an unpoliced pod still answers the same client.
    created.push(await createPolicy(ctx, 'netpol-deny-all', { podSelector: selector, policyTypes: ['Ingress'] }));
    const deny = record(await controlPasses(ctx, `deny-all: ${FX.win.id} → server:${NETEXEC_PORT}`, blocked(get(win, serverUrl(NETEXEC_PORT)))));
    const ctl = record(
      await controlPasses(
        ctx,
        `control: ${FX.win.id} → ${FX.winPeer.id}:${NETEXEC_PORT} (not policed)`,
        get(win, urlOf(podIP(ready.pods[FX.winPeer.id]), NETEXEC_PORT)),
      ),
    );
    const steps: [string, PathVerdict][] = [['deny-all', deny]];
    if (!ctl.ok) throw new Error(`the control failed under deny-all: ${ctl.detail}`);
    if (deny.ok) {
      // 2. Allow from pods labelled app=net-win: that client answers again, the other stays blocked.
      created.push(
        await createPolicy(ctx, 'netpol-allow-label', {
          podSelector: selector,
          policyTypes: ['Ingress'],
          ingress: [{ _from: [{ podSelector: { matchLabels: { app: FX.win.id } } }] }],
        }),
      );
      steps.push([
        `allow by pod label app=${FX.win.id}`,
        record(await controlPasses(ctx, `allow-label: ${FX.win.id} → server:${NETEXEC_PORT}`, get(win, serverUrl(NETEXEC_PORT)))),
      ]);
      steps.push([
        'a pod without the label stays denied',
        record(await controlPasses(ctx, `allow-label: ${FX.winPeer.id} → server:${NETEXEC_PORT}`, blocked(get(peer, serverUrl(NETEXEC_PORT))))),
      ]);
      // 3. Allow from the run's namespace by its label, on port 8080 only.
      created.push(
        await createPolicy(ctx, 'netpol-allow-namespace-port', {
          podSelector: selector,
          policyTypes: ['Ingress'],
          ingress: [
            {
              _from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ctx.namespace } } }],
              ports: [{ protocol: 'TCP', port: NETEXEC_PORT }],
            },
          ],
        }),
      );
      steps.push([
        `allow by namespace label on port ${NETEXEC_PORT}`,
        record(await controlPasses(ctx, `allow-namespace: ${FX.winPeer.id} → server:${NETEXEC_PORT}`, get(peer, serverUrl(NETEXEC_PORT)))),
      ]);
      steps.push([
        `port ${OTHER_PORT} stays denied`,
        record(await controlPasses(ctx, `allow-port: ${FX.winPeer.id} → server:${OTHER_PORT}`, blocked(get(peer, serverUrl(OTHER_PORT))))),
      ]);
    }
    const failed = steps.filter(([, v]) => !v.ok);
    const summary = failed.length
      ? `not enforced: ${failed.map(([name, v]) => `${name}: ${v.detail}`).join('; ')}`
      : `enforced on ${node}: deny-all blocked ${FX.win.id}, allow by pod label admitted it alone, allow by namespace label admitted ${FX.winPeer.id} on ${NETEXEC_PORT} and not on ${OTHER_PORT}`;
    return {
      works: failed.length === 0,
      control: control(true, `before any policy the server answered both clients on ${NETEXEC_PORT} and ${OTHER_PORT}; under deny-all ${ctl.detail}`),
      summary,
      evidence,
      node,
    };
  } finally {
    await deletePolicies(ctx, created);
  }
}

export const features: Feature[] = [
  {
    id: 'net.network-policy',
    area: 'networking',
    suite: 'networking',
    title: 'NetworkPolicy on a Windows pod: deny all, allow by pod label, namespace label and port',
    needs: ['windows-node'],
    fixtures: [NETPOL_SERVER, FX.win, FX.winPeer],
    access: permissions('networking.k8s.io', 'networkpolicies', ['create', 'get', 'delete'], 'namespace'),
    expect: networkPolicyExpectation,
    probe,
  },
];
