// Placement and capacity on cluster shapes taken from real nodes, run end to end on the sim: a
// small Windows node next to a cordoned and a NotReady one, Linux only a tainted control plane,
// mixed builds without the windows-build label, 60+ character node names, Kubernetes 1.22 with
// docker. Each test names the verdict the docs give and asserts the harness neither overfilled a
// node nor placed a fixture on a node it must not use.

import { expect } from 'chai';
import { formatSources } from '../../lib/facts/sources.ts';
import type { CheckResult } from '../../lib/catalog/types.ts';
import type { NodeSpec, Profile } from '../../sim/profiles/types.ts';
import { FAST_NET, runOnSim, type SimRun } from '../support/simRun.ts';

const outcomes = (r: SimRun) => Object.fromEntries([...r.results].map(([id, x]) => [id, x.outcome]));
const harnessFailures = (r: SimRun): CheckResult[] => [...r.results.values()].filter(x => x.outcome === 'error' || x.outcome === 'regressed');
const windows = (p: Profile) => p.nodes.filter(n => n.os === 'windows');

describe('placement and capacity on real node shapes (sim)', function () {
  this.timeout(10 * 60_000);

  it('one small Windows node (12 pods, 2 vCPUs) beside a cordoned and a NotReady one: waves, sized limits, nothing on the others', async () => {
    const r = await runOnSim(
      [
        'work.deployment',
        'work.daemonset',
        'res.limits',
        'res.cpu-limit-enforced',
        'node.pause-image',
        'iso.process',
        'cfg.secret-env',
        'cfg.configmap-env',
        'sched.os-selector',
        'stor.emptydir',
        'net.w2w-cross-node',
      ],
      {
        timeouts: FAST_NET,
        edit: p => {
          const [small, cordoned] = windows(p);
          Object.assign(small, { capacity: { cpu: '2', memory: '8Gi', pods: '12' }, reservedCpu: '100m', reservedMemory: '1Gi' });
          cordoned.unschedulable = true;
          p.nodes.push({ ...structuredClone(cordoned), name: 'win-2022-notready', unschedulable: false, ready: false } as NodeSpec);
        },
      },
    );
    // The docs promise these on any Windows node: every one supported, none failed for lack of room.
    expect(harnessFailures(r).map(x => `${x.id}: ${x.reason}`)).to.deep.equal([]);
    expect(outcomes(r)).to.include({
      'work.deployment': 'supported',
      'work.daemonset': 'supported',
      'res.limits': 'supported',
      'iso.process': 'supported',
      'node.pause-image': 'supported',
    });
    // Cross-node needs two usable Windows nodes: the cordoned and the NotReady one do not count.
    expect(r.results.get('net.w2w-cross-node')!.outcome).to.equal('n/a');
    expect(r.results.get('net.w2w-cross-node')!.reason).to.match(
      /needs two Ready, schedulable Windows nodes, the cluster has 1; not usable: win-2022-2 \(unschedulable.*win-2022-notready \(NotReady\)/,
    );
    expect(r.output.join('\n')).to.match(/Capacity: the fixtures do not fit the nodes at once; deploying in [2-9] waves/);
    expect(r.output.join('\n')).to.match(/fixture deploy-resource sized to the nodes' free room/);
    expect(r.results.get('res.limits')!.summary).to.not.contain('cpu 2;');
    for (const x of r.results.values()) expect(x.node ?? 'win-2022-1', x.id).to.not.match(/win-2022-2|notready/);
    expect(r.leftover).to.deep.equal([]);
  });

  it('Linux only a control plane tainted NoSchedule: Linux-helper features are n/a, naming the taint', async () => {
    const r = await runOnSim(['work.iis-pod', 'sched.linux-stays-linux', 'work.deployment'], {
      timeouts: FAST_NET,
      edit: p => {
        p.nodes = p.nodes.filter(n => n.os === 'windows' || n.role === 'control-plane');
      },
    });
    expect(outcomes(r)).to.deep.equal({ 'work.iis-pod': 'n/a', 'sched.linux-stays-linux': 'n/a', 'work.deployment': 'supported' });
    expect(r.results.get('work.iis-pod')!.reason).to.contain('control-plane (taint node-role.kubernetes.io/control-plane:NoSchedule)');
  });

  it('mixed builds without the windows-build label: build-pinned fixtures land on the target build by node name', async () => {
    const r = await runOnSim(['iso.process', 'work.deployment', 'sec.run-as-username', 'work.os-mismatch'], {
      base: 'mixed-build',
      timeouts: FAST_NET,
      edit: p => {
        for (const n of windows(p)) n.removeLabels = ['node.kubernetes.io/windows-build'];
      },
    });
    expect(harnessFailures(r).map(x => `${x.id}: ${x.reason}`)).to.deep.equal([]);
    // Each build qualified on its own nodes (testcase per build), found by node name, not by the label.
    for (const [label, build] of [
      ['ltsc2022', '10.0.20348'],
      ['ltsc2019', '10.0.17763'],
    ]) {
      for (const id of ['iso.process', 'work.deployment', 'sec.run-as-username'])
        expect(r.results.get(`${id} [${label}]`)?.outcome, `${id} [${label}]`).to.equal('supported');
      expect(r.results.get(`iso.process [${label}]`)!.windowsBuild).to.equal(build);
    }
  });

  it('Windows node names of 60+ characters sharing a prefix: each node check runs on its own node', async () => {
    // 62 characters (the hostname label allows 63); truncated into wincheck-node-<name> they would collide.
    const prefix = 'gke-wincheck-production-windows-pool-ltsc2022-a1b2c3d4e5-';
    const r = await runOnSim(['node.services', 'node.hns-network', 'iso.hyperv-annotation', 'iso.hostprocess'], {
      timeouts: FAST_NET,
      edit: p =>
        windows(p).forEach((n, i) => {
          n.name = `${prefix}${i}x7q`;
        }),
    });
    expect(prefix.length + 4).to.be.greaterThan(60);
    expect(harnessFailures(r).map(x => `${x.id}: ${x.reason}`)).to.deep.equal([]);
    // The annotation was removed in 1.21 (the v1.9 Windows guide (https://github.com/kubernetes/website/blob/release-1.9/docs/getting-started-guides/windows/index.md); the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/)): limited, never lifted by another node's VMs.
    expect(outcomes(r)).to.deep.equal({
      'node.services': 'supported',
      'node.hns-network': 'supported',
      'iso.hyperv-annotation': 'limited',
      'iso.hostprocess': 'supported',
    });
    // One HostProcess pod per node, each bound to its node (a shared truncated name would be adopted by the other).
    const pods = [0, 1].map(
      i => new RegExp(`Node access to ${prefix}${i}x7q: hostprocess \\S+/(\\S+) on node ${prefix}${i}x7q`).exec(r.output.join('\n'))?.[1],
    );
    expect(pods[0]).to.be.a('string');
    expect(pods[1]).to.be.a('string').and.not.equal(pods[0]);
    for (const p of pods) expect(p!.length).to.be.at.most(63);
  });

  it('Kubernetes 1.22 with docker on Windows Server 2019: the runtime is supported (dockershim), the pod OS field is not yet', async () => {
    const r = await runOnSim(['node.runtime', 'sched.pod-os-field', 'node.os-supported', 'iso.hostprocess'], {
      base: 'ws2019',
      timeouts: FAST_NET,
      edit: p => {
        p.kubernetesVersion = 'v1.22.17';
        for (const n of p.nodes) {
          n.kubeletVersion = 'v1.22.17';
          if (n.os === 'windows') n.containerRuntime = 'docker://20.10.9';
        }
      },
    });
    // the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): Docker EE 19.03+ through dockershim before 1.24; 2019 is supported on 1.22.
    expect(r.results.get('node.runtime')!.outcome).to.equal('supported');
    expect(formatSources(r.results.get('node.runtime')!.expectation.source)).to.contain('Intro to Windows support in Kubernetes');
    expect(r.results.get('node.os-supported')!.outcome).to.equal('supported');
    // KEP-2802: spec.os alpha in 1.23; HostProcess alpha in 1.22 (gate off) and never on dockershim.
    expect(r.results.get('sched.pod-os-field')!.expectation.expected).to.equal('limited');
    expect(r.results.get('iso.hostprocess')!.expectation.expected).to.equal('limited');
    expect(r.results.get('iso.hostprocess')!.expectation.reason).to.contain('alpha in Kubernetes v1.22.17');
  });
});
