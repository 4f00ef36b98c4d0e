// exec, logs, port-forward, HostProcess node views, shared localhost, stats and metrics.

import { expect } from 'chai';
import type { V1Pod } from '@kubernetes/client-node';
import { createPod, exec, isReady, LIN, logs, NS, startFixture, testProfile, waitEvent, waitPod, WIN, type Fixture } from '../../support/runtime.ts';

const SERVERCORE = 'mcr.microsoft.com/windows/servercore:ltsc2022';
const AGNHOST = 'registry.k8s.io/e2e-test-images/agnhost:2.53';

interface Summary {
  pods: { podRef: { name: string }; containers: { name: string; cpu: { usageNanoCores: number }; memory: { workingSetBytes: number } }[] }[];
  node: { nodeName: string; cpu: { usageNanoCores: number } };
}

async function summary(f: Fixture, node: string): Promise<Summary> {
  const r = await f.runtime.handlers.nodeProxy(node, 'stats/summary');
  expect(r.status).to.equal(200);
  return JSON.parse(String(r.body)) as Summary;
}

describe('sim runtime: exec, logs, node views, stats', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await startFixture();
  });
  afterEach(async () => {
    await f.stop();
  });

  it('returns exec exit codes and CRLF output from cmd', async () => {
    createPod(f.store, WIN, 'w', { containers: [{ name: 'c', image: SERVERCORE, command: ['ping', '-t', 'localhost'] }] });
    await waitPod(f.store, 'w', 'Ready', isReady);
    const ok = await exec(f.runtime, 'w', ['cmd', '/c', 'echo hello']);
    expect(ok).to.include({ exitCode: 0, stdout: 'hello\r\n' });
    expect((await exec(f.runtime, 'w', ['cmd', '/c', 'exit 7'])).exitCode).to.equal(7);
    const who = await exec(f.runtime, 'w', ['cmd', '/c', 'echo %USERNAME% %COMPUTERNAME%']);
    expect(who.stdout).to.equal('ContainerAdministrator W\r\n');
  });

  it('runs as ContainerUser when runAsUserName says so, and fails an invalid user at the sandbox', async () => {
    createPod(f.store, WIN, 'user', {
      securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } },
      containers: [{ name: 'c', image: SERVERCORE, command: ['ping', '-t', 'localhost'] }],
    });
    await waitPod(f.store, 'user', 'Ready', isReady);
    expect((await exec(f.runtime, 'user', ['cmd', '/S', '/C', 'echo %username%'])).stdout.trim()).to.equal('ContainerUser');
    createPod(f.store, WIN, 'baduser', { securityContext: { windowsOptions: { runAsUserName: 'Nobody' } }, containers: [{ name: 'c', image: SERVERCORE }] });
    const ev = await waitEvent(f.store, 'baduser', e => e.reason === 'FailedCreatePodSandBox');
    expect(ev.message).to.include('The user name or password is incorrect.');
  });

  it('streams logs, follows until the container stops, and keeps the previous instance', async function () {
    if (process.env.SIM_RUNTIME_STUB_SHELL) this.skip();
    createPod(f.store, WIN, 'talk', { containers: [{ name: 'c', image: SERVERCORE, command: ['cmd', '/c', 'echo first & echo second & exit 1'] }] });
    await waitPod(f.store, 'talk', 'restarted', p => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1);
    expect(await logs(f.runtime, 'talk', { previous: true })).to.equal('first \r\nsecond \r\n');
    expect(await logs(f.runtime, 'talk', { previous: true, tailLines: 1 })).to.equal('second \r\n');
    createPod(f.store, LIN, 'agn', { containers: [{ name: 'c', image: AGNHOST, args: ['pause'] }] });
    await waitPod(f.store, 'agn', 'Ready', isReady);
    const ac = new AbortController();
    const followed = logs(f.runtime, 'agn', { follow: true }, ac.signal);
    setTimeout(() => ac.abort(), 300);
    expect(await followed).to.equal('Paused\n');
  });

  it('runs a HostProcess pod as SYSTEM on the host, seeing node services', async () => {
    createPod(f.store, WIN, 'hpc', {
      hostNetwork: true,
      restartPolicy: 'Never',
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: ['ping', '-t', 'localhost'] }],
    });
    const p = await waitPod(f.store, 'hpc', 'Ready', isReady);
    expect(p.status?.podIP).to.equal(f.net.nodeAddress(WIN));
    expect((await exec(f.runtime, 'hpc', ['whoami'])).stdout.trim().toLowerCase()).to.equal('nt authority\\system');
    const svc = await exec(f.runtime, 'hpc', ['powershell', '-Command', 'Get-Service kubelet']);
    expect(svc.exitCode).to.equal(0);
    expect(svc.stdout).to.match(/Running\s+kubelet/);
  });

  it('shares localhost between the containers of a pod', async function () {
    if (process.env.SIM_RUNTIME_STUB_SHELL) this.skip();
    createPod(f.store, WIN, 'duo', {
      containers: [
        { name: 'server', image: AGNHOST, args: ['netexec', '--http-port=8080'] },
        { name: 'client', image: AGNHOST, args: ['pause'] },
      ],
    });
    await waitPod(f.store, 'duo', 'Ready', isReady);
    const r = await exec(f.runtime, 'duo', ['cmd', '/c', 'curl.exe -s http://localhost:8080/hostname --connect-timeout 5 --fail'], 'client');
    expect(r).to.include({ exitCode: 0, stdout: 'duo' });
  });

  it("port-forwards to a pod's port", async () => {
    createPod(f.store, WIN, 'iis', { containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }] });
    await waitPod(f.store, 'iis', 'Ready', isReady);
    const s = await f.runtime.handlers.portForward({ namespace: NS, pod: 'iis', port: 80 }, AbortSignal.timeout(5000));
    const reply = await new Promise<string>(r => {
      let t = '';
      s.on('data', (d: Buffer) => {
        t += d.toString();
      });
      s.on('end', () => r(t));
      s.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    });
    expect(reply).to.match(/^HTTP\/1\.1 200/);
  });

  it('accounts a CPU burner in /stats/summary, capped at the limit; metrics.k8s.io has the pod', async () => {
    createPod(f.store, WIN, 'burn', {
      containers: [
        { name: 'c', image: SERVERCORE, command: ['powershell', '-Command', 'while ($true) {}'], resources: { limits: { cpu: '500m', memory: '128Mi' } } },
      ],
    });
    await waitPod(f.store, 'burn', 'Ready', isReady);
    const s = await summary(f, WIN);
    const c = s.pods.find(p => p.podRef.name === 'burn')!.containers[0];
    expect(c.cpu.usageNanoCores).to.be.within(400e6, 500e6);
    expect(c.memory.workingSetBytes).to.be.greaterThan(0);
    const pm = (await f.runtime.handlers.podMetrics!(NS)) as { metadata: { name: string }; containers: { usage: { cpu: string } }[] }[];
    expect(pm.find(m => m.metadata.name === 'burn')?.containers[0].usage.cpu).to.match(/^\d+n$/);
    const nm = (await f.runtime.handlers.nodeMetrics!()) as { metadata: { name: string } }[];
    expect(nm.map(n => n.metadata.name)).to.include(WIN);
  });

  it('drops Windows pods from stats under breaks: stats', async () => {
    await f.stop();
    f = await startFixture(testProfile({ breaks: ['stats'] }));
    createPod(f.store, WIN, 'quiet', { containers: [{ name: 'c', image: SERVERCORE, command: ['ping', '-t', 'localhost'] }] });
    await waitPod(f.store, 'quiet', 'Ready', isReady);
    expect((await summary(f, WIN)).pods).to.have.length(0);
  });

  it('OOM-kills a Linux container over its memory limit; a Windows one pages instead', async () => {
    createPod(f.store, LIN, 'oom', {
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: AGNHOST, args: ['pause'], resources: { limits: { memory: '64Mi' } } }],
    });
    createPod(f.store, WIN, 'page', {
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: SERVERCORE, command: ['ping', '-t', 'localhost'], resources: { limits: { memory: '128Mi' } } }],
    });
    await waitPod(f.store, 'oom', 'Ready', isReady);
    await waitPod(f.store, 'page', 'Ready', isReady);
    const hostOf = (pod: string) => {
      // The interpreter reaches allocateMemory through host.resources; here it is called directly.
      const w = f.runtime
        .kubelet(pod === 'oom' ? LIN : WIN)
        .pods()
        .find(x => x.pod.metadata!.name === pod)!;
      return w.containers[0].host!;
    };
    expect(hostOf('page').resources!.allocateMemory(512 * 2 ** 20)).to.deep.equal({ ok: true, oomKilled: false });
    expect(hostOf('oom').resources!.allocateMemory(512 * 2 ** 20)).to.deep.equal({ ok: false, oomKilled: true });
    const p: V1Pod = await waitPod(f.store, 'oom', 'Failed', x => x.status?.phase === 'Failed');
    expect(p.status!.containerStatuses![0].state!.terminated).to.include({ reason: 'OOMKilled', exitCode: 137 });
    const s = await summary(f, WIN);
    expect(s.pods.find(x => x.podRef.name === 'page')!.containers[0].memory.workingSetBytes).to.be.at.most(128 * 2 ** 20);
  });
});
