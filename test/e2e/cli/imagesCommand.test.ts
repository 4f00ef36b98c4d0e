// `wincheck images`: every image a selection pulls, per Windows build, with the mirror each goes
// to; features with no image for a build are named n/a there; bad input exits 2.

import { expect } from 'chai';
import { loadCatalog } from '../../../lib/catalog/registry.ts';
import { selectFeatures } from '../../../lib/catalog/select.ts';
import { imagesNeeded } from '../../../lib/run/imageList.ts';
import { wincheck } from '../../support/cli.ts';

describe('wincheck images', function () {
  this.timeout(60_000);

  it('lists per build the images the fixtures (and node access) pull, and the Linux helpers', async () => {
    const features = selectFeatures(await loadCatalog(), { features: ['work.iis-pod', 'node.services', 'node.pause-image'] });
    const list = imagesNeeded(features, ['10.0.17763', '10.0.26100']);
    expect(list.map(b => b.build)).to.deep.equal(['10.0.17763', '10.0.26100', 'linux']);
    expect(list[0].images).to.deep.equal([
      'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0',
      'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2019',
      'registry.k8s.io/pause:3.10',
    ]);
    expect(list[1].images).to.include('mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2025');
    expect(list[2].images).to.deep.equal(['registry.k8s.io/e2e-test-images/agnhost:2.52']);
  });

  it('lists the images the disruptive checks pull in the pods they build themselves (Feature.images)', async () => {
    const features = selectFeatures(await loadCatalog(), { features: ['res.eviction-memory-pressure', 'node.reboot', 'node.graceful-shutdown'] });
    const [b] = imagesNeeded(features, ['10.0.20348']);
    expect(b.images).to.include.members([
      'registry.k8s.io/e2e-test-images/resource-consumer:1.13',
      'registry.k8s.io/e2e-test-images/agnhost:2.52',
      'mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0',
    ]);
  });

  it('names the features with no image for a build, and pulls none of their images there', async () => {
    const features = selectFeatures(await loadCatalog(), { features: ['work.iis-pod', 'work.exec-logs'] });
    const [b] = imagesNeeded(features, ['10.0.19041']);
    expect(b.images).to.deep.equal([]);
    expect(b.unavailable.map(u => u.feature)).to.have.members(['work.iis-pod', 'work.exec-logs']);
    expect(b.unavailable.find(u => u.feature === 'work.exec-logs')!.reason).to.match(
      /agnhost:2\.52 publishes Windows variants for 1809\/ltsc2019, ltsc2022 only/,
    );
  });

  it('prints source -> mirror per build with --image-registry, JSON with -o json; bad input exits 2', async () => {
    const text = await wincheck(['images', '--feature', 'work.iis-pod', '--build', '10.0.25398.1189', '--image-registry', 'mirror.local:5000/k8s']);
    expect(text.exitCode, text.all).to.equal(0);
    expect(text.stdout)
      .to.contain('Windows 10.0.25398 (23H2):')
      .and.contain(
        '  mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022 -> mirror.local:5000/k8s/windows/servercore/iis:windowsservercore-ltsc2022',
      );
    const json = await wincheck(['images', '--suite', 'node', '--build', '10.0.20348', '-o', 'json', '--image-registry', 'm.local']);
    const parsed = JSON.parse(json.stdout) as { build: string; images: string[]; mirror: string[] }[];
    expect(parsed[0].build).to.equal('10.0.20348');
    expect(parsed[0].mirror).to.include('m.local/pause:3.10');
    const bad = await wincheck(['images', '--build', '2022']);
    expect(bad.exitCode).to.equal(2);
    expect(bad.stderr).to.match(/--build 2022 is not a Windows build such as 10\.0\.20348/);
    const badRegistry = await wincheck(['images', '--image-registry', 'https://mirror']);
    expect(badRegistry.exitCode).to.equal(2);
    expect(badRegistry.stderr).to.match(/--image-registry: .*without a scheme/);
  });
});
