// dnsPolicy None + dnsConfig as a Windows pod's ipconfig /all shows it (FEATURES net.dns-config,
// upstream test/e2e/windows/dns.go), and breaks: dns-config, which drops the pod's own settings.

import { expect } from 'chai';
import { createPod, exec, isReady, startFixture, testProfile, waitPod, WIN, type Fixture } from '../../support/runtime.ts';

const AGNHOST = 'registry.k8s.io/e2e-test-images/agnhost:2.52';
const POD = {
  dnsPolicy: 'None',
  dnsConfig: { nameservers: ['1.1.1.1'], searches: ['resolv.conf.local'] },
  containers: [{ name: 'agnhost', image: AGNHOST, args: ['pause'] }],
};

async function ipconfigAll(f: Fixture): Promise<string> {
  createPod(f.store, WIN, 'dns', POD);
  await waitPod(f.store, 'dns', 'Ready', isReady);
  const r = await exec(f.runtime, 'dns', ['cmd', '/c', 'ipconfig /all']);
  expect(r.exitCode).to.equal(0);
  return r.stdout;
}

describe('sim runtime: pod DNS settings in ipconfig /all', () => {
  let f: Fixture | undefined;
  afterEach(async () => {
    await f?.stop();
    f = undefined;
  });

  it("dnsPolicy None: the dnsConfig nameserver and search suffix are the adapter's", async () => {
    f = await startFixture();
    const out = await ipconfigAll(f);
    expect(out).to.contain('   DNS Servers . . . . . . . . . . . : 1.1.1.1\r\n');
    expect(out).to.contain('   DNS Suffix Search List. . . . . . : resolv.conf.local\r\n');
  });

  it("breaks: dns-config ignores the pod's dnsConfig: the cluster DNS and search list show instead", async () => {
    f = await startFixture(testProfile({ breaks: ['dns-config'] }));
    const out = await ipconfigAll(f);
    expect(out).to.not.contain('1.1.1.1');
    expect(out).to.not.contain('resolv.conf.local');
    expect(out).to.contain(`   DNS Servers . . . . . . . . . . . : ${f.net.dnsServer().address}\r\n`);
    expect(out).to.contain('   DNS Suffix Search List. . . . . . : rt.svc.cluster.local\r\n');
  });
});
