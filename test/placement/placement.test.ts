// Placement: which nodes fixtures may use, what they tolerate, how build pinning works without
// the windows-build label, and per-node names that never collide or adopt another's object.

import { expect } from 'chai';
import type { V1Node, V1NodeSystemInfo, V1Pod } from '@kubernetes/client-node';
import { unmetNeed } from '../../lib/catalog/needs.ts';
import { buildOf, nodeInfoOf, schedulableWindowsNodes, usableLinuxNodes, windowsTaints } from '../../lib/discovery/nodes.ts';
import { renderFixture } from '../../lib/fixtures/render.ts';
import { renderContextFor } from '../../lib/run/deploy.ts';
import { adoptableHostProcessPod, hostProcessPodName, nodeTaints } from '../../lib/transports/hostProcess.ts';
import { buildNodeObject, nodeLabels } from '../../sim/nodes/nodeObject.ts';
import { resolveNodeSpec } from '../../sim/nodes/nodeSpec.ts';
import { loadProfile } from '../../sim/profiles/load.ts';
import { validateProfile } from '../../sim/profiles/profileSchema.ts';
import { cluster, linuxNode, winNode } from '../harness/clusterFixture.ts';

const CP_TAINT = { key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' };
const run = { runId: 'rabc', namespace: 'wincheck-rabc', secrets: {}, config: {} } as unknown as Parameters<typeof renderContextFor>[0];

describe('placement: usable nodes', () => {
  it('lifecycle taints make a node unschedulable; they are never tolerated', () => {
    const v1: V1Node = {
      metadata: { name: 'w', labels: { 'kubernetes.io/os': 'windows' } },
      spec: { taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' }] },
      status: { conditions: [{ type: 'Ready', status: 'True' }], nodeInfo: { kernelVersion: '10.0.20348.1', osImage: 'Windows Server 2022 Datacenter' } as V1NodeSystemInfo },
    };
    expect(nodeInfoOf(v1).schedulable).to.equal(false);
    const nodes = [
      winNode('cordoned', '10.0.20348', { schedulable: false, taints: [{ key: 'os', value: 'windows', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] }),
      winNode('notready', '10.0.20348', { ready: false, schedulable: false, taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }, { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] }),
      winNode('ok'),
    ];
    expect(windowsTaints(nodes)).to.deep.equal([{ key: 'os', value: 'windows', effect: 'NoSchedule' }]);
    expect(nodeTaints(nodes[1])).to.deep.equal([]);
    const pod = renderFixture({ id: 'iis', template: 'iis-pod', os: 'windows' }, renderContextFor(run, cluster({ nodes: [linuxNode('l'), ...nodes] }))).objects[0] as V1Pod;
    expect(pod.spec!.tolerations!.map(t => t.key)).to.deep.equal(['os']);
  });

  it('a control plane tainted NoSchedule is no Linux node for helpers: n/a with the reason', () => {
    const c = cluster({ nodes: [linuxNode('cp', { taints: [CP_TAINT] }), winNode('w1'), winNode('w2')] });
    expect(usableLinuxNodes(c.nodes)).to.deep.equal([]);
    expect(unmetNeed('linux-node', c, {})).to.match(/no Linux node a helper pod can use.*cp \(taint node-role.kubernetes.io\/control-plane:NoSchedule\)/);
    const ok = cluster({ nodes: [linuxNode('cp', { taints: [CP_TAINT] }), linuxNode('l1'), winNode('w1')] });
    expect(unmetNeed('linux-node', ok, {})).to.equal(undefined);
  });

  it('two-windows-nodes counts only Ready, schedulable ones', () => {
    const c = cluster({ nodes: [linuxNode('l'), winNode('w1'), winNode('w2', '10.0.20348', { ready: false, schedulable: false })] });
    expect(schedulableWindowsNodes(c.nodes).map(n => n.name)).to.deep.equal(['w1']);
    expect(unmetNeed('two-windows-nodes', c, {})).to.match(/the cluster has 1; not usable: w2 \(NotReady\)/);
  });
});

describe('placement: build pinning', () => {
  it('derives the build from kernelVersion, else osImage', () => {
    expect(buildOf('10.0.17763.6054', '')).to.equal('10.0.17763');
    expect(buildOf('', 'Windows Server 2022 Datacenter')).to.equal('10.0.20348');
    expect(buildOf('', 'Windows Server 2016 Datacenter')).to.equal('10.0.14393');
    expect(buildOf('', 'Ubuntu 22.04')).to.equal(undefined);
  });

  it('with the label on every node of the build: the label selector', () => {
    const c = cluster({ nodes: [linuxNode('l'), winNode('a', '10.0.20348'), winNode('b', '10.0.17763')] });
    const ctx = renderContextFor(run, c);
    expect(ctx.windowsBuildNodes).to.equal(undefined);
    const pod = renderFixture({ id: 'iis', template: 'iis-pod', os: 'windows' }, ctx).objects[0] as V1Pod;
    expect(pod.spec!.nodeSelector).to.include({ 'node.kubernetes.io/windows-build': '10.0.20348' });
    expect(pod.spec!.affinity).to.equal(undefined);
  });

  it('without the label: node affinity on the names of the build\'s schedulable nodes', () => {
    const unlabelled = (name: string, build: string, extra = {}) => winNode(name, build, { labels: { 'kubernetes.io/os': 'windows' }, ...extra });
    const c = cluster({ nodes: [linuxNode('l'), unlabelled('a', '10.0.20348'), unlabelled('c', '10.0.20348'), unlabelled('d', '10.0.20348', { ready: false, schedulable: false }), unlabelled('b', '10.0.17763')] });
    const ctx = renderContextFor(run, c);
    expect(ctx.windowsBuild).to.equal('10.0.20348');
    expect(ctx.windowsBuildNodes).to.deep.equal(['a', 'c']);
    const pod = renderFixture({ id: 'iis', template: 'iis-pod', os: 'windows' }, ctx).objects[0] as V1Pod;
    expect(pod.spec!.nodeSelector ?? {}).to.not.have.property('node.kubernetes.io/windows-build');
    expect(pod.spec!.affinity!.nodeAffinity!.requiredDuringSchedulingIgnoredDuringExecution!.nodeSelectorTerms)
      .to.deep.equal([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'c'] }] }]);
  });
});

describe('placement: per-node names', () => {
  it('HostProcess pod names are DNS-1123, <= 63 chars and distinct for long shared prefixes', () => {
    const prefix = 'gke-production-cluster-windows-pool-2022-ltsc-abcdef12-';
    const names = ['x1z9', 'x1z8', 'Y1Z9'].map(s => hostProcessPodName(prefix + s));
    for (const n of names) expect(n).to.match(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
    expect(new Set(names).size).to.equal(3);
    expect(hostProcessPodName('Win_1')).to.not.equal(hostProcessPodName('win-1'));
    expect(hostProcessPodName('win-1')).to.match(/^wincheck-node-win-1-[0-9a-f]{8}$/);
  });

  it('a 409 pod is adopted only when it is this run\'s HostProcess pod on this node', () => {
    const pod = (run: string | undefined, node: string, hp = true): V1Pod => ({
      metadata: { name: 'x', labels: run ? { 'wincheck.io/run-id': run } : {} },
      spec: { nodeName: node, containers: [], securityContext: { windowsOptions: { hostProcess: hp } } },
    });
    expect(adoptableHostProcessPod(pod('r1', 'w1'), 'r1', 'w1')).to.equal(undefined);
    expect(adoptableHostProcessPod(pod('r0', 'w1'), 'r1', 'w1')).to.contain('run-id=r1');
    expect(adoptableHostProcessPod(pod(undefined, 'w1'), 'r1', 'w1')).to.contain('has none');
    expect(adoptableHostProcessPod(pod('r1', 'w2'), 'r1', 'w1')).to.contain('bound to node w2');
    expect(adoptableHostProcessPod(pod('r1', 'w1', false), 'r1', 'w1')).to.contain('not a HostProcess pod');
  });
});

describe('sim profile: cordoned nodes and removed labels', () => {
  it('cordon sets spec.unschedulable and the unschedulable taint; removeLabels drops the windows-build label', () => {
    const base = loadProfile('default');
    const profile = validateProfile({ ...base, nodes: [...base.nodes.map(n => n.name === 'win-2022-2' ? { ...n, unschedulable: true, removeLabels: ['node.kubernetes.io/windows-build'] } : n)] });
    const spec = resolveNodeSpec(profile, profile.nodes[4], 4);
    const node = buildNodeObject(profile, spec, { internalIP: '127.0.10.5', podCIDR: '10.244.4.0/24' }) as unknown as V1Node;
    expect(node.spec!.unschedulable).to.equal(true);
    expect(node.spec!.taints).to.deep.include({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
    expect(nodeLabels(profile, spec)).to.not.have.property('node.kubernetes.io/windows-build');
    const info = nodeInfoOf(node);
    expect(info).to.include({ windowsBuild: '10.0.20348', schedulable: false });
    expect(() => validateProfile({ ...base, nodes: [{ ...base.nodes[0], removeLabels: ['bad key!'] }] })).to.throw(/nodes\[0\]\.removeLabels\[0\]/);
  });
});
