// The documented Windows storage limitations as the kubelet shows them, each next to the
// Linux (or lifted) behaviour: Secret defaultMode (busybox ls), the pod directory with an
// in-memory secret, raw block claims, mount propagation (junctions), and expanding a
// mounted claim.

import { expect } from 'chai';
import type { V1PersistentVolumeClaim } from '@kubernetes/client-node';
import type { KubeObject } from '../../../sim/api/store.ts';
import type { Limitations } from '../../../sim/profiles/types.ts';
import { createPod, events, exec, isReady, LIN, NS, startFixture, testProfile, waitEvent, waitPod, WIN, type Fixture } from '../../support/runtime.ts';

const AGNHOST = 'registry.k8s.io/e2e-test-images/agnhost:2.52';
const BUSYBOX = 'registry.k8s.io/e2e-test-images/busybox:1.36.1-1';
const NANO = 'mcr.microsoft.com/windows/nanoserver:ltsc2022';

const LIFTED: Limitations = { secretDefaultMode: false, secretAtRest: false, blockVolume: false, mountPropagation: false, volumeResize: false };

function hostProcessPod(f: Fixture, name = 'hpc') {
  return createPod(f.store, WIN, name, {
    hostNetwork: true,
    securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
    containers: [{ name: 'c', image: NANO, command: ['ping', '-t', 'localhost'] }],
  });
}

/** A Bound claim on volume pv-<name> of 1Gi, as the provisioner leaves it. */
function boundClaim(f: Fixture, name: string, volumeMode: 'Block' | 'Filesystem' = 'Filesystem'): void {
  f.store.create('persistentvolumes', {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: `pv-${name}` },
    spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], volumeMode, csi: { driver: 'disk.csi.azure.com', volumeHandle: name } },
    status: { phase: 'Bound' },
  } as unknown as KubeObject);
  f.store.create('persistentvolumeclaims', {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: NS },
    spec: { accessModes: ['ReadWriteOnce'], volumeMode, resources: { requests: { storage: '1Gi' } }, volumeName: `pv-${name}` },
    status: { phase: 'Bound', capacity: { storage: '1Gi' } },
  } as unknown as KubeObject);
}

/** What the resizer leaves: the PV at 2Gi, the claim FileSystemResizePending at 1Gi. */
function controllerExpanded(f: Fixture, name: string): void {
  f.store.mutate('persistentvolumes', undefined, `pv-${name}`, o => {
    (o.spec as { capacity: { storage: string } }).capacity = { storage: '2Gi' };
  });
  f.store.mutate(
    'persistentvolumeclaims',
    NS,
    name,
    o => {
      const c = o as unknown as V1PersistentVolumeClaim;
      c.spec!.resources = { requests: { storage: '2Gi' } };
      c.status = {
        ...c.status,
        conditions: [
          { type: 'FileSystemResizePending', status: 'True', message: 'Waiting for user to (re-)start a pod to finish file system resize of volume on node.' },
        ],
      };
    },
    { skipAdmission: true },
  );
}

const claim = (f: Fixture, name: string) => f.store.get('persistentvolumeclaims', NS, name) as unknown as V1PersistentVolumeClaim;

function secretModePod(f: Fixture, node: string, name: string) {
  const windows = node !== LIN;
  return createPod(f.store, node, name, {
    volumes: [{ name: 'secret', secret: { secretName: 'mode', defaultMode: 0o400 } }],
    containers: [
      {
        name: 'c',
        image: windows ? AGNHOST : BUSYBOX,
        ...(windows ? { args: ['pause'] } : { command: ['sleep', '3600'] }),
        volumeMounts: [{ name: 'secret', mountPath: windows ? 'C:/etc/secret-mode' : '/etc/secret-mode', readOnly: true }],
      },
    ],
  });
}

/** The ls -l mode column of `file` (the first column of its line). */
const modeOf = (ls: string, file: string) =>
  ls
    .split('\n')
    .find(l => l.endsWith(` ${file}`))
    ?.split(/\s+/)[0];

function addSecret(f: Fixture): void {
  f.store.create('secrets', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'mode', namespace: NS },
    type: 'Opaque',
    data: { data: Buffer.from('wincheck-defaultmode').toString('base64') },
  } as KubeObject);
}

describe('sim runtime: Windows storage limitations', () => {
  let f: Fixture;
  afterEach(async () => {
    await f.stop();
  });

  describe('as documented', () => {
    beforeEach(async () => {
      f = await startFixture();
      addSecret(f);
    });

    it('defaultMode 0400: busybox ls shows the read-only attribute on Windows (-r--r--r--), the mode on Linux', async () => {
      secretModePod(f, WIN, 'win-mode');
      secretModePod(f, LIN, 'lin-mode');
      await waitPod(f.store, 'win-mode', 'Ready', isReady);
      await waitPod(f.store, 'lin-mode', 'Ready', isReady);
      const w = await exec(f.runtime, 'win-mode', ['ls', '-lL', 'C:/etc/secret-mode']);
      expect(w.exitCode, w.stderr).to.equal(0);
      expect(w.stdout).to.match(/^total \d+\n-r--r--r-- {4}1 Containe Containe +20 \w{3} [ \d]\d \d\d:\d\d data\n$/);
      const l = await exec(f.runtime, 'lin-mode', ['ls', '-l', '/etc/secret-mode']);
      expect(modeOf(l.stdout, 'data')).to.equal('-r--------');
      // A plain file of the image keeps the default attributes.
      expect(modeOf((await exec(f.runtime, 'win-mode', ['ls', '-l', 'C:/Windows/System32/drivers/etc'])).stdout, 'hosts')).to.equal('-rw-r--r--');
    });

    it('a Block claim fails to map on Windows (FailedMapVolume) and runs on Linux', async () => {
      boundClaim(f, 'raw', 'Block');
      const spec = (image: string) => ({
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'raw' } }],
        containers: [
          {
            name: 'c',
            image,
            command: image === AGNHOST ? undefined : ['sleep', '3600'],
            args: image === AGNHOST ? ['pause'] : undefined,
            volumeDevices: [{ name: 'data', devicePath: image === AGNHOST ? '\\\\.\\PhysicalDrive9' : '/dev/xvda' }],
          },
        ],
      });
      createPod(f.store, WIN, 'win-block', spec(AGNHOST));
      createPod(f.store, LIN, 'lin-block', spec(BUSYBOX));
      const ev = await waitEvent(f.store, 'win-block', e => e.reason === 'FailedMapVolume');
      expect(ev.type).to.equal('Warning');
      expect(ev.message).to.match(/^MapVolume\.MapPodDevice failed for volume "pv-raw" : /);
      await waitPod(f.store, 'lin-block', 'Ready', isReady);
      expect(events(f.store, 'win-block').some(e => e.reason === 'Started')).to.equal(false);
    });

    it('mountPropagation HostToContainer is private on Windows: a junction added on the node is not seen', async () => {
      createPod(f.store, WIN, 'prop', {
        volumes: [{ name: 'host', hostPath: { path: 'C:\\wincheck\\prop', type: 'DirectoryOrCreate' } }],
        containers: [
          { name: 'c', image: AGNHOST, args: ['pause'], volumeMounts: [{ name: 'host', mountPath: 'C:\\propagation', mountPropagation: 'HostToContainer' }] },
        ],
      });
      hostProcessPod(f);
      await waitPod(f.store, 'prop', 'Ready', isReady);
      await waitPod(f.store, 'hpc', 'Ready', isReady);
      const made = await exec(f.runtime, 'hpc', [
        'cmd',
        '/c',
        'mkdir C:\\wincheck\\prop-target & echo m1> C:\\wincheck\\prop-target\\marker.txt & mklink /J C:\\wincheck\\prop\\mnt C:\\wincheck\\prop-target',
      ]);
      expect(made.exitCode, made.stderr).to.equal(0);
      expect(made.stdout).to.equal('Junction created for C:\\wincheck\\prop\\mnt <<===>> C:\\wincheck\\prop-target\r\n');
      // The node follows its own junction. (cmd keeps the blank before "&" in echo's text.)
      expect((await exec(f.runtime, 'hpc', ['cmd', '/c', 'type C:\\wincheck\\prop\\mnt\\marker.txt'])).stdout).to.equal('m1 \r\n');
      const rd = await exec(f.runtime, 'prop', ['cmd', '/c', 'type C:\\propagation\\mnt\\marker.txt']);
      expect(rd.exitCode).to.equal(1);
      expect(rd.stderr.trim()).to.match(/^The system cannot find the (file|path) specified\.$/);
      // rmdir removes the junction, not its target.
      expect((await exec(f.runtime, 'hpc', ['cmd', '/c', 'rmdir C:\\wincheck\\prop\\mnt & type C:\\wincheck\\prop-target\\marker.txt'])).stdout).to.equal(
        'm1 \r\n',
      );
    });

    it('expanding a mounted claim fails on the Windows node (FileSystemResizeFailed); Linux grows it', async () => {
      boundClaim(f, 'win-data');
      boundClaim(f, 'lin-data');
      createPod(f.store, WIN, 'win-pvc', {
        volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'win-data' } }],
        containers: [{ name: 'c', image: AGNHOST, args: ['pause'], volumeMounts: [{ name: 'd', mountPath: 'C:\\data' }] }],
      });
      createPod(f.store, LIN, 'lin-pvc', {
        volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'lin-data' } }],
        containers: [{ name: 'c', image: BUSYBOX, command: ['sleep', '3600'], volumeMounts: [{ name: 'd', mountPath: '/data' }] }],
      });
      await waitPod(f.store, 'win-pvc', 'Ready', isReady);
      await waitPod(f.store, 'lin-pvc', 'Ready', isReady);
      controllerExpanded(f, 'win-data');
      controllerExpanded(f, 'lin-data');
      const ev = await waitEvent(f.store, 'win-pvc', e => e.reason === 'FileSystemResizeFailed');
      expect(ev.message).to.equal('MountVolume.NodeExpandVolume failed for volume "pv-win-data" : Resize is not supported for this build');
      await waitEvent(f.store, 'lin-pvc', e => e.reason === 'FileSystemResizeSuccessful');
      expect(claim(f, 'lin-data').status).to.deep.include({ capacity: { storage: '2Gi' }, conditions: [] });
      expect(claim(f, 'win-data').status!.capacity).to.deep.equal({ storage: '1Gi' });
      expect(claim(f, 'win-data').status!.conditions!.map(c => c.type)).to.deep.equal(['FileSystemResizePending']);
    });
  });

  describe('lifted', () => {
    beforeEach(async () => {
      f = await startFixture(testProfile({ limitations: LIFTED }));
      addSecret(f);
    });

    it('defaultMode is shown as set; an in-memory secret leaves only the empty volume directory on the node', async () => {
      const pod = secretModePod(f, WIN, 'win-mode');
      hostProcessPod(f);
      await waitPod(f.store, 'win-mode', 'Ready', isReady);
      await waitPod(f.store, 'hpc', 'Ready', isReady);
      expect(modeOf((await exec(f.runtime, 'win-mode', ['ls', '-lL', 'C:/etc/secret-mode'])).stdout, 'data')).to.equal('-r--------');
      const dir = `C:\\var\\lib\\kubelet\\pods\\${pod.metadata!.uid}`;
      const listed = await exec(f.runtime, 'hpc', ['cmd', '/c', `dir /b ${dir}`]);
      expect(listed.exitCode).to.equal(0);
      expect(listed.stdout.split('\r\n')).to.include('volumes');
      const file = await exec(f.runtime, 'hpc', ['cmd', '/c', `type ${dir}\\volumes\\kubernetes.io~secret\\secret\\data`]);
      expect(file.exitCode).to.equal(1);
    });

    it('a Block claim runs, a junction added on the node is seen, and the claim grows', async () => {
      boundClaim(f, 'raw', 'Block');
      boundClaim(f, 'data');
      createPod(f.store, WIN, 'win-block', {
        volumes: [{ name: 'd', persistentVolumeClaim: { claimName: 'raw' } }],
        containers: [{ name: 'c', image: AGNHOST, args: ['pause'], volumeDevices: [{ name: 'd', devicePath: '\\\\.\\PhysicalDrive9' }] }],
      });
      createPod(f.store, WIN, 'prop', {
        volumes: [
          { name: 'host', hostPath: { path: 'C:\\wincheck\\prop', type: 'DirectoryOrCreate' } },
          { name: 'd', persistentVolumeClaim: { claimName: 'data' } },
        ],
        containers: [
          {
            name: 'c',
            image: AGNHOST,
            args: ['pause'],
            volumeMounts: [
              { name: 'host', mountPath: 'C:\\propagation', mountPropagation: 'HostToContainer' },
              { name: 'd', mountPath: 'C:\\data' },
            ],
          },
        ],
      });
      hostProcessPod(f);
      await waitPod(f.store, 'win-block', 'Ready', isReady);
      await waitPod(f.store, 'prop', 'Ready', isReady);
      await waitPod(f.store, 'hpc', 'Ready', isReady);
      expect(
        (await exec(f.runtime, 'hpc', ['cmd', '/c', 'mkdir C:\\t & echo m2> C:\\t\\marker.txt & mklink /J C:\\wincheck\\prop\\mnt C:\\t'])).exitCode,
      ).to.equal(0);
      expect((await exec(f.runtime, 'prop', ['cmd', '/c', 'type C:\\propagation\\mnt\\marker.txt'])).stdout).to.equal('m2 \r\n');
      controllerExpanded(f, 'data');
      await waitEvent(f.store, 'prop', e => e.reason === 'FileSystemResizeSuccessful');
      expect(claim(f, 'data').status!.capacity).to.deep.equal({ storage: '2Gi' });
    });
  });
});
