// The scheduler: OS selectors, taints, affinity, resources, RuntimeClass scheduling,
// the FailedScheduling message, retries, and the breaks that defeat each rule.

import { expect } from 'chai';
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { loadProfile, withOverrides } from '../../../sim/profiles/load.ts';
import type { BreakKey } from '../../../sim/profiles/types.ts';
import { StoreError } from '../../../sim/api/store.ts';
import { setNodeReady } from '../../../sim/nodes/index.ts';
import { createNamespace, linuxPod, startTestCluster, waitFor, windowsPod, type TestCluster } from '../../support/simControllers.ts';

const NS = 'sched';

async function cluster(profile = 'default', breaks: BreakKey[] = []): Promise<TestCluster> {
  const c = await startTestCluster(withOverrides(loadProfile(profile), { breaks }));
  createNamespace(c.store, NS);
  return c;
}

const podOf = (c: TestCluster, name: string) => c.store.tryGet('pods', NS, name) as unknown as V1Pod | undefined;
const nodeOS = (c: TestCluster, node: string) => c.store.get('nodes', undefined, node).metadata.labels!['kubernetes.io/os'];

function boundNode(c: TestCluster, name: string): Promise<string> {
  return waitFor(c.store, `pod ${name} bound`, () => podOf(c, name)?.spec?.nodeName);
}

function failedScheduling(c: TestCluster, name: string): Promise<CoreV1Event> {
  return waitFor(c.store, `FailedScheduling for ${name}`, () =>
    c.store
      .list('events', { namespace: NS })
      .items.map(e => e as unknown as CoreV1Event)
      .find(e => e.reason === 'FailedScheduling' && e.involvedObject.name === name),
  );
}

describe('sim scheduler', () => {
  let c: TestCluster;
  afterEach(async () => {
    await c?.stop();
  });

  it('puts a Windows-selecting, tolerating pod on a Windows node and records Scheduled', async () => {
    c = await cluster();
    c.store.create('pods', windowsPod('iis', NS));
    const node = await boundNode(c, 'iis');
    expect(nodeOS(c, node)).to.equal('windows');
    const pod = podOf(c, 'iis')!;
    expect(pod.status!.conditions!.find(x => x.type === 'PodScheduled')!.status).to.equal('True');
    const ev = c.store
      .list('events', { namespace: NS })
      .items.map(e => e as unknown as CoreV1Event)
      .find(e => e.reason === 'Scheduled')!;
    expect(ev.type).to.equal('Normal');
    expect(ev.message).to.equal(`Successfully assigned ${NS}/iis to ${node}`);
    // Written as the events.k8s.io recorder writes it, read through core/v1 as upstream converts it.
    expect(ev.reportingComponent).to.equal('default-scheduler');
    expect(ev.action).to.equal('Binding');
    expect(String(ev.eventTime)).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(ev.lastTimestamp).to.equal(undefined);
    expect(ev.firstTimestamp).to.equal(undefined);
    expect(ev.count).to.equal(undefined);
  });

  it('keeps Linux pods on Linux workers, off the tainted control plane and Windows nodes', async () => {
    c = await cluster();
    for (let i = 0; i < 6; i++) c.store.create('pods', linuxPod(`l${i}`, NS));
    const nodes = await Promise.all([...Array(6).keys()].map(i => boundNode(c, `l${i}`)));
    expect(new Set(nodes)).to.deep.equal(new Set(['linux-1', 'linux-2']));
  });

  it('reports the real FailedScheduling message for a pod without the Windows toleration', async () => {
    c = await cluster();
    const pod = windowsPod('untolerated', NS);
    delete (pod.spec as V1Pod['spec'])!.tolerations;
    c.store.create('pods', pod);
    const ev = await failedScheduling(c, 'untolerated');
    expect(ev.type).to.equal('Warning');
    expect(ev.message).to.equal(
      '0/5 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, ' +
        "2 node(s) didn't match Pod's node affinity/selector, 2 node(s) had untolerated taint {os: windows}. " +
        'preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.',
    );
    const cond = podOf(c, 'untolerated')!.status!.conditions!.find(x => x.type === 'PodScheduled')!;
    expect(cond).to.include({ status: 'False', reason: 'Unschedulable', message: ev.message });
    expect(podOf(c, 'untolerated')!.spec!.nodeName).to.equal(undefined);
  });

  it('schedules a waiting pod once a node lets it in', async () => {
    c = await cluster();
    const pod = windowsPod('waits', NS);
    delete (pod.spec as V1Pod['spec'])!.tolerations;
    c.store.create('pods', pod);
    await failedScheduling(c, 'waits');
    c.store.mutate('nodes', undefined, 'win-2022-2', n => {
      delete (n.spec as { taints?: unknown }).taints;
    });
    expect(await boundNode(c, 'waits')).to.equal('win-2022-2');
  });

  it('honours required node affinity (In, NotIn, Exists, DoesNotExist)', async () => {
    c = await cluster();
    const affinity = (exprs: { key: string; operator: string; values?: string[] }[]) => ({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: exprs }] } },
    });
    c.store.create(
      'pods',
      linuxPod('in', NS, { nodeSelector: undefined, affinity: affinity([{ key: 'kubernetes.io/hostname', operator: 'In', values: ['linux-2'] }]) }),
    );
    c.store.create(
      'pods',
      windowsPod('notin', NS, {
        nodeSelector: undefined,
        affinity: affinity([
          { key: 'kubernetes.io/os', operator: 'In', values: ['windows'] },
          { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['win-2022-1'] },
        ]),
      }),
    );
    c.store.create(
      'pods',
      windowsPod('exists', NS, { nodeSelector: undefined, affinity: affinity([{ key: 'node.kubernetes.io/windows-build', operator: 'Exists' }]) }),
    );
    c.store.create(
      'pods',
      linuxPod('dne', NS, {
        nodeSelector: undefined,
        affinity: affinity([
          { key: 'node.kubernetes.io/windows-build', operator: 'DoesNotExist' },
          { key: 'node-role.kubernetes.io/control-plane', operator: 'DoesNotExist' },
        ]),
      }),
    );
    expect(await boundNode(c, 'in')).to.equal('linux-2');
    expect(await boundNode(c, 'notin')).to.equal('win-2022-2');
    expect(nodeOS(c, await boundNode(c, 'exists'))).to.equal('windows');
    expect(await boundNode(c, 'dne')).to.match(/^linux-[12]$/);
  });

  it('prefers nodes matching preferred node affinity', async () => {
    c = await cluster();
    for (let i = 0; i < 3; i++) {
      c.store.create(
        'pods',
        windowsPod(`pref${i}`, NS, {
          affinity: {
            nodeAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 50, preference: { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['win-2022-2'] }] } },
              ],
            },
          },
        }),
      );
    }
    const nodes = await Promise.all([0, 1, 2].map(i => boundNode(c, `pref${i}`)));
    expect(nodes).to.deep.equal(['win-2022-2', 'win-2022-2', 'win-2022-2']);
  });

  it('fits resource requests against allocatable and reports Insufficient memory', async () => {
    c = await cluster();
    // Windows allocatable memory is 30Gi: one 20Gi pod fits per node, a third does not.
    const big = (name: string) => windowsPod(name, NS, { containers: [{ name: 'c', image: 'x', resources: { requests: { memory: '20Gi', cpu: '1' } } }] });
    c.store.create('pods', big('big-1'));
    c.store.create('pods', big('big-2'));
    const [a, b] = [await boundNode(c, 'big-1'), await boundNode(c, 'big-2')];
    expect(a).to.not.equal(b);
    c.store.create('pods', big('big-3'));
    const ev = await failedScheduling(c, 'big-3');
    // Reasons sort as strings, counts included, as kube-scheduler sorts them.
    expect(ev.message).to.match(
      /^0\/5 nodes are available: 1 node\(s\) had untolerated taint \{node-role.kubernetes.io\/control-plane: \}, 2 Insufficient memory, 2 node\(s\) didn't match/,
    );
    expect(ev.message).to.match(
      /preemption: 0\/5 nodes are available: 2 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling\.$/,
    );
    c.store.delete('pods', NS, 'big-1');
    expect(await boundNode(c, 'big-3')).to.equal(a);
  });

  it('merges a RuntimeClass scheduling into the pod at admission', async () => {
    c = await cluster();
    const pod = linuxPod('hyperv', NS, { nodeSelector: undefined, runtimeClassName: 'runhcs-wcow-hypervisor' });
    const created = c.store.create('pods', pod) as unknown as V1Pod;
    expect(created.spec!.nodeSelector).to.deep.equal({ 'kubernetes.io/os': 'windows' });
    expect(created.spec!.tolerations).to.deep.include({ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' });
    expect(nodeOS(c, await boundNode(c, 'hyperv'))).to.equal('windows');
    const perBuild = c.store.create('pods', linuxPod('ws2022', NS, { nodeSelector: undefined, runtimeClassName: 'windows-2022' })) as unknown as V1Pod;
    expect(perBuild.spec!.nodeSelector).to.include({ 'node.kubernetes.io/windows-build': '10.0.20348' });
    expect(() => c.store.create('pods', linuxPod('missing', NS, { runtimeClassName: 'nope' }))).to.throw(
      StoreError,
      'pods "missing" is forbidden: pod rejected: RuntimeClass "nope" not found',
    );
  });

  it('breaks: runtimeclass-scheduling leaves the pod unmerged', async () => {
    c = await cluster('default', ['runtimeclass-scheduling']);
    const created = c.store.create('pods', linuxPod('hyperv', NS, { nodeSelector: undefined, runtimeClassName: 'runhcs-wcow-hypervisor' })) as unknown as V1Pod;
    expect(created.spec!.nodeSelector).to.equal(undefined);
    expect(nodeOS(c, await boundNode(c, 'hyperv'))).to.equal('linux');
  });

  it('breaks: scheduler-os-selector and taint-enforcement let a Windows pod land on Linux / untolerated on Windows', async () => {
    c = await cluster('default', ['scheduler-os-selector']);
    for (let i = 0; i < 6; i++) c.store.create('pods', windowsPod(`w${i}`, NS));
    const nodes = await Promise.all([...Array(6).keys()].map(i => boundNode(c, `w${i}`)));
    expect(nodes.some(n => nodeOS(c, n) === 'linux')).to.equal(true);
    await c.stop();
    c = await cluster('default', ['taint-enforcement']);
    const pod = windowsPod('untolerated', NS);
    delete (pod.spec as V1Pod['spec'])!.tolerations;
    c.store.create('pods', pod);
    expect(nodeOS(c, await boundNode(c, 'untolerated'))).to.equal('windows');
  });

  it('skips cordoned and NotReady nodes', async () => {
    c = await cluster();
    c.store.mutate('nodes', undefined, 'win-2022-1', n => {
      (n.spec as { unschedulable?: boolean }).unschedulable = true;
    });
    c.store.mutate('nodes', undefined, 'win-2022-2', n => {
      for (const cond of (n.status as { conditions: { type: string; status: string }[] }).conditions) if (cond.type === 'Ready') cond.status = 'False';
    });
    c.store.create('pods', windowsPod('nowhere', NS));
    const ev = await failedScheduling(c, 'nowhere');
    expect(ev.message).to.include('1 node(s) were unschedulable');
    expect(ev.message).to.include('1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }');
  });

  it('evicts pods from a NotReady node after their tolerationSeconds, never those tolerating it for good', async () => {
    c = await cluster();
    const pin = { nodeSelector: { 'kubernetes.io/hostname': 'win-2022-1' } };
    const notReady = (extra: object) => ({ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', ...extra });
    const tolerations = (windowsPod('x', NS) as unknown as V1Pod).spec!.tolerations!;
    c.store.create('pods', windowsPod('plain', NS, pin));
    c.store.create('pods', windowsPod('patient', NS, { ...pin, tolerations: [...tolerations, notReady({ tolerationSeconds: 1 })] }));
    c.store.create('pods', windowsPod('forever', NS, { ...pin, tolerations: [...tolerations, notReady({})] }));
    await waitFor(c.store, 'all running', () => ['plain', 'patient', 'forever'].every(n => podOf(c, n)?.status?.phase === 'Running'));
    setNodeReady(c.store, c.profile, 'win-2022-1', false);
    await waitFor(c.store, 'plain evicted at once', () => !podOf(c, 'plain'));
    expect(podOf(c, 'patient')).to.not.equal(undefined);
    await waitFor(c.store, 'patient evicted after 1 s', () => !podOf(c, 'patient'), 8000);
    expect(podOf(c, 'forever')!.metadata!.deletionTimestamp).to.equal(undefined);
    const ev = c.store.list('events', { namespace: NS }).items.find(e => e.reason === 'TaintManagerEviction');
    expect(ev?.message).to.match(/^Marking for deletion Pod sched\/(plain|patient)$/);
  });
});
