// iso.hostprocess-stats: the pod and container stats upstream's ensurePodsStatsOnNode requires
// above zero, and the expectation where HostProcess containers can and cannot run.

import { expect } from 'chai';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import { hostProcessStatsProblems } from '../../../../lib/catalog/iso/hostProcessStats.ts';
import type { PodStats } from '../../../../lib/catalog/kit/kubeletStats.ts';
import { cluster, linuxNode, winNode } from '../../../support/clusterFixture.ts';

const pod = (container: Partial<NonNullable<PodStats['containers']>[number]> | undefined): PodStats => ({
  podRef: { name: 'hostprocess-stats', namespace: 'ns' },
  cpu: { usageCoreNanoSeconds: 120_000_000 },
  memory: { workingSetBytes: 30 * 2 ** 20 },
  containers: container ? [{ name: 'host-process-stats', ...container }] : [],
});

describe('iso.hostprocess-stats', () => {
  it('wants pod CPU and working set, and container CPU, working set and log usage, above zero', () => {
    const full = { cpu: { usageCoreNanoSeconds: 1 }, memory: { workingSetBytes: 1 }, logs: { usedBytes: 6 } };
    expect(hostProcessStatsProblems(pod(full))).to.deep.equal([]);
    expect(hostProcessStatsProblems(undefined)).to.deep.equal(['the pod is not listed']);
    expect(hostProcessStatsProblems(pod(undefined))).to.deep.equal(['no container stats']);
    expect(hostProcessStatsProblems(pod({ ...full, logs: { usedBytes: 0 } }))).to.deep.equal(['container host-process-stats: logs.usedBytes 0']);
    expect(hostProcessStatsProblems({ ...pod(full), cpu: {} })).to.deep.equal(['pod cpu.usageCoreNanoSeconds absent']);
  });

  it('supported where HostProcess containers run, n/a on docker', async () => {
    const f = (await loadCatalog()).find(x => x.id === 'iso.hostprocess-stats')!;
    const on = (runtimeName: string, runtimeVersion: string) =>
      cluster({ nodes: [linuxNode('l'), winNode('w', '10.0.20348', { runtimeName, runtimeVersion })] });
    expect(f.expect(on('containerd', '1.7.22')).expected).to.equal('supported');
    expect(JSON.stringify(f.expect(on('containerd', '1.7.22')).source)).to.contain('host_process.go');
    expect(f.expect(on('docker', '20.10.9')).expected).to.equal('n/a');
  });
});
