// Image choice per Windows build (docs/images.md): base-image tags, the stable-ABI rule, the
// multi-arch images' published builds, rendering for every catalog fixture on every build, and
// node.pause-image's expectation per build.

import { expect } from 'chai';
import { pauseImageExpectation } from '../../lib/catalog/features/node.ts';
import { loadCatalog } from '../../lib/catalog/registry.ts';
import { baseImageFor, checkImageForBuild, NoImageError, runsOnHost, variantFor } from '../../lib/fixtures/images.ts';
import { imagesOf as images } from '../../lib/fixtures/imageList.ts';
import { renderFixture } from '../../lib/fixtures/render.ts';
import type { RenderContext } from '../../lib/fixtures/types.ts';
import { cluster, linuxNode, winNode } from '../harness/clusterFixture.ts';

const ctx = (windowsBuild: string): RenderContext => ({
  runId: 'rimg001', namespace: 'wincheck-rimg001', windowsBuild, windowsNode: 'win-1', multipleBuilds: false,
  windowsTaints: [], secrets: { username: 'u', password: 'p' },
});

describe('images per Windows build', () => {
  it('picks each base image\'s own tag; Nano Server on 2019 is 1809', () => {
    expect(baseImageFor('servercore', '10.0.17763.6414')).to.equal('mcr.microsoft.com/windows/servercore:ltsc2019');
    expect(baseImageFor('nanoserver', '10.0.17763')).to.equal('mcr.microsoft.com/windows/nanoserver:1809');
    expect(baseImageFor('iis', '10.0.20348')).to.equal('mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022');
    expect(baseImageFor('nanoserver', '10.0.26100')).to.equal('mcr.microsoft.com/windows/nanoserver:ltsc2025');
  });

  it('runs ltsc2022 images on builds with no tag of their own (23H2), and names the missing build otherwise', () => {
    expect(baseImageFor('servercore', '10.0.25398.1')).to.equal('mcr.microsoft.com/windows/servercore:ltsc2022');
    expect(baseImageFor('iis', '10.0.25398')).to.equal('mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022');
    expect(() => baseImageFor('servercore', '10.0.19041')).to.throw(NoImageError, /published for Windows build 10\.0\.19041 \(published: 1809\/ltsc2019, ltsc2022, ltsc2025\)/);
  });

  it('applies the stable ABI from 2022 on only, older images on newer hosts only', () => {
    expect(runsOnHost(17763, 17763)).to.equal(true);
    expect(runsOnHost(17763, 20348)).to.equal(false);
    expect(runsOnHost(20348, 26100)).to.equal(true);
    expect(runsOnHost(20348, 25398)).to.equal(true);
    expect(runsOnHost(26100, 20348)).to.equal(false);
    expect(runsOnHost(17763, 26100)).to.equal(false);
    expect(variantFor([17763, 20348], 26100)).to.equal(20348);
    expect(variantFor([17763, 20348], 18363)).to.equal(undefined);
  });

  it('knows pause and agnhost publish 1809 and ltsc2022 only', () => {
    expect(checkImageForBuild('registry.k8s.io/pause:3.10', '10.0.20348')).to.equal(undefined);
    expect(checkImageForBuild('registry.k8s.io/e2e-test-images/agnhost:2.52', '10.0.26100')).to.match(/ltsc2022 variant runs on build 10\.0\.26100 \(stable ABI\)/);
    expect(() => checkImageForBuild('registry.k8s.io/e2e-test-images/agnhost:2.52', '10.0.19041')).to.throw(NoImageError, /1809\/ltsc2019, ltsc2022 only; none runs on build 10\.0\.19041/);
    // Images it does not know are their publisher's business; HostProcess images run anywhere.
    expect(checkImageForBuild('example.com/app:1', '10.0.19041')).to.equal(undefined);
    expect(checkImageForBuild('mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0', '10.0.19041')).to.equal(undefined);
  });

  for (const build of ['10.0.17763', '10.0.20348', '10.0.26100', '10.0.25398']) {
    it(`renders every catalog fixture for build ${build} without throwing, with images that exist for it`, async () => {
      const specs = (await loadCatalog()).flatMap(f => f.fixtures);
      expect(specs.length).to.be.greaterThan(30);
      for (const spec of specs) {
        const r = renderFixture(spec, ctx(build));
        for (const image of images(r.objects)) {
          expect(image, spec.id).to.not.contain('{{');
          if (build !== '10.0.26100') expect(image, spec.id).to.not.match(/ltsc2025$/);
          if (build !== '10.0.17763') expect(image, spec.id).to.not.match(/ltsc2019$|:1809$/);
        }
        if (build === '10.0.26100' && images(r.objects).some(i => i.includes('agnhost')) && spec.os === 'windows')
          expect(r.imageNotes?.join(' '), spec.id).to.match(/agnhost:2\.52: the ltsc2022 variant runs on build 10\.0\.26100/);
      }
    });
  }

  it('makes a fixture with no image for the build fail with NoImageError (the feature goes n/a)', () => {
    expect(() => renderFixture({ id: 'iis', template: 'iis-pod', os: 'windows' }, ctx('10.0.19041'))).to.throw(NoImageError);
    expect(() => renderFixture({ id: 'netexec', template: 'windows-netexec', os: 'windows' }, ctx('10.0.19041'))).to.throw(NoImageError, /agnhost/);
    // The pause DaemonSet runs on every build and judges each itself.
    expect(() => renderFixture({ id: 'pause-image', template: 'pause-daemonset', os: 'windows', pin: 'none', everyBuild: true }, ctx('10.0.19041'))).to.not.throw();
  });

  it('node.pause-image expects each build\'s own variant on 2019/2022, ltsc2022 on 2025 and 23H2, limited elsewhere', () => {
    const e = pauseImageExpectation(cluster({ nodes: [linuxNode('l'), winNode('a', '10.0.17763'), winNode('b', '10.0.20348'), winNode('c', '10.0.26100'), winNode('d', '10.0.25398')] }));
    expect(e.expected).to.equal('supported');
    expect(e.reason).to.contain('build 10.0.17763: its own variant').and.contain('build 10.0.20348: its own variant');
    expect(e.reason).to.match(/build 10\.0\.26100: no variant of its own; the ltsc2022 variant runs on build 10\.0\.26100/);
    expect(e.reason).to.match(/build 10\.0\.25398: no variant of its own; the ltsc2022 variant/);
    const old = pauseImageExpectation(cluster({ nodes: [winNode('a', '10.0.20348'), winNode('x', '10.0.19041')] }));
    expect(old.expected).to.equal('limited');
    expect(old.reason).to.match(/build 10\.0\.19041: registry\.k8s\.io\/pause:3\.10 publishes Windows variants for 1809\/ltsc2019, ltsc2022 only/);
  });
});
