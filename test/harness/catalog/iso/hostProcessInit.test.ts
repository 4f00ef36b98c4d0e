// iso.hostprocess-init: supported wherever HostProcess pods run (upstream's init-container spec has
// no runtime version skip), n/a where they cannot.

import { expect } from 'chai';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import { cluster, linuxNode, winNode } from '../../../support/clusterFixture.ts';

describe('iso.hostprocess-init', () => {
  it('supported on containerd 1.6 and 1.7, n/a on Docker or before 1.23, citing the spec', async () => {
    const f = (await loadCatalog()).find(x => x.id === 'iso.hostprocess-init')!;
    const on = (runtimeName: string, runtimeVersion: string) =>
      cluster({ nodes: [linuxNode('l'), winNode('w', '10.0.20348', { runtimeName, runtimeVersion })] });
    expect(f.expect(on('containerd', '1.7.22')).expected).to.equal('supported');
    expect(f.expect(on('containerd', '1.6.21')).expected).to.equal('supported');
    expect(f.expect(on('docker', '20.10.9')).expected).to.equal('n/a');
    expect(f.expect(cluster({ version: { gitVersion: 'v1.22.0', major: 1, minor: 22 } })).expected).to.equal('n/a');
    expect(f.expect(cluster()).source.map(s => s.detail ?? '')).to.include('HostProcess containers should support init containers');
  });
});
