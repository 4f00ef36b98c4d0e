// nltest /PARENTDOMAIN (the gMSA credential spec's domain, or none) and net localgroup (the node's
// groups for node-level hosts, the container's own otherwise), as the sim's tools answer them.

import { expect } from 'chai';
import { run, winHost } from '../../../support/fakeShellHost.ts';

const withTools = (over: Parameters<typeof winHost>[0] = {}) => {
  const h = winHost(over);
  const own = h.hasBinary.bind(h);
  return { ...h, hasBinary: (n: string) => n === 'nltest.exe' || n === 'net.exe' || own(n) };
};

describe('sim shell: nltest and net localgroup', () => {
  it('nltest /PARENTDOMAIN names the credential spec domain, as upstream gmsa_kubelet.go reads it', async () => {
    const r = await run(['nltest', '/PARENTDOMAIN'], withTools({ domain: 'acme.com' }));
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal('acme.com. (1)\r\nThe command completed successfully\r\n');
  });

  it('nltest /PARENTDOMAIN without a credential spec: ERROR_NO_SUCH_DOMAIN', async () => {
    const r = await run(['nltest', '/PARENTDOMAIN'], withTools());
    expect(r.code).to.not.equal(0);
    expect(r.stdout).to.contain('ERROR_NO_SUCH_DOMAIN');
  });

  it("net localgroup adds to and deletes from the node's groups, refusing a second add", async () => {
    const groups = new Set<string>();
    const h = withTools({ node: { services: () => [], hnsNetworks: () => [], computeProcesses: () => [], localGroups: () => groups } });
    expect((await run(['net', 'localgroup', 'Wincheck-1', '/add'], h)).stdout).to.equal('The command completed successfully.\r\n\r\n');
    expect(groups.has('wincheck-1')).to.equal(true);
    const again = await run(['net', 'localgroup', 'wincheck-1', '/add'], h);
    expect(again.code).to.equal(2);
    expect(again.stderr).to.contain('System error 1379 has occurred.');
    expect((await run(['net', 'localgroup', 'wincheck-1', '/delete'], h)).code).to.equal(0);
    expect(groups.size).to.equal(0);
    expect((await run(['net', 'localgroup', 'wincheck-1', '/delete'], h)).stderr).to.contain('The specified local group does not exist.');
  });
});
