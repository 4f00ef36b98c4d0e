// Pod lifecycle on the simulated kubelets: pull, Running/Ready, build matching,
// Hyper-V isolation, exit codes, crash loops, graceful deletion.

import { expect } from 'chai';
import type { KubeObject } from '../../../sim/api/store.ts';
import { podDir } from '../../../sim/runtime/volumes.ts';
import { waitFor } from '../../support/simApi.ts';
import {
  createPod,
  events,
  exec,
  getPod,
  isReady,
  LIN,
  NS,
  startFixture,
  testProfile,
  waitGone,
  waitingReason,
  waitPod,
  WIN,
  WIN19,
  type Fixture,
} from '../../support/runtime.ts';

describe('sim runtime: pod lifecycle', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await startFixture();
  });
  afterEach(async () => {
    await f.stop();
  });

  it('pulls with latency, then reports Running and Ready with a pod IP', async () => {
    const t0 = Date.now();
    createPod(f.store, WIN, 'iis', {
      containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022', ports: [{ containerPort: 80 }] }],
    });
    const p = await waitPod(f.store, 'iis', 'Ready', isReady);
    expect(Date.now() - t0).to.be.greaterThanOrEqual(150);
    expect(p.status?.phase).to.equal('Running');
    expect(p.status?.podIP).to.match(/^127\.77\.\d+\.\d+$/);
    expect(p.status?.hostIP).to.equal(f.net.nodeAddress(WIN));
    const cs = p.status!.containerStatuses![0];
    expect(cs.containerID).to.match(/^containerd:\/\/[0-9a-f]{64}$/);
    expect(cs.imageID).to.match(/@sha256:[0-9a-f]{64}$/);
    expect(cs.state?.running?.startedAt).to.be.a('string');
    const reasons = events(f.store, 'iis').map(e => e.reason);
    expect(reasons).to.include.members(['Pulling', 'Pulled', 'Created', 'Started']);
    const pulled = events(f.store, 'iis').find(e => e.reason === 'Pulled')!;
    expect(pulled.message).to.match(
      /^Successfully pulled image "mcr\.microsoft\.com\/windows\/servercore\/iis:windowsservercore-ltsc2022" in \d.*\(.* including waiting\)\. Image size: \d+ bytes\.$/,
    );
    // IIS really serves on the pod address.
    const sock = await f.net.connect({
      from: { kind: 'node', id: WIN, os: 'windows', address: f.net.nodeAddress(WIN) },
      host: p.status!.podIP!,
      port: 80,
      timeoutMs: 2000,
    });
    const reply = await new Promise<string>(r => {
      let s = '';
      sock.on('data', d => {
        s += d;
      });
      sock.on('end', () => r(s));
      sock.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    });
    expect(reply).to.match(/^HTTP\/1\.1 200/);
    expect(reply).to.include('IIS Windows Server');
  });

  it("fails an image of another Windows build with containerd's no-match message (ImagePullBackOff)", async () => {
    const image = 'mcr.microsoft.com/windows/servercore:ltsc2019';
    createPod(f.store, WIN, 'mismatch', { containers: [{ name: 'c', image, command: ['ping', '-t', 'localhost'] }] });
    const p = await waitPod(f.store, 'mismatch', 'in ImagePullBackOff', x => waitingReason(x) === 'ImagePullBackOff');
    expect(p.status?.phase).to.equal('Pending');
    const failed = events(f.store, 'mismatch')
      .filter(e => e.reason === 'Failed')
      .map(e => e.message);
    expect(failed).to.include(
      `Failed to pull image "${image}": rpc error: code = NotFound desc = failed to pull and unpack image "${image}": no match for platform in manifest: not found`,
    );
    expect(failed).to.include('Error: ErrImagePull');
    expect(failed).to.include('Error: ImagePullBackOff');
  });

  it("fails an unknown image with NotFound, and the seed's 1709 images on a 2022 node", async () => {
    createPod(f.store, WIN, 'nope', { containers: [{ name: 'c', image: 'example.invalid/nope:1' }] });
    createPod(f.store, WIN, 'seed-iis', { containers: [{ name: 'iis', image: 'microsoft/iis:windowsservercore-1709' }] });
    await waitPod(f.store, 'nope', 'ErrImagePull', x => ['ErrImagePull', 'ImagePullBackOff'].includes(waitingReason(x) ?? ''));
    const msg = events(f.store, 'nope').find(e => e.reason === 'Failed' && (e.message ?? '').startsWith('Failed to pull'))!.message;
    expect(msg).to.equal(
      'Failed to pull image "example.invalid/nope:1": rpc error: code = NotFound desc = failed to pull and unpack image "example.invalid/nope:1": failed to resolve reference "example.invalid/nope:1": example.invalid/nope:1: not found',
    );
    await waitPod(f.store, 'seed-iis', 'ErrImagePull', x => ['ErrImagePull', 'ImagePullBackOff'].includes(waitingReason(x) ?? ''));
    expect(events(f.store, 'seed-iis').find(e => e.reason === 'Failed' && (e.message ?? '').startsWith('Failed to pull'))!.message).to.include(
      'docker.io/microsoft/iis:windowsservercore-1709": no match for platform in manifest',
    );
  });

  it('runs the older image under the Hyper-V RuntimeClass, with a utility VM on the node', async () => {
    f.store.create('runtimeclasses.node.k8s.io', {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'runhcs-wcow-hypervisor' },
      handler: 'runhcs-wcow-hypervisor',
    } as KubeObject);
    createPod(f.store, WIN, 'hv', {
      runtimeClassName: 'runhcs-wcow-hypervisor',
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2019', command: ['ping', '-t', 'localhost'] }],
    });
    createPod(f.store, WIN, 'hpc', {
      hostNetwork: true,
      restartPolicy: 'Never',
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: ['ping', '-t', 'localhost'] }],
    });
    await waitPod(f.store, 'hv', 'Ready', isReady);
    await waitPod(f.store, 'hpc', 'Ready', isReady);
    const r = await exec(f.runtime, 'hpc', ['powershell', '-Command', 'Get-ComputeProcess']);
    expect(r.stdout).to.match(/VirtualMachine/);
    expect(r.stdout).to.include('containerd-shim-runhcs-v1.exe');
  });

  it('lets a lifted osBuildMismatch limitation run the older image under process isolation', async () => {
    await f.stop();
    f = await startFixture(testProfile({ limitations: { osBuildMismatch: false } }));
    createPod(f.store, WIN, 'lifted', {
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2019', command: ['ping', '-t', 'localhost'] }],
    });
    await waitPod(f.store, 'lifted', 'Ready', isReady);
  });

  it("runs the seeds' servercore pod without a command (kept running) on a 2019 node", async () => {
    createPod(f.store, WIN19, 'daemon', { containers: [{ name: 'foo', image: 'mcr.microsoft.com/windows/servercore:1809' }] });
    const p = await waitPod(f.store, 'daemon', 'Ready', isReady);
    expect(p.status?.phase).to.equal('Running');
  });

  it('reports exit codes: cmd /c exit 3 fails, powershell exit 0 succeeds', async () => {
    createPod(f.store, WIN, 'three', {
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: ['cmd', '/c', 'exit 3'] }],
    });
    createPod(f.store, WIN, 'zero', {
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: ['powershell', '-Command', 'Write-Output done; exit 0'] }],
    });
    const three = await waitPod(f.store, 'three', 'Failed', p => p.status?.phase === 'Failed');
    expect(three.status!.containerStatuses![0].state!.terminated).to.include({ exitCode: 3, reason: 'Error' });
    const zero = await waitPod(f.store, 'zero', 'Succeeded', p => p.status?.phase === 'Succeeded');
    expect(zero.status!.containerStatuses![0].state!.terminated).to.include({ exitCode: 0, reason: 'Completed' });
  });

  it('restarts a crashing container with growing back-off (CrashLoopBackOff, lastState, restartCount)', async () => {
    createPod(f.store, LIN, 'crash', {
      containers: [{ name: 'c', image: 'registry.k8s.io/e2e-test-images/busybox:1.36.1-1', command: ['sh', '-c', 'exit 2'] }],
    });
    const p = await waitPod(
      f.store,
      'crash',
      'restarted twice',
      x => (x.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2 && waitingReason(x) === 'CrashLoopBackOff',
    );
    const cs = p.status!.containerStatuses![0];
    expect(cs.lastState?.terminated).to.include({ exitCode: 2, reason: 'Error' });
    expect(cs.state?.waiting?.message).to.match(/^back-off \d+(\.\d+)?m?s restarting failed container=c pod=crash_rt\(/);
    expect(
      events(f.store, 'crash').some(
        e => e.reason === 'BackOff' && e.message === `Back-off restarting failed container c in pod crash_${NS}(${p.metadata!.uid})`,
      ),
    ).to.equal(true);
    expect(p.status?.phase).to.equal('Running');
  });

  it('deletes gracefully: Killing, IP released, pod removed', async () => {
    createPod(f.store, WIN, 'bye', {
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2022', command: ['powershell', '-Command', 'Start-Sleep 3600'] }],
    });
    await waitPod(f.store, 'bye', 'Ready', isReady);
    const gone = waitGone(f.store, 'bye');
    f.store.delete('pods', NS, 'bye');
    expect(getPod(f.store, 'bye')?.metadata?.deletionTimestamp).to.be.a('string');
    await gone;
    expect(events(f.store, 'bye').some(e => e.reason === 'Killing' && e.message === 'Stopping container c')).to.equal(true);
    expect(f.net.released).to.include(`${NS}/bye`);
  });

  describe('subPath handles (kubernetes#112630): leaked by kubelets before v1.37', () => {
    const mounts = (n: number) => Array.from({ length: n }, (_, i) => ({ name: 'data', mountPath: `C:\\sub${i}`, subPath: `s${i}` }));
    const pod = (name: string, subPaths: number) =>
      createPod(f.store, WIN, name, {
        containers: [{ name: 'c', image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: ['pause'], volumeMounts: mounts(subPaths) }],
        volumes: [{ name: 'data', emptyDir: {} }],
      });
    /** Deletes both; once the one-subPath pod is gone and the kubelet let go of the other, says whether the other is still in the API. */
    const deleteBoth = async (): Promise<boolean> => {
      pod('one', 1);
      pod('two', 2);
      await Promise.all(['one', 'two'].map(n => waitPod(f.store, n, 'Ready', isReady)));
      const gone = waitGone(f.store, 'one');
      for (const n of ['one', 'two']) f.store.delete('pods', NS, n);
      await gone;
      const kubelet = f.runtime.kubelet(WIN)!;
      await waitFor(() => (kubelet.pods().some(w => w.pod.metadata?.name === 'two') ? undefined : true));
      return getPod(f.store, 'two') !== undefined;
    };
    const restart = async (extra: Partial<ReturnType<typeof testProfile>>) => {
      await f.stop();
      f = await startFixture(testProfile(extra));
    };

    it('v1.33: the pod with two subPaths in one container stays Terminating, its directory on the node; one subPath terminates', async () => {
      expect(await deleteBoth()).to.equal(true);
      const left = getPod(f.store, 'two')!;
      expect(left.metadata?.deletionTimestamp).to.be.a('string');
      expect(f.runtime.kubelet(WIN)!.node.disk.exists(podDir('windows', left.metadata!.uid!))).to.equal(true);
      // Forced, it goes from the API (the handles stay leaked on the node).
      f.store.delete('pods', NS, 'two', { gracePeriodSeconds: 0 });
      expect(getPod(f.store, 'two')).to.equal(undefined);
    });

    it('v1.37 (the fix), or the limitation lifted: both pods terminate', async () => {
      await restart({ kubernetesVersion: 'v1.37.0' });
      expect(await deleteBoth()).to.equal(false);
      await restart({ limitations: { subPathHandleLeak: false } });
      expect(await deleteBoth()).to.equal(false);
    });

    it('breaks: subpath-handle-leak leaks on v1.37 too', async () => {
      await restart({ kubernetesVersion: 'v1.37.0', breaks: ['subpath-handle-leak'] });
      expect(await deleteBoth()).to.equal(true);
      f.store.delete('pods', NS, 'two', { gracePeriodSeconds: 0 });
    });
  });

  it('breaks: pod-ip shows every Windows pod of a node one shared endpoint in ipconfig; pod IPs and servers stay apart', async () => {
    await f.stop();
    f = await startFixture(testProfile({ breaks: ['pod-ip'] }));
    const agnhost = { name: 'c', image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: ['netexec', '--http-port=8080', '--udp-port=-1'] };
    for (const n of ['a', 'b']) createPod(f.store, WIN, n, { containers: [agnhost] });
    createPod(f.store, LIN, 'l', { containers: [agnhost] });
    const [a, b] = await Promise.all(['a', 'b'].map(n => waitPod(f.store, n, 'Ready', isReady)));
    // Both serve 8080: no EADDRINUSE crash loop, no restarts.
    expect(a.status?.podIP).to.not.equal(b.status?.podIP);
    expect([a, b].map(p => p.status?.containerStatuses?.[0]?.restartCount)).to.deep.equal([0, 0]);
    const shown = await Promise.all(
      ['a', 'b'].map(async n => /IPv4 Address[ .]*: (\S+)\(Preferred\)/.exec((await exec(f.runtime, n, ['cmd', '/c', 'ipconfig /all'])).stdout)?.[1]),
    );
    expect(shown[0]).to.equal(shown[1]);
    expect([a.status?.podIP, b.status?.podIP]).to.include(shown[0]);
    // Linux pods are not affected.
    const l = await waitPod(f.store, 'l', 'Ready', isReady);
    expect(l.status?.podIP).to.be.a('string');
  });

  it('stop() leaves no server listening', async () => {
    createPod(f.store, WIN, 'iis2', { containers: [{ name: 'iis', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }] });
    await waitPod(f.store, 'iis2', 'Ready', isReady);
    expect(f.net.listening()).to.equal(1);
    await f.runtime.stop();
    expect(f.net.listening()).to.equal(0);
  });
});
