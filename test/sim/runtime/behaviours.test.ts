// Probes, init containers, pull policies and mirrors, volume resync, subPath, and
// the profile's breaks that the runtime owns (each seen to break what it names).

import { expect } from 'chai';
import type { KubeObject } from '../../../sim/api/store.ts';
import type { BreakKey } from '../../../sim/profiles/types.ts';
import {
  createPod,
  events,
  exec,
  isReady,
  LIN,
  logs,
  NS,
  startFixture,
  testProfile,
  waitEvent,
  waitingReason,
  waitPod,
  WIN,
  type Fixture,
} from '../../support/runtime.ts';

const SERVERCORE = 'mcr.microsoft.com/windows/servercore:ltsc2022';
const IIS = 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022';
const AGNHOST = 'registry.k8s.io/e2e-test-images/agnhost:2.53';
const HPC = { hostNetwork: true, securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } } };
const forever = ['ping', '-t', 'localhost'];

describe('sim runtime: probes, init containers, pulls', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await startFixture();
  });
  afterEach(async () => {
    await f.stop();
  });

  it('gates Ready on an httpGet readiness probe and restarts on a failing exec liveness probe', async () => {
    createPod(f.store, WIN, 'probed', { containers: [{ name: 'iis', image: IIS, readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 1 } }] });
    await waitPod(f.store, 'probed', 'Ready', isReady);
    createPod(f.store, WIN, 'sick', {
      containers: [
        {
          name: 'c',
          image: SERVERCORE,
          command: forever,
          livenessProbe: { exec: { command: ['cmd', '/c', 'exit 1'] }, periodSeconds: 1, failureThreshold: 1 },
        },
      ],
    });
    const p = await waitPod(f.store, 'sick', 'restarted by liveness', x => (x.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1);
    expect(p.status!.containerStatuses![0].lastState?.terminated?.exitCode).to.equal(137);
    expect(events(f.store, 'sick').some(e => e.reason === 'Killing' && e.message === 'Container c failed liveness probe, will be restarted')).to.equal(true);
  });

  it('runs init containers in order before the app container', async function () {
    if (process.env.SIM_RUNTIME_STUB_SHELL) this.skip();
    createPod(f.store, LIN, 'inits', {
      volumes: [{ name: 'work', emptyDir: {} }],
      initContainers: [
        { name: 'one', image: AGNHOST, command: ['sh', '-c', 'echo one > /work/order'], volumeMounts: [{ name: 'work', mountPath: '/work' }] },
        { name: 'two', image: AGNHOST, command: ['sh', '-c', 'echo two >> /work/order'], volumeMounts: [{ name: 'work', mountPath: '/work' }] },
      ],
      containers: [{ name: 'app', image: AGNHOST, args: ['pause'], volumeMounts: [{ name: 'work', mountPath: '/work' }] }],
    });
    const p = await waitPod(f.store, 'inits', 'Ready', isReady);
    expect(p.status!.initContainerStatuses!.map(s => s.state?.terminated?.reason)).to.deep.equal(['Completed', 'Completed']);
    expect((await exec(f.runtime, 'inits', ['sh', '-c', 'cat /work/order'])).stdout).to.equal('one\ntwo\n');
  });

  it('honours imagePullPolicy Never and resolves registry mirrors to the same image', async () => {
    await f.stop();
    f = await startFixture(testProfile({ registryMirrors: ['mirror.example.com'] }));
    createPod(f.store, WIN, 'never', { containers: [{ name: 'c', image: SERVERCORE, imagePullPolicy: 'Never', command: forever }] });
    await waitPod(f.store, 'never', 'ErrImageNeverPull', x => waitingReason(x) === 'ErrImageNeverPull');
    createPod(f.store, WIN, 'mirrored', { containers: [{ name: 'c', image: `mirror.example.com/${SERVERCORE}`, command: forever }] });
    await waitPod(f.store, 'mirrored', 'Ready', isReady);
    createPod(f.store, WIN, 'cached', { containers: [{ name: 'c', image: SERVERCORE, command: forever }] });
    await waitPod(f.store, 'cached', 'Ready', isReady);
    expect(events(f.store, 'cached').some(e => e.reason === 'Pulled' && e.message === `Container image "${SERVERCORE}" already present on machine`)).to.equal(
      true,
    );
  });

  it('re-syncs secret volume files when the secret changes', async () => {
    f.store.create('secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: NS },
      data: { k: Buffer.from('one').toString('base64') },
    } as KubeObject);
    createPod(f.store, LIN, 'resync', {
      volumes: [{ name: 's', secret: { secretName: 's' } }],
      containers: [{ name: 'c', image: AGNHOST, args: ['pause'], volumeMounts: [{ name: 's', mountPath: '/s' }] }],
    });
    await waitPod(f.store, 'resync', 'Ready', isReady);
    expect((await exec(f.runtime, 'resync', ['sh', '-c', 'cat /s/k'])).stdout === 'one').to.equal(true);
    f.store.mutate('secrets', NS, 's', o => {
      (o as unknown as { data: Record<string, string> }).data = { k: Buffer.from('two').toString('base64') };
    });
    expect((await exec(f.runtime, 'resync', ['sh', '-c', 'cat /s/k'])).stdout === 'two').to.equal(true);
  });

  it('mounts the subPath of a volume on Windows as on Linux (the kubelet supports it on both)', async () => {
    f.store.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: NS }, data: { 'app.json': '{}' } } as KubeObject);
    const vol = [{ name: 'cm', configMap: { name: 'cm' } }];
    createPod(f.store, WIN, 'sub-w', {
      volumes: vol,
      containers: [{ name: 'c', image: SERVERCORE, command: forever, volumeMounts: [{ name: 'cm', mountPath: 'C:\\cfg.json', subPath: 'app.json' }] }],
    });
    await waitPod(f.store, 'sub-w', 'Ready', isReady);
    expect((await exec(f.runtime, 'sub-w', ['cmd', '/c', 'type C:\\cfg.json'])).stdout).to.equal('{}');
    createPod(f.store, LIN, 'sub-l', {
      volumes: vol,
      containers: [{ name: 'c', image: AGNHOST, args: ['pause'], volumeMounts: [{ name: 'cm', mountPath: '/etc/app.json', subPath: 'app.json' }] }],
    });
    await waitPod(f.store, 'sub-l', 'Ready', isReady);
    expect((await exec(f.runtime, 'sub-l', ['sh', '-c', 'cat /etc/app.json'])).stdout).to.equal('{}');
  });
});

describe('sim runtime: breaks', () => {
  let f: Fixture;
  const withBreaks = async (...breaks: BreakKey[]) => {
    f = await startFixture(testProfile({ breaks }));
  };
  afterEach(async () => {
    await f?.stop();
  });

  it('exec and logs: Windows exec fails, Windows logs are empty, Linux unaffected', async function () {
    if (process.env.SIM_RUNTIME_STUB_SHELL) this.skip();
    await withBreaks('exec', 'logs');
    createPod(f.store, WIN, 'w', {
      restartPolicy: 'Never',
      containers: [{ name: 'c', image: SERVERCORE, command: ['cmd', '/c', 'echo hi & ping -t localhost'] }],
    });
    await waitPod(f.store, 'w', 'Ready', isReady);
    const r = await exec(f.runtime, 'w', ['cmd', '/c', 'echo hi']);
    expect(r.error).to.match(/^Internal error occurred: error executing command in container/);
    expect(await logs(f.runtime, 'w')).to.equal('');
    createPod(f.store, LIN, 'l', { containers: [{ name: 'c', image: AGNHOST, args: ['pause'] }] });
    await waitPod(f.store, 'l', 'Ready', isReady);
    expect((await exec(f.runtime, 'l', ['sh', '-c', 'exit 4'])).exitCode).to.equal(4);
  });

  it('iis-serve, shared-netns, resource-limits', async () => {
    await withBreaks('iis-serve', 'shared-netns', 'resource-limits');
    createPod(f.store, WIN, 'iis', { containers: [{ name: 'iis', image: IIS }] });
    const iis = await waitPod(f.store, 'iis', 'Ready', isReady);
    const refused = await f.net
      .connect({ from: { kind: 'node', id: WIN, os: 'windows', address: f.net.nodeAddress(WIN) }, host: iis.status!.podIP!, port: 80, timeoutMs: 1000 })
      .then(
        () => 'connected',
        () => 'refused',
      );
    expect(refused).to.equal('refused');
    createPod(f.store, WIN, 'duo', {
      containers: [
        { name: 'server', image: AGNHOST, args: ['netexec', '--http-port=8080'] },
        { name: 'client', image: AGNHOST, args: ['pause'] },
      ],
    });
    await waitPod(f.store, 'duo', 'Ready', isReady);
    const r = await exec(f.runtime, 'duo', ['cmd', '/c', 'curl.exe -s http://localhost:8080/hostname --connect-timeout 2 --fail'], 'client');
    expect(r.exitCode).to.not.equal(0);
    createPod(f.store, WIN, 'limited', {
      containers: [{ name: 'c', image: SERVERCORE, command: forever, resources: { limits: { cpu: '2', memory: '128Mi' } } }],
    });
    await waitPod(f.store, 'limited', 'CreateContainerError', x => waitingReason(x) === 'CreateContainerError');
  });

  it('secret-env hands over wrong values; secret-volume leaves the files out', async () => {
    await withBreaks('secret-env', 'secret-volume');
    f.store.create('secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's', namespace: NS },
      data: { k: Buffer.from('v4lue').toString('base64') },
    } as KubeObject);
    createPod(f.store, WIN, 'sec', {
      volumes: [{ name: 's', secret: { secretName: 's' } }],
      containers: [
        {
          name: 'c',
          image: SERVERCORE,
          command: forever,
          env: [{ name: 'K', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
          volumeMounts: [{ name: 's', mountPath: 'C:\\s' }],
        },
      ],
    });
    await waitPod(f.store, 'sec', 'Ready', isReady);
    expect((await exec(f.runtime, 'sec', ['cmd', '/c', 'echo %K%'])).stdout.trim() === 'v4lue').to.equal(false);
    expect((await exec(f.runtime, 'sec', ['cmd', '/c', 'type C:\\s\\k'])).exitCode).to.not.equal(0);
  });

  it('configmap-env, configmap-volume, emptydir, hostpath', async () => {
    await withBreaks('configmap-env', 'configmap-volume', 'emptydir', 'hostpath');
    f.store.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: NS }, data: { a: 'b' } } as KubeObject);
    const mounts = [
      { name: 'cm', mountPath: 'C:\\cm' },
      { name: 'e', mountPath: 'C:\\e' },
      { name: 'h', mountPath: 'C:\\h', readOnly: true },
    ];
    createPod(f.store, WIN, 'p', {
      volumes: [
        { name: 'cm', configMap: { name: 'cm' } },
        { name: 'e', emptyDir: {} },
        { name: 'h', hostPath: { path: 'C:\\h' } },
      ],
      containers: ['x', 'y'].map(name => ({
        name,
        image: SERVERCORE,
        command: forever,
        volumeMounts: mounts,
        env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'cm', key: 'a' } } }],
      })),
    });
    await waitPod(f.store, 'p', 'Ready', isReady);
    expect((await exec(f.runtime, 'p', ['cmd', '/c', 'echo %A%'], 'x')).stdout.trim()).to.equal('%A%');
    expect((await exec(f.runtime, 'p', ['cmd', '/c', 'type C:\\cm\\a'], 'x')).exitCode).to.not.equal(0);
    expect((await exec(f.runtime, 'p', ['cmd', '/c', 'echo shared > C:\\e\\f'], 'x')).exitCode).to.equal(0);
    expect((await exec(f.runtime, 'p', ['cmd', '/c', 'type C:\\e\\f'], 'y')).exitCode).to.not.equal(0);
    expect((await exec(f.runtime, 'p', ['cmd', '/c', 'echo w > C:\\h\\f'], 'x')).exitCode).to.equal(0);
  });

  it('subpath mounts the whole volume; emptydir-memory refuses the mount', async () => {
    await withBreaks('subpath', 'emptydir-memory');
    createPod(f.store, WIN, 's', {
      volumes: [{ name: 'd', emptyDir: {} }],
      containers: [
        {
          name: 'c',
          image: SERVERCORE,
          command: forever,
          volumeMounts: [
            { name: 'd', mountPath: 'C:\\data' },
            { name: 'd', mountPath: 'C:\\sub', subPath: 'sub' },
          ],
        },
      ],
    });
    await waitPod(f.store, 's', 'Ready', isReady);
    expect((await exec(f.runtime, 's', ['cmd', '/c', 'echo x > C:\\sub\\f'])).exitCode).to.equal(0);
    expect((await exec(f.runtime, 's', ['cmd', '/c', 'type C:\\data\\f'])).exitCode).to.equal(0);
    createPod(f.store, WIN, 'm', {
      volumes: [{ name: 'mem', emptyDir: { medium: 'Memory' } }],
      containers: [{ name: 'c', image: SERVERCORE, command: forever, volumeMounts: [{ name: 'mem', mountPath: 'C:\\mem' }] }],
    });
    await waitEvent(f.store, 'm', e => e.reason === 'FailedMount');
  });

  it('node-services, hns-network, hyperv-runtimeclass as seen from a HostProcess pod', async () => {
    await withBreaks('node-services', 'hns-network', 'hyperv-runtimeclass');
    f.store.create('runtimeclasses.node.k8s.io', {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'hv' },
      handler: 'runhcs-wcow-hypervisor',
    } as KubeObject);
    createPod(f.store, WIN, 'hv', { runtimeClassName: 'hv', containers: [{ name: 'c', image: SERVERCORE, command: forever }] });
    createPod(f.store, WIN, 'hpc', {
      ...HPC,
      containers: [{ name: 'c', image: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0', command: forever }],
    });
    await waitPod(f.store, 'hv', 'Ready', isReady);
    await waitPod(f.store, 'hpc', 'Ready', isReady);
    const w = f.runtime.kubelet(WIN).node;
    expect(w.services().find(s => s.name === 'kubelet')?.status).to.equal('Stopped');
    expect(w.hnsNetworks()).to.deep.equal([]);
    expect(w.computeProcesses().filter(p => p.type === 'VirtualMachine')).to.deep.equal([]);
  });

  it('hostprocess: the pod runs as an ordinary container, not SYSTEM', async () => {
    await withBreaks('hostprocess');
    createPod(f.store, WIN, 'hpc', { ...HPC, containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: forever }] });
    await waitPod(f.store, 'hpc', 'Ready', isReady);
    const r = await exec(f.runtime, 'hpc', ['cmd', '/c', 'echo %USERNAME%']);
    expect(r.stdout.trim()).to.equal('ContainerUser');
  });

  it('pause-image and process-isolation keep Windows pods from running', async () => {
    await withBreaks('pause-image');
    createPod(f.store, WIN, 'nopause', { containers: [{ name: 'c', image: SERVERCORE, command: forever }] });
    const ev = await waitEvent(f.store, 'nopause', e => e.reason === 'FailedCreatePodSandBox');
    expect(ev.message).to.match(
      /^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox image "registry\.k8s\.io\/pause:3\.10": .*no match for platform in manifest: not found$/,
    );
    await f.stop();
    await withBreaks('process-isolation');
    createPod(f.store, WIN, 'iso', { containers: [{ name: 'c', image: SERVERCORE, command: forever }] });
    await waitPod(f.store, 'iso', 'ImagePullBackOff', x => waitingReason(x) === 'ImagePullBackOff');
  });
});
