// Capacity: node room, fixture demand, waves that fit, sizing where resources are the subject,
// and n/a with the numbers for a fixture that cannot fit even alone.

import { expect } from 'chai';
import type { KubernetesObject } from '@kubernetes/client-node';
import {
  candidateNodes,
  demandOf,
  firstComers,
  place,
  planWaves,
  podRequests,
  readNodeRooms,
  sizeToFit,
  withFirstComers,
  withReserve,
  type NodeRoom,
  type PodDemand,
} from '../../../lib/run/capacity.ts';
import type { KubeClients } from '../../../lib/cluster/types.ts';
import type { V1Pod } from '@kubernetes/client-node';
import type { RenderedFixture } from '../../../lib/fixtures/types.ts';
import { linuxNode, winNode } from '../../support/clusterFixture.ts';

const room = (name: string, pods: number, cpu = 2, memory = 8 * 2 ** 30, usedPods = 0): NodeRoom => ({
  name,
  allocatable: { cpu, memory, pods },
  used: { cpu: 0, memory: 0, pods: usedPods },
});
const pods = (n: number, candidates: string[], cpu = 0): PodDemand => ({ cpu, memory: 0, count: n, perNode: false, candidates, what: `Pod x` });
const fixture = (id: string, objects: KubernetesObject[]): RenderedFixture => ({ spec: { id, template: id, os: 'windows' }, objects });
const deployment = (replicas: number, limits?: Record<string, string>) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd' },
  spec: {
    replicas,
    selector: {},
    template: {
      spec: {
        containers: [{ name: 'c', ...(limits ? { resources: { limits } } : {}) }],
        tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      },
    },
  },
});

describe('capacity', () => {
  it('requests as the scheduler counts them: limits stand in, init containers, overhead', () => {
    expect(
      podRequests({
        containers: [
          { name: 'a', resources: { limits: { cpu: '2', memory: '128Mi' } } },
          { name: 'b', resources: { requests: { cpu: '500m' } } },
        ],
      }),
    ).to.deep.equal({ cpu: 2.5, memory: 128 * 2 ** 20 });
    expect(
      podRequests({ containers: [{ name: 'a' }], initContainers: [{ name: 'i', resources: { requests: { cpu: '1' } } }], overhead: { cpu: '100m' } }).cpu,
    ).to.be.closeTo(1.1, 1e-9);
  });

  it('candidates: usable nodes that match selector, affinity and tolerations; nodeName pins', () => {
    const nodes = [
      linuxNode('cp', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }),
      linuxNode('l1'),
      winNode('w1'),
      winNode('w2', '10.0.20348', { ready: false, schedulable: false }),
    ];
    expect(candidateNodes({ containers: [], nodeSelector: { 'kubernetes.io/os': 'linux' } }, nodes).map(n => n.name)).to.deep.equal(['l1']);
    expect(candidateNodes({ containers: [], nodeSelector: { 'kubernetes.io/os': 'windows' } }, nodes).map(n => n.name)).to.deep.equal([]);
    expect(
      candidateNodes({ containers: [], nodeSelector: { 'kubernetes.io/os': 'windows' }, tolerations: [{ key: 'os', operator: 'Exists' }] }, nodes).map(
        n => n.name,
      ),
    ).to.deep.equal(['w1']);
    expect(candidateNodes({ containers: [], nodeName: 'w2' }, nodes).map(n => n.name)).to.deep.equal(['w2']);
  });

  it('a Deployment counts its surge; a DaemonSet one pod per candidate node', () => {
    const nodes = [winNode('w1'), winNode('w2')];
    expect(demandOf(fixture('d', [deployment(3)]), nodes)[0]).to.include({ count: 5, perNode: false });
    const ds = { ...deployment(1), kind: 'DaemonSet' };
    expect(demandOf(fixture('ds', [ds]), nodes)[0]).to.include({ count: 2, perNode: true });
  });

  it('places pods spread over candidates; says what is short with the numbers', () => {
    const r = place([room('a', 3), room('b', 3)], [pods(4, ['a', 'b'])]);
    expect('rooms' in r && r.rooms.map(x => x.used.pods)).to.deep.equal([2, 2]);
    const short = place([room('a', 3, 2, 8 * 2 ** 30, 2)], [pods(2, ['a'])]);
    expect('short' in short && short.short).to.match(/Pod x needs 2 pod\(s\).*\(1 placed\); a: 0 pod slot\(s\).*allocatable pods 3/);
    expect('rooms' in place([room('a', 1, 1)], [pods(1, ['a'], 0.5), pods(1, [], 4)])).to.equal(true); // a Pending-by-design pod takes no room
  });

  it('a 30-pod node: waves that fit, shared fixtures kept between waves, released when no longer needed', () => {
    const demand = new Map<string, PodDemand[]>([
      ['helper', [pods(1, ['w'])]],
      ['big1', [pods(12, ['w'])]],
      ['big2', [pods(12, ['w'])]],
      ['big3', [pods(12, ['w'])]],
    ]);
    const features = [
      { id: 'f1', fixtures: ['helper', 'big1'] },
      { id: 'f2', fixtures: ['helper', 'big2'] },
      { id: 'f3', fixtures: ['big3'] },
      { id: 'f4', fixtures: ['helper'] },
    ];
    const plan = planWaves(features, demand, withReserve([room('w', 30, 2, 8 * 2 ** 30, 3)]));
    expect(plan.unfit.size).to.equal(0);
    expect(plan.waves.map(w => w.features)).to.deep.equal([['f1', 'f2', 'f4'], ['f3']]);
    expect(plan.waves[0].deploy).to.have.members(['helper', 'big1', 'big2']);
    expect(plan.waves[0].release).to.have.members(['helper', 'big1', 'big2']);
    // Each wave's pods fit the node: 3 used + 2 reserved + 25 ≤ 30, then 3 + 2 + 12.
    const total = (ids: string[]) => ids.reduce((a, id) => a + demand.get(id)![0].count, 0);
    expect(5 + total(plan.waves[0].deploy)).to.be.at.most(30);
  });

  it('a wave fits even when the pods free to go to several nodes come first: they take the largest node, where others are bound', () => {
    // a: 32 cpu, 128 GiB; b: 4 cpu, 8 GiB; 10 pods each, each its build's only node. In the
    // order planned, 'flex' (4 pods, any Windows node) puts 3 on a once 'pinA' holds 7 of it,
    // 1 on b. Made first (pods come in any order), all 4 go to a, the least allocated: pinA's
    // seventh pod (or one made again) finds no room.
    const rooms = [room('a', 10, 32, 128 * 2 ** 30), room('b', 10, 4, 8 * 2 ** 30)];
    const demand = new Map<string, PodDemand[]>([
      ['pinA', [pods(7, ['a'])]],
      // Four pods of their own (os-selector-1 to 4): no owner to spread them.
      ['flex', [1, 2, 3, 4].map(() => pods(1, ['a', 'b']))],
      ['pinB', [pods(2, ['b'])]],
    ]);
    const all = [...demand.values()].flat();
    const inOrder = place(rooms, all);
    expect('rooms' in inOrder && inOrder.rooms.map(r => r.used.pods)).to.deep.equal([10, 3]);
    const early = withFirstComers(firstComers(rooms), all);
    expect('short' in early && early.short).to.match(/^a: its bound pods need 7 pod slot\(s\).*may leave 6 slot\(s\)/);
    const plan = planWaves(
      [
        { id: 'f1', fixtures: ['pinA'] },
        { id: 'f2', fixtures: ['flex'] },
        { id: 'f3', fixtures: ['pinB'] },
      ],
      demand,
      rooms,
    );
    expect(plan.waves.map(w => w.features)).to.deep.equal([['f1', 'f3'], ['f2']]);
    // Nodes alike: the early pods spread, and a node's bound pods keep their room.
    expect('rooms' in withFirstComers(firstComers([room('a', 10), room('b', 10)]), all)).to.equal(true);
    // A DaemonSet's pod is bound to its node.
    const ds = { ...pods(1, ['a', 'b']), perNode: true };
    expect(withFirstComers(firstComers([room('a', 1), room('b', 1)]), [ds, pods(1, ['a', 'b'])])).to.have.property('short');
  });

  it('a check that waits for every routine check (disruptive) goes in no wave before the last routine one: that wave would wait for it forever', () => {
    const demand = new Map<string, PodDemand[]>([
      ['small', [pods(1, ['w'])]],
      ['big1', [pods(13, ['w'])]],
      ['big2', [pods(13, ['w'])]],
      ['disrupt', [pods(1, ['w'])]],
    ]);
    const features = [
      { id: 'f1', fixtures: ['small'] },
      { id: 'reboot', fixtures: ['disrupt'], afterRoutine: true },
      { id: 'f2', fixtures: ['big1'] },
      { id: 'f3', fixtures: ['big2'] },
    ];
    // 30 pods, 5 taken: f1 + f2 + reboot would fit the first wave, but reboot's check waits for f3's.
    const plan = planWaves(features, demand, withReserve([room('w', 30, 2, 8 * 2 ** 30, 3)]));
    expect(plan.waves.map(w => w.features)).to.deep.equal([
      ['f1', 'f2'],
      ['f3', 'reboot'],
    ]);
    // Without the mark it would have gone first, with room to spare.
    const unmarked = planWaves(
      features.map(f => ({ id: f.id, fixtures: f.fixtures })),
      demand,
      withReserve([room('w', 30, 2, 8 * 2 ** 30, 3)]),
    );
    expect(unmarked.waves[0].features).to.include('reboot');
  });

  it('keeps a fixture a later wave needs up, and never deploys it twice', () => {
    const demand = new Map<string, PodDemand[]>([
      ['helper', [pods(1, ['w'])]],
      ['a', [pods(5, ['w'])]],
      ['b', [pods(5, ['w'])]],
    ]);
    const plan = planWaves(
      [
        { id: 'f1', fixtures: ['helper', 'a'] },
        { id: 'f2', fixtures: ['helper', 'b'] },
      ],
      demand,
      [room('w', 7)],
    );
    expect(plan.waves.map(w => w.deploy)).to.deep.equal([['helper', 'a'], ['b']]);
    expect(plan.waves.map(w => w.release)).to.deep.equal([['a'], ['helper', 'b']]);
  });

  it('a fixture that cannot fit even alone is unfit, with the numbers; its feature is in no wave', () => {
    const demand = new Map<string, PodDemand[]>([
      ['huge', [pods(1, ['w'], 4)]],
      ['ok', [pods(1, ['w'])]],
    ]);
    const plan = planWaves(
      [
        { id: 'f1', fixtures: ['huge'] },
        { id: 'f2', fixtures: ['ok'] },
      ],
      demand,
      [room('w', 30, 2)],
    );
    expect(plan.unfit.get('huge')).to.match(/cpu 4.*w: 30 pod slot\(s\), cpu 2, memory/);
    expect(plan.waves.map(w => w.features)).to.deep.equal([['f2']]);
  });

  it("room held by other workloads is crowded (an error of the means), room the node's own pods hold is unfit (n/a)", () => {
    const demand = new Map<string, PodDemand[]>([
      ['mid', [pods(1, ['w'], 1.5)]],
      ['ok', [pods(1, ['w'])]],
    ]);
    const features = [
      { id: 'f1', fixtures: ['mid'] },
      { id: 'f2', fixtures: ['ok'] },
    ];
    // 1 cpu used, all of it by another workload's pods: without them 'mid' fits.
    const byOthers: NodeRoom = { ...room('w', 30, 2), used: { cpu: 1, memory: 0, pods: 3 }, others: { cpu: 1, memory: 0, pods: 2 } };
    const crowded = planWaves(features, demand, [byOthers]);
    expect(crowded.unfit.size).to.equal(0);
    expect(crowded.crowded.get('mid')).to.match(/cpu 1\.5.*held by other workloads \(not DaemonSet or static pods\): w: 2 pod\(s\), cpu 1/);
    expect(crowded.waves.map(w => w.features)).to.deep.equal([['f2']]);
    // The same 1 cpu held by the node's own pods (DaemonSets): the cluster's shape, n/a.
    const byNode: NodeRoom = { ...room('w', 30, 2), used: { cpu: 1, memory: 0, pods: 3 }, others: { cpu: 0, memory: 0, pods: 0 } };
    const unfit = planWaves(features, demand, [byNode]);
    expect(unfit.crowded.size).to.equal(0);
    expect(unfit.unfit.get('mid')).to.match(/cpu 1\.5/);
  });

  it("readNodeRooms: DaemonSet and static pods are the node's own; other pods count as held by others", async () => {
    const pod = (name: string, cpu: string, meta: Partial<NonNullable<V1Pod['metadata']>> = {}, phase = 'Running'): V1Pod => ({
      metadata: { name, namespace: 'x', ...meta },
      spec: { nodeName: 'w', containers: [{ name: 'c', resources: { requests: { cpu } } }] },
      status: { phase },
    });
    const items = [
      pod('ds', '100m', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'kube-proxy', uid: '1' }] }),
      pod('static', '200m', { annotations: { 'kubernetes.io/config.mirror': 'abc' } }),
      pod('app', '300m', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'app-1', uid: '2' }] }),
      pod('bare', '400m'),
      pod('done', '1', {}, 'Succeeded'),
    ];
    const kube = { core: { listPodForAllNamespaces: async () => ({ items }) } } as unknown as KubeClients;
    const { rooms } = await readNodeRooms(kube, [winNode('w')], 'ns');
    expect(rooms[0].used).to.deep.include({ pods: 4 });
    expect(rooms[0].used.cpu).to.be.closeTo(1, 1e-9);
    expect(rooms[0].others!.pods).to.equal(2);
    expect(rooms[0].others!.cpu).to.be.closeTo(0.7, 1e-9);
  });

  it("readNodeRooms reads only the usable nodes' live pods: per node for a few, one paged list of live pods for many; namespace only without the right", async () => {
    const asked: { fieldSelector?: string; limit?: number; _continue?: string; namespace?: string }[] = [];
    const pods = Array.from({ length: 30 }, (_, i): V1Pod => ({
      metadata: { name: `p${i}`, namespace: 'x' },
      spec: { nodeName: `n${i % 15}`, containers: [{ name: 'c', resources: { requests: { cpu: '100m' } } }] },
      status: { phase: 'Running' },
    }));
    // A server that pages by 10 and applies spec.nodeName.
    const page = (q: { fieldSelector?: string; limit?: number; _continue?: string }) => {
      asked.push(q);
      const node = /spec\.nodeName=([^,]+)/.exec(q.fieldSelector ?? '')?.[1];
      const all = pods.filter(p => !node || p.spec!.nodeName === node);
      const from = Number(q._continue ?? 0);
      const to = from + (q.limit ?? all.length);
      return { items: all.slice(from, to), metadata: to < all.length ? { _continue: String(to) } : {} };
    };
    const kube = { core: { listPodForAllNamespaces: async (q: Parameters<typeof page>[0]) => page(q) } } as unknown as KubeClients;
    const few = await readNodeRooms(kube, [winNode('n1'), winNode('n2')], 'ns');
    expect(asked.map(q => q.fieldSelector)).to.deep.equal([
      'spec.nodeName=n1,status.phase!=Succeeded,status.phase!=Failed',
      'spec.nodeName=n2,status.phase!=Succeeded,status.phase!=Failed',
    ]);
    expect(few.rooms.map(r => r.used.pods)).to.deep.equal([2, 2]);
    asked.length = 0;
    const many = await readNodeRooms(
      kube,
      Array.from({ length: 10 }, (_, i) => winNode(`n${i}`)),
      'ns',
    );
    expect(asked.every(q => q.fieldSelector === 'status.phase!=Succeeded,status.phase!=Failed' && q.limit === 500)).to.equal(true);
    expect(many.rooms.map(r => r.used.pods)).to.deep.equal(Array(10).fill(2));
    expect(many.rooms[0].used.cpu).to.be.closeTo(0.2, 1e-9);
    const denied = {
      core: {
        listPodForAllNamespaces: async () => Promise.reject(new Error('pods is forbidden')),
        listNamespacedPod: async (q: Parameters<typeof page>[0] & { namespace: string }) => ({ ...page(q), items: page(q).items.slice(0, 1) }),
      },
    } as unknown as KubeClients;
    const own = await readNodeRooms(denied, [winNode('n0')], 'ns');
    expect(own.note).to.equal('could not list pods in all namespaces (pods is forbidden): node capacity counts only namespace ns');
    expect(own.rooms[0].used.pods).to.equal(1);
  });

  it('sizes res.limits-like fixtures down to a 2-vCPU node, cpu first, memory untouched', () => {
    const nodes = [winNode('w', '10.0.20348', { allocatable: { cpu: '1900m', memory: '6Gi', pods: '30' } })];
    const f = fixture('deploy-resource', [deployment(3, { cpu: '2', memory: '128Mi' })]);
    const note = sizeToFit(f, nodes, [room('w', 30, 1.9, 6 * 2 ** 30)]);
    expect(note).to.contain('sized to the nodes');
    const limits = (f.objects[0] as ReturnType<typeof deployment>).spec.template.spec.containers[0].resources!.limits;
    expect(limits.memory).to.equal('128Mi');
    const cpu = Number(limits.cpu.replace('m', '')) / 1000;
    expect(cpu * 5).to.be.at.most(1.9);
    expect(cpu).to.be.greaterThan(0.3);
    expect('rooms' in place([room('w', 30, 1.9, 6 * 2 ** 30)], demandOf(f, nodes))).to.equal(true);
  });
});
