// The one table of Windows build facts, read the ways its callers read it.

import { expect } from 'chai';
import {
  buildLabel,
  buildName,
  buildNumberOf,
  buildOfRelease,
  DEFAULT_LIST_BUILDS,
  LTSC_TAGS,
  releaseOfBuild,
  STABLE_ABI_LTSC,
  WINDOWS_BUILDS,
} from '../../../lib/facts/windows.ts';

describe('facts/windows', () => {
  it('lists each build once, ascending', () => {
    const builds = WINDOWS_BUILDS.map(r => r.build);
    expect(builds).to.deep.equal([...new Set(builds)].sort((a, b) => a - b));
  });
  it('derives LTSC tags, stable-ABI releases and the default image-list builds', () => {
    expect(LTSC_TAGS).to.deep.equal({ 17763: 'ltsc2019', 20348: 'ltsc2022', 26100: 'ltsc2025' });
    expect(STABLE_ABI_LTSC).to.deep.equal([20348, 26100]);
    expect(DEFAULT_LIST_BUILDS).to.deep.equal(['10.0.17763', '10.0.20348', '10.0.25398', '10.0.26100']);
  });
  it('names builds for testcases, image lists and release names', () => {
    expect(['10.0.17763', '10.0.20348.2582', '10.0.25398', '10.0.19041'].map(buildLabel)).to.deep.equal(['ltsc2019', 'ltsc2022', '23H2', '10.0.19041']);
    expect([17763, 20348, 25398, 26100, 19041].map(buildName)).to.deep.equal(['1809/ltsc2019', 'ltsc2022', '23H2', 'ltsc2025', '10.0.19041']);
    expect(['10.0.14393', '10.0.20348.2582', '10.0.19041', 'x'].map(releaseOfBuild)).to.deep.equal([
      'Windows Server 2016',
      'Windows Server 2022',
      undefined,
      undefined,
    ]);
  });
  it('reads the build of a Server release from osImage', () => {
    expect(
      ['Windows Server 2022 Datacenter', 'Windows Server 2019 Standard', 'Windows Server 2025', 'Windows Server 2016', 'Windows 10 Pro'].map(buildOfRelease),
    ).to.deep.equal(['10.0.20348', '10.0.17763', '10.0.26100', '10.0.14393', undefined]);
    expect(buildNumberOf(' 10.0.26100.1 ')).to.equal(26100);
  });
});
