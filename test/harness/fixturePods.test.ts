// A wait for pods of a workload fixture whose create failed (Deployment, DaemonSet, StatefulSet,
// bare pod sets) fails at once with that create error, as it does for plain pod fixtures; not at
// the wait's deadline, naming no cause.

import { expect } from 'chai';
import type { KubernetesObject } from '@kubernetes/client-node';
import { podSettles, podsScheduled } from '../../lib/catalog/observe.ts';
import { waitForPodSet } from '../../lib/catalog/features/_nodeProbes.ts';
import type { CheckContext, Feature } from '../../lib/catalog/types.ts';
import { defaultTimeouts } from '../../lib/cluster/timeouts.ts';
import type { KubeClients } from '../../lib/cluster/types.ts';
import { FixtureError } from '../../lib/fixtures/errors.ts';
import { renderFixture } from '../../lib/fixtures/render.ts';
import type { FixtureSpec, RenderContext } from '../../lib/fixtures/types.ts';
import { podsOfObjects, selectorMatches } from '../../lib/fixtures/workloadPods.ts';
import { Redactor } from '../../lib/fixtures/secrets.ts';
import { makeCheckContext } from '../../lib/run/context.ts';
import { deployFixtures } from '../../lib/run/deploy.ts';
import type { RunState } from '../../lib/run/state.ts';
import { cluster, linuxNode, winNode } from './clusterFixture.ts';

const render: RenderContext = {
  runId: 'rabc123', namespace: 'wincheck-rabc123', windowsBuild: '10.0.20348', windowsNode: 'win-1',
  multipleBuilds: false, windowsTaints: [], secrets: { username: 'u', password: 'p' },
};
const SPECS: FixtureSpec[] = [
  { id: 'deploy-resource', template: 'deploy-resource', os: 'windows' },
  { id: 'daemonset', template: 'daemonset', os: 'windows', pin: 'none' },
  { id: 'statefulset', template: 'statefulset', os: 'windows' },
  { id: 'win-set', template: 'pause-set', os: 'windows', params: { selectorKey: 'kubernetes.io/os', os: 'windows' } },
];

/** Clients whose creates of workloads fail (an injected 500) and whose pod lists and watches never show a pod. */
function failingKube(): { kube: KubeClients; lists: () => number } {
  let lists = 0;
  const kube = {
    core: {
      createNamespacedPod: async () => ({}),
      listNamespacedPod: async () => { lists++; return { items: [], metadata: { resourceVersion: '1' } }; },
    },
    objects: {
      create: async (o: KubernetesObject) => {
        if (o.kind !== 'Service') throw new Error(`HTTP 500: Internal error occurred: injected fault (creating ${o.kind} ${o.metadata?.name})`);
        return o;
      },
    },
    watch: { watch: async () => new AbortController() },
  } as unknown as KubeClients;
  return { kube, lists: () => lists };
}

async function deployedRun(): Promise<{ ctx: CheckContext; lists: () => number }> {
  const { kube, lists } = failingKube();
  const run = {
    kube, namespace: render.namespace, render, fixtures: new Map(), redactor: new Redactor([]), features: [],
    cluster: cluster({ nodes: [linuxNode('l'), winNode('win-1')] }),
    config: { timeouts: defaultTimeouts() }, slots: {}, log: () => undefined,
  } as unknown as RunState;
  await deployFixtures(run, SPECS);
  const feature = { id: 'x.workloads', fixtures: SPECS } as unknown as Feature;
  return { ctx: makeCheckContext(run, feature, [], new AbortController().signal), lists };
}

/** Resolves to the rejection, or fails when the wait is still going after `ms`. */
async function rejectsWithin(p: Promise<unknown>, ms: number): Promise<Error> {
  const t = Date.now();
  const r = await Promise.race([p.then(() => 'resolved', (e: Error) => e), new Promise(res => setTimeout(() => res('still waiting'), ms))]);
  if (!(r instanceof Error)) throw new Error(`the wait was ${r} after ${Date.now() - t} ms`);
  return r;
}

describe('waits for pods of a workload fixture whose create failed', () => {
  it('knows the pods a fixture would make: names of bare pods and StatefulSet ordinals, labels of every template', () => {
    const pods = (id: string) => podsOfObjects(renderFixture(SPECS.find(s => s.id === id)!, render).objects);
    expect(pods('statefulset').names).to.deep.equal(['statefulset-0', 'statefulset-1']);
    expect(pods('deploy-resource').names).to.deep.equal([]);
    expect(pods('deploy-resource').labels.some(l => selectorMatches('app=deploy-resource', l))).to.equal(true);
    expect(pods('win-set').names).to.have.length(4);
    expect(pods('daemonset').labels.some(l => selectorMatches('app=deployment', l))).to.equal(false);
  });

  it('equality selectors: =, ==, !=, exists, not exists; a set-based term is never judged', () => {
    const l = { app: 'web', tier: 'front' };
    expect(selectorMatches('app=web', l)).to.equal(true);
    expect(selectorMatches('app==web,tier', l)).to.equal(true);
    expect(selectorMatches('app=web,tier!=front', l)).to.equal(false);
    expect(selectorMatches('!gone', l)).to.equal(true);
    expect(selectorMatches('app in (web)', l)).to.equal(false);
    expect(selectorMatches('', l)).to.equal(false);
  });

  it('a pod-set, scheduling or Ready wait fails at once with the create error; a wait for other pods goes ahead', async () => {
    const { ctx, lists } = await deployedRun();
    const e1 = await rejectsWithin(waitForPodSet(ctx, 'app=deploy-resource', 3, 60_000), 1_000);
    expect(e1).to.be.instanceOf(FixtureError);
    expect(e1.message).to.match(/failed to deploy fixture "deploy-resource": .*injected fault \(creating Deployment deploy-resource\)/);
    const e2 = await rejectsWithin(podsScheduled(ctx, 'app=win-set', 4, 60_000), 1_000);
    expect(e2.message).to.match(/failed to deploy fixture "win-set": .*creating Pod win-set-1/);
    const e3 = await rejectsWithin(podSettles(ctx, 'statefulset-1', 'ready', 60_000), 1_000);
    expect(e3.message).to.match(/failed to deploy fixture "statefulset": .*creating StatefulSet statefulset/);
    const e4 = await rejectsWithin(podSettles(ctx, 'statefulset-0', 'scheduled', 60_000), 1_000);
    expect(e4.message).to.match(/fixture "statefulset"/);
    expect(lists(), 'none of them listed pods').to.equal(0);
    // Pods no failed fixture would make: the wait goes on (lists, then watches).
    const other = waitForPodSet(ctx, 'app=someone-else', 1, 300).catch((e: Error) => e);
    expect(String(await other)).to.match(/timed out after 0s waiting for 1 pod\(s\) app=someone-else/);
    expect(lists()).to.equal(1);
  });
});
