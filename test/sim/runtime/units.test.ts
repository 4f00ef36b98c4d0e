// Pure pieces of the runtime: image references and platform matching, Windows
// paths, env expansion, quantities.

import { expect } from 'chai';
import { findImage, parseImageRef, processIsolationCompatible, selectManifest, BUILD_2019, BUILD_2022 } from '../../../sim/runtime/images.ts';
import { MemFS, ContainerFS, splitPath } from '../../../sim/runtime/fs.ts';
import { expandVars } from '../../../sim/runtime/env.ts';
import { parseQuantity } from '../../../util/quantity.ts';
import { containerArgv } from '../../../sim/runtime/process.ts';

describe('sim runtime: units', () => {
  it('normalises references, strips mirrors, applies Docker Hub defaults', () => {
    expect(parseImageRef('busybox')).to.include({ repo: 'docker.io/library/busybox', tag: 'latest' });
    expect(parseImageRef('microsoft/iis')).to.include({ repo: 'docker.io/microsoft/iis', tag: 'latest' });
    expect(parseImageRef('mirror.local:5000/registry.k8s.io/pause:3.10', ['mirror.local:5000'])).to.include({ repo: 'registry.k8s.io/pause', tag: '3.10' });
    expect(parseImageRef('localhost:5000/x')).to.include({ repo: 'localhost:5000/x', tag: 'latest' });
  });

  it('matches Windows builds as containerd does: exact under process isolation, older under Hyper-V', () => {
    const sc2019 = findImage(parseImageRef('mcr.microsoft.com/windows/servercore:ltsc2019'))!;
    expect(selectManifest(sc2019, { os: 'windows', build: BUILD_2022 })).to.equal(undefined);
    expect(selectManifest(sc2019, { os: 'windows', build: BUILD_2022, hyperv: true })?.build).to.equal(BUILD_2019);
    expect(selectManifest(sc2019, { os: 'windows', build: BUILD_2019 })?.build).to.equal(BUILD_2019);
    expect(selectManifest(sc2019, { os: 'linux' })).to.equal(undefined);
    const pause = findImage(parseImageRef('registry.k8s.io/pause:3.10'))!;
    for (const b of [BUILD_2019, BUILD_2022]) expect(selectManifest(pause, { os: 'windows', build: b })?.build).to.equal(b);
    expect(selectManifest(pause, { os: 'linux' })?.os).to.equal('linux');
  });

  it('publishes pause and agnhost for 1809 and ltsc2022 only; 2025 and 23H2 run the ltsc2022 variant (stable ABI)', () => {
    for (const ref of ['registry.k8s.io/pause:3.10', 'registry.k8s.io/e2e-test-images/agnhost:2.52']) {
      const e = findImage(parseImageRef(ref))!;
      expect(
        e.manifests.filter(m => m.os === 'windows').map(m => m.build),
        ref,
      ).to.deep.equal([BUILD_2019, BUILD_2022]);
      for (const host of ['10.0.26100', '10.0.25398'])
        expect(selectManifest(e, { os: 'windows', build: host })?.build, `${ref} on ${host}`).to.equal(BUILD_2022);
      expect(selectManifest(e, { os: 'windows', build: '10.0.19041' }), `${ref} on 2004`).to.equal(undefined);
    }
    // The stable ABI runs older images on newer hosts only from 2022, never newer images on older hosts.
    const sc2025 = findImage(parseImageRef('mcr.microsoft.com/windows/servercore:ltsc2025'))!;
    expect(selectManifest(sc2025, { os: 'windows', build: BUILD_2022 })).to.equal(undefined);
    expect(processIsolationCompatible(17763, 17763)).to.equal(true);
    expect(processIsolationCompatible(20348, 17763)).to.equal(false);
    expect(processIsolationCompatible(26100, 20348)).to.equal(true);
    expect(processIsolationCompatible(25398, 20348)).to.equal(true);
    expect(processIsolationCompatible(26100, 17763)).to.equal(false);
    // Nano Server on 2019 is tagged 1809; there is no 2019 variant of the Kubernetes images for 2025.
    expect(findImage(parseImageRef('mcr.microsoft.com/windows/nanoserver:1809'))?.manifests[0].build).to.equal(BUILD_2019);
    expect(findImage(parseImageRef('registry.k8s.io/pause:3.10'))!.manifests.some(m => m.build === '10.0.26100')).to.equal(false);
  });

  it('treats C:\\etc\\foo, C:/etc/foo and c:\\ETC\\foo as one path; /cache is C:\\cache', () => {
    expect(splitPath('C:\\etc\\foo', 'windows')).to.deep.equal(['c:', 'etc', 'foo']);
    expect(splitPath('C:/etc/foo', 'windows')).to.deep.equal(['c:', 'etc', 'foo']);
    expect(splitPath('/cache', 'windows')).to.deep.equal(['c:', 'cache']);
    const disk = new MemFS(true);
    disk.write(splitPath('C:\\etc\\foo\\a.txt', 'windows'), 'x', { mkdirs: true });
    expect(disk.read(splitPath('c:/ETC/Foo/A.TXT', 'windows')).toString()).to.equal('x');
    const fs = new ContainerFS('windows', new MemFS(true), [{ at: ['c:', 'data'], fs: disk, base: ['c:', 'etc', 'foo'], readOnly: true, name: 'foo' }]);
    expect(fs.read('C:\\data\\a.txt').toString()).to.equal('x');
    expect(() => fs.write('C:/data/b.txt', Buffer.from('y'))).to.throw('Access is denied.');
    expect(fs.mode('C:/data/a.txt')).to.equal(undefined);
  });

  it('expands $(VAR), keeps unknown references and $$ escapes', () => {
    expect(expandVars('$(A)-$(B)-$$(A)', { A: '1' })).to.equal('1-$(B)-$(A)');
  });

  it('merges ENTRYPOINT/CMD with command/args', () => {
    const m = { os: 'linux' as const, entrypoint: ['/agnhost'], cmd: ['pause'], user: 'root', env: {}, binaries: [], size: 1 };
    expect(containerArgv(m, { name: 'c' }, {})).to.deep.equal(['/agnhost', 'pause']);
    expect(containerArgv(m, { name: 'c', args: ['netexec'] }, {})).to.deep.equal(['/agnhost', 'netexec']);
    expect(containerArgv(m, { name: 'c', command: ['sh'] }, {})).to.deep.equal(['sh']);
  });

  it('parses quantities', () => {
    expect(parseQuantity('500m')).to.equal(0.5);
    expect(parseQuantity('128Mi')).to.equal(128 * 2 ** 20);
    expect(parseQuantity('2')).to.equal(2);
    expect(parseQuantity('1G')).to.equal(1e9);
  });
});
