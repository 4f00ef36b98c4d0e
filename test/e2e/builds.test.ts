// Every Windows build qualified: on a mixed-build cluster each build-specific feature runs once per
// build as its own testcase "<id> [<build>]", the summary has a feature × build table, and
// single-build clusters keep their testcase names.

import { expect } from 'chai';
import { loadCatalog } from '../../lib/catalog/registry.ts';
import type { CheckResult, Feature } from '../../lib/catalog/types.ts';
import { renderBuildTable, splitInstanceId } from '../../lib/report/buildTable.ts';
import { buildLabel } from '../../lib/facts/windows.ts';
import { clusterForBuild, isBuildSpecific, windowsBuilds } from '../../lib/run/builds.ts';
import { cluster, linuxNode, winNode } from '../support/clusterFixture.ts';
import { runOnSim, type SimRun } from '../support/simRun.ts';

const result = (outcome: CheckResult['outcome'], id: string) => ({ id, outcome }) as CheckResult;

describe('every Windows build qualified', function () {
  this.timeout(5 * 60_000);

  it('labels builds by their LTSC name, orders the target build first, and views the cluster per build', () => {
    expect(['10.0.17763', '10.0.20348.2582', '10.0.26100', '10.0.25398', '10.0.19041'].map(buildLabel)).to.deep.equal([
      'ltsc2019',
      'ltsc2022',
      'ltsc2025',
      '23H2',
      '10.0.19041',
    ]);
    const c = cluster({
      nodes: [
        linuxNode('l'),
        winNode('a', '10.0.17763'),
        winNode('b', '10.0.20348'),
        winNode('c', '10.0.20348'),
        winNode('d', '10.0.26100', { schedulable: false }),
      ],
    });
    expect(windowsBuilds(c)).to.deep.equal(['10.0.20348', '10.0.17763']);
    expect(clusterForBuild(c, '10.0.17763').nodes.map(n => n.name)).to.deep.equal(['l', 'a']);
  });

  it('counts as build-specific the features whose Windows fixtures are pinned to the build or a node', async () => {
    const byId = new Map((await loadCatalog()).map(f => [f.id, f] as [string, Feature]));
    expect(isBuildSpecific(byId.get('work.iis-pod')!)).to.equal(true);
    expect(isBuildSpecific(byId.get('node.pause-image')!)).to.equal(false);
    expect(isBuildSpecific(byId.get('node.services')!)).to.equal(false);
    expect(isBuildSpecific({ ...byId.get('work.iis-pod')!, perBuild: false })).to.equal(false);
  });

  it('tabulates feature × build, and adds nothing for single-build runs', () => {
    const lines = renderBuildTable([
      result('supported', 'work.iis-pod [ltsc2022]'),
      result('regressed', 'work.iis-pod [ltsc2019]'),
      result('supported', 'node.services'),
    ]);
    expect(lines).to.deep.equal([
      '## Per Windows build',
      '',
      '| Feature | ltsc2022 | ltsc2019 |',
      '| --- | --- | --- |',
      '| `work.iis-pod` | supported | **regressed** |',
      '',
    ]);
    expect(renderBuildTable([result('supported', 'work.iis-pod')])).to.deep.equal([]);
    expect(splitInstanceId('work.iis-pod [23H2]')).to.deep.equal(['work.iis-pod', '23H2']);
  });

  describe('on the mixed-build profile (2019 + 2022)', () => {
    let run: SimRun;
    before(async () => {
      run = await runOnSim(['work.iis-pod', 'work.exec-logs', 'node.pause-image'], { base: 'mixed-build' });
    });

    it('runs each build-specific feature once per build, each on its own build', () => {
      expect([...run.results.keys()].sort()).to.deep.equal([
        'node.pause-image',
        'work.exec-logs [ltsc2019]',
        'work.exec-logs [ltsc2022]',
        'work.iis-pod [ltsc2019]',
        'work.iis-pod [ltsc2022]',
      ]);
      for (const [id, r] of run.results) expect(r.outcome, `${id}: ${r.reason} / ${r.summary} / ${r.error ?? ''}`).to.equal('supported');
      expect(run.results.get('work.iis-pod [ltsc2019]')!.windowsBuild).to.equal('10.0.17763');
      expect(run.results.get('work.iis-pod [ltsc2022]')!.windowsBuild).to.equal('10.0.20348');
      expect(run.results.get('work.iis-pod [ltsc2019]')!.node).to.equal('win-2019-1');
    });

    it('names JUnit testcases with the build, and tabulates feature × build in the summary', () => {
      const xml = Object.values(run.junit).join('\n');
      expect(xml).to.contain('name="[sig-windows] workloads work.iis-pod [ltsc2022]: ').and.contain('name="[sig-windows] workloads work.iis-pod [ltsc2019]: ');
      expect(xml).to.contain('name="[sig-windows] node node.pause-image: ');
      expect(run.summaryMd)
        .to.contain('## Per Windows build')
        .and.contain('| Feature | ltsc2022 | ltsc2019 |')
        .and.contain('| `work.iis-pod` | supported | supported |');
    });

    it('deploys each build in its own namespace, pre-pulled, and leaves nothing behind', () => {
      const out = run.output.join('\n');
      expect(out).to.match(/Created namespace wincheck-\w+-ltsc2019 for Windows build 10\.0\.17763 \(ltsc2019\)\./);
      expect(out).to.match(/Deploying \d+ fixture\(s\) for ltsc2019 in wincheck-\w+-ltsc2019: /);
      expect(out).to.match(/Pre-pull: mcr\.microsoft\.com\/windows\/servercore\/iis:windowsservercore-ltsc2019 present on win-2019-1/);
      expect(out).to.not.match(/windowsservercore-ltsc2019 present on win-2022/);
      expect(out).to.match(/Deleted namespace wincheck-\w+-ltsc2019\./);
      expect(run.leftover).to.deep.equal([]);
    });
  });

  it('keeps single-build testcase names unchanged', async () => {
    const run = await runOnSim(['work.iis-pod']);
    expect([...run.results.keys()]).to.deep.equal(['work.iis-pod']);
    expect(Object.values(run.junit).join('\n')).to.contain('name="[sig-windows] workloads work.iis-pod: ');
    expect(run.summaryMd).to.not.contain('## Per Windows build');
  });
});
