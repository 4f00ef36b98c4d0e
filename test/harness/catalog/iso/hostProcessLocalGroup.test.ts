// iso.hostprocess-localgroup: whoami of a local-group account (the node's computer name, never NT
// AUTHORITY), and the expectation per containerd version (upstream skips the spec below 1.7).

import { expect } from 'chai';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import { localAccount } from '../../../../lib/catalog/iso/hostProcessLocalGroup.ts';
import { cluster, linuxNode, winNode } from '../../../support/clusterFixture.ts';

describe('iso.hostprocess-localgroup', () => {
  it('reads whoami: <computer name>\\<account>, the computer name being the host name cut to 15 characters', () => {
    expect(localAccount('win-2022-1\\3e699dcae2f2942610d9\r\n', 'win-2022-1')).to.equal(true);
    expect(localAccount('akswin000000000\\abc', 'AKSWIN000000000X')).to.equal(true);
    expect(localAccount('nt authority\\system', 'win-2022-1')).to.equal(false);
    expect(localAccount('user manager\\containeruser', 'win-2022-1')).to.equal(false);
    expect(localAccount('', 'win-2022-1')).to.equal(false);
  });

  it('supported from containerd 1.7, n/a below (upstream skips) and where HostProcess cannot run', async () => {
    const f = (await loadCatalog()).find(x => x.id === 'iso.hostprocess-localgroup')!;
    const on = (runtimeName: string, runtimeVersion: string) =>
      cluster({ nodes: [linuxNode('l'), winNode('w', '10.0.20348', { runtimeName, runtimeVersion })] });
    expect(f.expect(on('containerd', '1.7.22')).expected).to.equal('supported');
    expect(f.expect(on('containerd', '1.6.21')).expected).to.equal('n/a');
    expect(f.expect(on('containerd', '1.6.21')).reason).to.contain('upstream skips');
    expect(f.expect(on('docker', '20.10.9')).expected).to.equal('n/a');
  });
});
