// Env and volumes: secrets and configmaps as env and files, the plaintext copy of
// secret volumes on a Windows node's disk, emptyDir sharing, hostPath readOnly.
// Secret values are compared, never printed.

import { expect } from 'chai';
import type { KubeObject } from '../../../sim/api/store.ts';
import {
  createPod,
  events,
  exec,
  isReady,
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
const USERNAME = 'admin';
const PASSWORD = '1f2d1e2e67df';

function sameSecret(actual: string, expected: string, what: string): void {
  // A boolean assertion: a mismatch reports the name, never the values.
  expect(actual.trim() === expected, `${what} does not match the secret`).to.equal(true);
}

describe('sim runtime: env and volumes', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await startFixture();
    f.store.create('secrets', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'mysecret', namespace: NS },
      type: 'Opaque',
      data: { username: Buffer.from(USERNAME).toString('base64'), password: Buffer.from(PASSWORD).toString('base64') },
    } as KubeObject);
    f.store.create('configmaps', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'example-config', namespace: NS },
      data: { 'example.property.1': 'hello', 'example.property.2': 'world' },
    } as KubeObject);
  });
  afterEach(async () => {
    await f.stop();
  });

  it("puts secret keys into env (the seed's secret-pod)", async () => {
    createPod(f.store, WIN, 'my-secret-pod', {
      containers: [
        {
          name: 'my-secret-pod',
          image: SERVERCORE,
          env: [
            { name: 'USERNAME', valueFrom: { secretKeyRef: { name: 'mysecret', key: 'username' } } },
            { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'mysecret', key: 'password' } } },
          ],
        },
      ],
    });
    await waitPod(f.store, 'my-secret-pod', 'Ready', isReady);
    const u = await exec(f.runtime, 'my-secret-pod', ['cmd', '/c', 'echo %USERNAME%']);
    const p = await exec(f.runtime, 'my-secret-pod', ['cmd', '/c', 'echo %PASSWORD%']);
    expect(u.exitCode).to.equal(0);
    sameSecret(u.stdout, USERNAME, 'USERNAME');
    sameSecret(p.stdout, PASSWORD, 'PASSWORD');
    expect(p.stdout.endsWith('\r\n')).to.equal(true);
  });

  it('puts configmap keys into env and expands $(VAR) in the command', async () => {
    createPod(f.store, WIN, 'configmap-pod', {
      restartPolicy: 'Never',
      containers: [
        {
          name: 'c',
          image: SERVERCORE,
          command: ['cmd', '/c', 'echo $(EXAMPLE_PROPERTY_1) %EXAMPLE_PROPERTY_2%'],
          env: [
            { name: 'EXAMPLE_PROPERTY_1', valueFrom: { configMapKeyRef: { name: 'example-config', key: 'example.property.1' } } },
            { name: 'EXAMPLE_PROPERTY_2', valueFrom: { configMapKeyRef: { name: 'example-config', key: 'example.property.2' } } },
          ],
        },
      ],
    });
    await waitPod(f.store, 'configmap-pod', 'Succeeded', p => p.status?.phase === 'Succeeded');
    expect(await logs(f.runtime, 'configmap-pod')).to.equal('hello world\r\n');
  });

  it("fails a missing key with CreateContainerConfigError and the kubelet's message", async () => {
    createPod(f.store, WIN, 'badkey', {
      containers: [{ name: 'c', image: SERVERCORE, env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'mysecret', key: 'nokey' } } }] }],
    });
    const p = await waitPod(f.store, 'badkey', 'CreateContainerConfigError', x => waitingReason(x) === 'CreateContainerConfigError');
    expect(p.status!.containerStatuses![0].state!.waiting!.message).to.equal(`couldn't find key nokey in Secret ${NS}/mysecret`);
    expect(events(f.store, 'badkey').some(e => e.message === `Error: couldn't find key nokey in Secret ${NS}/mysecret`)).to.equal(true);
  });

  it("mounts a secret volume with files per key, and leaves a plaintext copy on the Windows node's disk", async () => {
    const pod = createPod(f.store, WIN, 'secret-vol', {
      volumes: [{ name: 'sec', secret: { secretName: 'mysecret' } }],
      containers: [{ name: 'c', image: SERVERCORE, volumeMounts: [{ name: 'sec', mountPath: 'C:\\etc\\secret' }] }],
    });
    createPod(f.store, WIN, 'hpc', {
      hostNetwork: true,
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/nanoserver:ltsc2022', command: ['ping', '-t', 'localhost'] }],
    });
    await waitPod(f.store, 'secret-vol', 'Ready', isReady);
    await waitPod(f.store, 'hpc', 'Ready', isReady);
    const inPod = await exec(f.runtime, 'secret-vol', ['cmd', '/c', 'type C:\\etc\\secret\\password']);
    expect(inPod.exitCode).to.equal(0);
    sameSecret(inPod.stdout, PASSWORD, 'secret file');
    const onDisk = await exec(f.runtime, 'hpc', [
      'cmd',
      '/c',
      `type C:\\var\\lib\\kubelet\\pods\\${pod.metadata!.uid}\\volumes\\kubernetes.io~secret\\sec\\password`,
    ]);
    expect(onDisk.exitCode).to.equal(0);
    sameSecret(onDisk.stdout, PASSWORD, 'node-disk copy');
    const write = await exec(f.runtime, 'secret-vol', ['cmd', '/c', 'echo x > C:\\etc\\secret\\new.txt']);
    expect(write.stderr.trim()).to.equal('Access is denied.');
  });

  it("shares emptyDirs between containers at /cache and C:/scratch (the seed's emptydir pod)", async () => {
    const mounts = [
      { name: 'cache-volume', mountPath: '/cache' },
      { name: 'scratch-volume', mountPath: 'C:/scratch' },
    ];
    createPod(f.store, WIN, 'my-empty-dir-pod', {
      volumes: [
        { name: 'cache-volume', emptyDir: {} },
        { name: 'scratch-volume', emptyDir: {} },
      ],
      containers: [
        { name: 'a', image: SERVERCORE, volumeMounts: mounts },
        { name: 'b', image: SERVERCORE, volumeMounts: mounts },
      ],
    });
    await waitPod(f.store, 'my-empty-dir-pod', 'Ready', isReady);
    expect((await exec(f.runtime, 'my-empty-dir-pod', ['cmd', '/c', 'echo shared > C:\\cache\\f.txt'], 'a')).exitCode).to.equal(0);
    expect((await exec(f.runtime, 'my-empty-dir-pod', ['cmd', '/c', 'echo scratch > C:\\scratch\\g.txt'], 'a')).exitCode).to.equal(0);
    expect((await exec(f.runtime, 'my-empty-dir-pod', ['cmd', '/c', 'type C:\\cache\\f.txt'], 'b')).stdout.trim()).to.equal('shared');
    expect((await exec(f.runtime, 'my-empty-dir-pod', ['cmd', '/c', 'type c:/SCRATCH/g.txt'], 'b')).stdout.trim()).to.equal('scratch');
  });

  it('honours readOnly on hostPath ("Access is denied.") and treats C:\\etc\\foo and C:/etc/foo as one path', async () => {
    createPod(f.store, WIN, 'writer', {
      volumes: [{ name: 'foo', hostPath: { path: 'C:/etc/foo', type: 'DirectoryOrCreate' } }],
      containers: [{ name: 'c', image: SERVERCORE, volumeMounts: [{ name: 'foo', mountPath: 'C:/data' }] }],
    });
    await waitPod(f.store, 'writer', 'Ready', isReady);
    expect((await exec(f.runtime, 'writer', ['cmd', '/c', 'echo from-node > C:\\data\\hello.txt'])).exitCode).to.equal(0);
    createPod(f.store, WIN, 'hostpath-volume-pod', {
      volumes: [{ name: 'foo', hostPath: { path: 'C:\\etc\\foo' } }],
      containers: [{ name: 'my-hostpath-volume-pod', image: SERVERCORE, volumeMounts: [{ name: 'foo', mountPath: 'C:\\etc\\foo', readOnly: true }] }],
    });
    await waitPod(f.store, 'hostpath-volume-pod', 'Ready', isReady);
    const read = await exec(f.runtime, 'hostpath-volume-pod', ['cmd', '/c', 'type C:\\etc\\foo\\hello.txt']);
    expect(read.stdout.trim()).to.equal('from-node');
    const w = await exec(f.runtime, 'hostpath-volume-pod', ['cmd', '/c', 'echo windows-volume-test > C:\\etc\\foo\\test-file.txt']);
    expect(w.stderr.trim()).to.equal('Access is denied.');
  });

  it('honours readOnly on an emptyDir mount beside a read-write one (upstream volumes.go); breaks: emptydir-readonly drops it', async () => {
    const pod = (name: string) =>
      createPod(f.store, WIN, name, {
        volumes: [{ name: 'test-volume', emptyDir: {} }],
        containers: [
          { name: 'ro', image: SERVERCORE, volumeMounts: [{ name: 'test-volume', mountPath: 'C:\\test-volume', readOnly: true }] },
          { name: 'rw', image: SERVERCORE, volumeMounts: [{ name: 'test-volume', mountPath: 'C:\\test-volume' }] },
        ],
      });
    const write = (name: string, c: string) => exec(f.runtime, name, ['cmd', '/c', 'echo windows-volume-test', '>', `C:\\test-volume\\${c}.txt`], c);
    pod('rovol');
    await waitPod(f.store, 'rovol', 'Ready', isReady);
    expect((await write('rovol', 'rw')).exitCode).to.equal(0);
    expect((await write('rovol', 'ro')).stderr.trim()).to.equal('Access is denied.');
    expect((await exec(f.runtime, 'rovol', ['cmd', '/c', 'type', 'C:\\test-volume\\rw.txt'], 'ro')).stdout.trim()).to.equal('windows-volume-test');
    await f.stop();
    f = await startFixture(testProfile({ breaks: ['emptydir-readonly'] }));
    pod('rovol');
    await waitPod(f.store, 'rovol', 'Ready', isReady);
    const w = await write('rovol', 'ro');
    expect(w.stderr.trim()).to.equal('');
    expect((await exec(f.runtime, 'rovol', ['cmd', '/c', 'type', 'C:\\test-volume\\ro.txt'], 'rw')).stdout.trim()).to.equal('windows-volume-test');
  });

  // The Windows mounter makes a plain directory for medium Memory: the pod starts, the volume is on
  // disk (its size is the limitation, read by stor.emptydir-memory from the kubelet stats).
  it('mounts emptyDir medium Memory on Windows as a directory: the pod starts, no FailedMount', async () => {
    createPod(f.store, WIN, 'mem', {
      volumes: [{ name: 'm', emptyDir: { medium: 'Memory' } }],
      containers: [{ name: 'c', image: SERVERCORE, volumeMounts: [{ name: 'm', mountPath: 'C:\\m' }] }],
    });
    const ev = await waitEvent(f.store, 'mem', e => e.reason === 'Started' || e.reason === 'FailedMount');
    expect(ev.reason, ev.message).to.equal('Started');
    const w = await exec(f.runtime, 'mem', ['cmd', '/c', 'echo x > C:\\m\\f.txt && type C:\\m\\f.txt']);
    expect(w.stdout.trim()).to.equal('x');
  });
});
