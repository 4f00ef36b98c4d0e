// HostProcess volumes, in-cluster config and hostname: expectations per node runtime (containerd 1.6
// links mounts under $CONTAINER_SANDBOX_MOUNT_POINT only, 1.7 binds them at mountPath too), and the
// names a node's `hostname` may print.

import { expect } from 'chai';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import type { Feature } from '../../../../lib/catalog/types.ts';
import { hostNames } from '../../../../lib/catalog/iso/isolation.ts';
import { hostProcessBindMounts } from '../../../../lib/facts/kubernetes.ts';
import { cluster, linuxNode, winNode } from '../../../support/clusterFixture.ts';

let catalog: Feature[];
const feature = (id: string) => catalog.find(f => f.id === id)!;
const onRuntime = (runtimeName: string, runtimeVersion: string) =>
  cluster({ nodes: [linuxNode('l'), winNode('win-1', '10.0.20348', { runtimeName, runtimeVersion })] });

describe('iso: HostProcess volumes and in-cluster config', () => {
  before(async () => {
    catalog = await loadCatalog();
  });

  it('iso.hostprocess-volumes: supported on containerd 1.6 and 1.7, the reason saying where the mounts appear', () => {
    const v17 = feature('iso.hostprocess-volumes').expect(onRuntime('containerd', '1.7.22'));
    expect(v17.expected).to.equal('supported');
    expect(v17.reason).to.contain('and at their mountPath');
    const v16 = feature('iso.hostprocess-volumes').expect(onRuntime('containerd', '1.6.21'));
    expect(v16.expected).to.equal('supported');
    expect(v16.reason).to.contain('$CONTAINER_SANDBOX_MOUNT_POINT only');
    expect(v17.source.map(s => s.detail ?? '')).to.include('HostProcess containers should support various volume mount types');
  });

  it('iso.hostprocess-incluster: supported from containerd 1.7, limited on 1.6, n/a where HostProcess cannot run', () => {
    expect(feature('iso.hostprocess-incluster').expect(onRuntime('containerd', '1.7.22')).expected).to.equal('supported');
    const v16 = feature('iso.hostprocess-incluster').expect(onRuntime('containerd', '1.6.21'));
    expect(v16.expected).to.equal('limited');
    expect(v16.reason).to.contain('/var/run/secrets/kubernetes.io/serviceaccount');
    expect(feature('iso.hostprocess-incluster').expect(onRuntime('docker', '20.10.9')).expected).to.equal('n/a');
    expect(feature('iso.hostprocess-volumes').expect(cluster({ version: { gitVersion: 'v1.22.0', major: 1, minor: 22 } })).expected).to.equal('n/a');
  });

  it('bind mounts from containerd 1.7 only', () => {
    expect(hostProcessBindMounts({ runtimeName: 'containerd', runtimeVersion: '1.7.0' })).to.equal(true);
    expect(hostProcessBindMounts({ runtimeName: 'containerd', runtimeVersion: '2.0.1' })).to.equal(true);
    expect(hostProcessBindMounts({ runtimeName: 'containerd', runtimeVersion: '1.6.21' })).to.equal(false);
    expect(hostProcessBindMounts({ runtimeName: 'docker', runtimeVersion: '24.0.7' })).to.equal(false);
  });

  it('hostname: the node name or its hostname label, whole or first label, any case', () => {
    const names = hostNames('ip-10-0-1-5.ec2.internal', 'IP-10-0-1-5.ec2.internal');
    expect(names.has('ip-10-0-1-5')).to.equal(true);
    expect(names.has('ip-10-0-1-5.ec2.internal')).to.equal(true);
    expect(hostNames('AKSWIN000000', undefined).has('akswin000000')).to.equal(true);
    expect(hostNames('win-1', undefined).has('win-2')).to.equal(false);
  });
});
