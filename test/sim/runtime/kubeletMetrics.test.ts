// The kubelet's /metrics start counters and hcsshim's logon of HostProcess users: upstream
// host_process.go "metrics should report count of started and failed to start HostProcess
// containers" (a container-level runAsUserName bad-user-name fails the start and counts as an error).

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { createPod, events, startFixture, testProfile, waitPod, WIN, LIN, type Fixture } from '../../support/runtime.ts';
import { parsePrometheusText } from '../../../lib/probes/readers/prometheus.ts';

const HPC_IMAGE = 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0';
const HPC = { hostNetwork: true, restartPolicy: 'Never', securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } };
const bad = { windowsOptions: { runAsUserName: 'bad-user-name' } };
const ok = ['cmd.exe', '/c', 'exit', '/b', '0'];
const finished = (p: V1Pod) => p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed';

async function metrics(f: Fixture, node: string) {
  const r = await f.runtime.handlers.nodeProxy(node, 'metrics');
  expect(r.status).to.equal(200);
  return parsePrometheusText(String(r.body));
}
const count = (m: Map<string, { labels: Record<string, string>; value: number }[]>, family: string, type: string) =>
  (m.get(family) ?? []).filter(s => s.labels.container_type === type).reduce((a, s) => a + s.value, 0);

describe('sim runtime: kubelet start counters (/metrics) and HostProcess logon', () => {
  let f: Fixture;
  afterEach(async () => {
    await f?.stop();
  });

  it('counts HostProcess starts and failed starts; an unknown user fails the start with the logon error', async () => {
    f = await startFixture();
    createPod(f.store, WIN, 'good', {
      ...HPC,
      initContainers: [{ name: 'init', image: HPC_IMAGE, command: ok }],
      containers: [{ name: 'main', image: HPC_IMAGE, command: ok }],
    });
    createPod(f.store, WIN, 'bad-init', {
      ...HPC,
      initContainers: [{ name: 'init', image: HPC_IMAGE, command: ['foobar.exe'], securityContext: bad }],
      containers: [{ name: 'main', image: HPC_IMAGE, command: ok }],
    });
    createPod(f.store, WIN, 'bad-main', { ...HPC, containers: [{ name: 'main', image: HPC_IMAGE, command: ['foobar.exe'], securityContext: bad }] });
    createPod(f.store, WIN, 'domain-user', {
      ...HPC,
      containers: [{ name: 'main', image: HPC_IMAGE, command: ok, securityContext: { windowsOptions: { runAsUserName: 'NT AUTHORITY\\Nobody' } } }],
    });
    expect((await waitPod(f.store, 'good', 'finished', finished)).status?.phase).to.equal('Succeeded');
    const badInit = await waitPod(f.store, 'bad-init', 'finished', finished);
    const badMain = await waitPod(f.store, 'bad-main', 'finished', finished);
    expect((await waitPod(f.store, 'domain-user', 'finished', finished)).status?.phase).to.equal('Failed');
    expect(badInit.status?.phase).to.equal('Failed');
    expect(badInit.status?.initContainerStatuses?.[0]?.state?.terminated?.reason).to.equal('StartError');
    expect(badMain.status?.containerStatuses?.[0]?.state?.terminated?.reason).to.equal('StartError');
    const failed = events(f.store, 'bad-main').find(e => e.reason === 'Failed');
    expect(failed?.message).to.equal(
      'Error: failed to start containerd task "main": failed to create user process token: failed to logon user: The user name or password is incorrect.: unknown',
    );
    const m = await metrics(f, WIN);
    // good: init + main; bad-init: init; bad-main: main; domain-user: main.
    expect(count(m, 'kubelet_started_host_process_containers_total', 'init_container')).to.equal(2);
    expect(count(m, 'kubelet_started_host_process_containers_total', 'container')).to.equal(3);
    expect(count(m, 'kubelet_started_host_process_containers_errors_total', 'init_container')).to.equal(1);
    expect(count(m, 'kubelet_started_host_process_containers_errors_total', 'container')).to.equal(2);
    expect((m.get('kubelet_started_host_process_containers_errors_total') ?? []).map(s => s.labels.code)).to.deep.equal([
      'RunContainerError',
      'RunContainerError',
    ]);
    expect(count(m, 'kubelet_started_containers_total', 'container')).to.equal(3);
    expect(m.get('kubelet_node_name')?.[0]?.labels.node).to.equal(WIN);
    // A Linux kubelet registers no HostProcess families.
    const lin = await metrics(f, LIN);
    expect([...lin.keys()].some(k => k.includes('host_process'))).to.equal(false);
  });

  it('breaks: hostprocess-metrics counts HostProcess containers as ordinary ones only', async () => {
    f = await startFixture(testProfile({ breaks: ['hostprocess-metrics'] }));
    createPod(f.store, WIN, 'good', { ...HPC, containers: [{ name: 'main', image: HPC_IMAGE, command: ok }] });
    await waitPod(f.store, 'good', 'finished', finished);
    const m = await metrics(f, WIN);
    expect(count(m, 'kubelet_started_containers_total', 'container')).to.equal(1);
    expect(m.has('kubelet_started_host_process_containers_total')).to.equal(false);
  });
});
