// The sim's behaviour follows each node's Kubernetes version, runtime and build, as the docs
// give them: spec.os and hostProcess dropped before their gates are on, HostProcess refused by
// Docker and ignored by an old containerd, Hyper-V only on containerd >= 1.7, DSR from
// Windows Server 2019 and preserve-destination from 1903, no Windows DaemonSets where no node
// can run HostProcess.

import { expect } from 'chai';
import type { CoreV1Event, V1Pod } from '@kubernetes/client-node';
import { createAdmission } from '../../../sim/api/validation/index.ts';
import type { KubeObject, Store } from '../../../sim/api/store.ts';
import { startSim } from '../../../sim/index.ts';
import { loadProfile } from '../../../sim/profiles/load.ts';
import type { Profile } from '../../../sim/profiles/types.ts';
import { hostProcessOn, hypervIsolationOn, runtimeVersion } from '../../../sim/nodes/versions.ts';
import { Policy } from '../../../sim/network/policy.ts';
import { cni, kubeProxy } from '../../../sim/controllers/addons/network.ts';

const withVersion = (v: string, edit: (p: Profile) => void = () => {}): Profile => {
  const p = structuredClone(loadProfile('minimal'));
  p.kubernetesVersion = v;
  edit(p);
  return p;
};

function admitted(profile: Profile): V1Pod {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'hp', namespace: 'default' },
    spec: {
      os: { name: 'windows' },
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      hostNetwork: true,
      securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
      containers: [{ name: 'c', image: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0' }],
    },
  };
  return createAdmission(profile)('pods', 'create', pod as unknown as KubeObject, undefined) as unknown as V1Pod;
}

/** Resolves with find()'s first defined answer, checked now and on every change of the bucket; fails at the deadline. */
function until<T>(store: Store, bucket: string, what: string, find: () => T | undefined, ms = 20_000): Promise<T> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const check = () => {
      if (settled) return;
      const v = find();
      if (v === undefined) return;
      settled = true;
      clearTimeout(t);
      queueMicrotask(() => w.stop());
      resolve(v);
    };
    const t = setTimeout(() => {
      settled = true;
      w.stop();
      reject(new Error(`timed out waiting for ${what}`));
    }, ms);
    const w = store.watch(bucket, { namespace: 'default' }, () => queueMicrotask(check));
    check();
  });
}

describe('sim: behaviour by version, runtime and build', function () {
  this.timeout(60_000);

  it('reads runtime strings as they come: containerd://1.7.17+azure, containerd://1.19, docker://Unknown', () => {
    expect(runtimeVersion('containerd://1.7.17+azure')).to.deep.equal({ name: 'containerd', major: 1, minor: 7 });
    expect(runtimeVersion('containerd://1.19')).to.deep.equal({ name: 'containerd', major: 1, minor: 19 });
    expect(runtimeVersion('docker://Unknown')).to.deep.equal({ name: 'docker', major: 0, minor: 0 });
  });

  it('decides HostProcess and Hyper-V per node: kubelet >= 1.23 with containerd >= 1.6; Hyper-V from containerd 1.7', () => {
    expect(hostProcessOn({ kubeletVersion: 'v1.23.17', containerRuntime: 'containerd://1.6.21' })).to.equal('host');
    expect(hostProcessOn({ kubeletVersion: 'v1.22.17', containerRuntime: 'containerd://1.6.21' })).to.equal('ignored');
    // The alpha gate turned on at 1.22 (featureGates); before 1.22 there is no gate to turn on.
    expect(hostProcessOn({ kubeletVersion: 'v1.22.17', containerRuntime: 'containerd://1.6.21' }, { WindowsHostProcessContainers: true })).to.equal('host');
    expect(hostProcessOn({ kubeletVersion: 'v1.21.14', containerRuntime: 'containerd://1.6.21' }, { WindowsHostProcessContainers: true })).to.equal('ignored');
    expect(hostProcessOn({ kubeletVersion: 'v1.23.17', containerRuntime: 'containerd://1.6.21' }, { WindowsHostProcessContainers: false })).to.equal('ignored');
    expect(hostProcessOn({ kubeletVersion: 'v1.28.12', containerRuntime: 'containerd://1.5.13' })).to.equal('ignored');
    expect(hostProcessOn({ kubeletVersion: 'v1.23.17', containerRuntime: 'docker://20.10.9' })).to.equal('refused');
    expect(hypervIsolationOn({ containerRuntime: 'containerd://1.6.14+azure' })).to.equal(false);
    expect(hypervIsolationOn({ containerRuntime: 'containerd://1.7.17+azure' })).to.equal(true);
  });

  it('drops spec.os before 1.24 and hostProcess before 1.23, as the API server does with the gates off', () => {
    const v122 = admitted(withVersion('v1.22.17'));
    expect(v122.spec!.os).to.equal(undefined);
    expect(v122.spec!.securityContext!.windowsOptions!.hostProcess).to.equal(undefined);
    const v123 = admitted(withVersion('v1.23.17'));
    expect(v123.spec!.os).to.equal(undefined);
    expect(v123.spec!.securityContext!.windowsOptions!.hostProcess).to.equal(true);
    const v124 = admitted(withVersion('v1.24.17'));
    expect(v124.spec!.os).to.deep.equal({ name: 'windows' });
  });

  it('offers DSR from Windows Server 2019 and preserve-destination from 1903 (seed 003)', () => {
    const p = withVersion('v1.33.2', q => {
      q.network.kubeProxyEnableDSR = true;
      const [w1, w2] = q.nodes.filter(n => n.os === 'windows');
      w1.windowsBuild = '10.0.14393';
      w2.windowsBuild = '10.0.17763.6414';
      q.nodes.push({ name: 'win-2022-3', os: 'windows', windowsBuild: '10.0.20348.2582' });
    });
    const policy = new Policy(p);
    expect(policy.preservesClientIP('win-2022-1', true)).to.equal(false);
    expect(policy.preservesClientIP('win-2022-2', true)).to.equal(true);
    expect(policy.preservesDestination('win-2022-2', true)).to.equal(false);
    expect(policy.preservesDestination('win-2022-3', true)).to.equal(true);
  });

  it('runs the Windows agents as DaemonSets only where a Windows node can run HostProcess', () => {
    const windowsDs = (p: Profile) =>
      [...kubeProxy(p).daemonSets, ...cni(p).daemonSets]
        .filter(d => d.spec!.template.spec!.nodeSelector?.['kubernetes.io/os'] === 'windows')
        .map(d => d.metadata!.name);
    expect(windowsDs(withVersion('v1.33.2'))).to.have.members(['kube-proxy-windows', 'kube-flannel-ds-windows']);
    expect(windowsDs(withVersion('v1.22.17'))).to.deep.equal([]);
  });

  it('on the kubeadm profile: Docker refuses a HostProcess pod, containerd 1.6 has no Hyper-V handler, containerd 1.6 runs HostProcess', async () => {
    const sim = await startSim({ profile: 'kubeadm' });
    try {
      sim.store.create('runtimeclasses.node.k8s.io', {
        apiVersion: 'node.k8s.io/v1',
        kind: 'RuntimeClass',
        metadata: { name: 'hyperv' },
        handler: 'runhcs-wcow-hypervisor',
      } as unknown as KubeObject);
      const hp = (name: string, node: string) =>
        ({
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace: 'default' },
          spec: {
            nodeName: node,
            hostNetwork: true,
            restartPolicy: 'Never',
            securityContext: { windowsOptions: { hostProcess: true, runAsUserName: 'NT AUTHORITY\\SYSTEM' } },
            containers: [
              { name: 'c', image: 'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0', command: ['cmd', '/c', 'whoami'] },
            ],
          },
        }) as unknown as KubeObject;
      sim.store.create('pods', hp('hp-docker', 'win-r76r0a6edbe'));
      sim.store.create('pods', hp('hp-ctrd', 'win-2019-ctrd-01'));
      sim.store.create('pods', {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'hv', namespace: 'default' },
        spec: { nodeName: 'win-2019-ctrd-01', runtimeClassName: 'hyperv', containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore:ltsc2019' }] },
      } as unknown as KubeObject);
      const eventFor = (pod: string, pattern: RegExp) =>
        until(sim.store, 'events', `an event ${pattern} for ${pod}`, () =>
          (sim.store.list('events', { namespace: 'default' }).items as unknown as CoreV1Event[]).find(
            e => e.involvedObject.name === pod && pattern.test(e.message ?? ''),
          ),
        );
      expect((await eventFor('hp-docker', /hostprocess containers are not supported/)).reason).to.equal('FailedCreatePodSandBox');
      expect((await eventFor('hv', /no runtime for "runhcs-wcow-hypervisor" is configured/)).reason).to.equal('FailedCreatePodSandBox');
      const done = await until(sim.store, 'pods', 'hp-ctrd finished', () => {
        const p = sim.store.tryGet('pods', 'default', 'hp-ctrd') as unknown as V1Pod | undefined;
        return p?.status?.phase === 'Succeeded' || p?.status?.phase === 'Failed' ? p : undefined;
      });
      expect(done.status!.phase).to.equal('Succeeded');
    } finally {
      await sim.stop();
    }
  });
});
