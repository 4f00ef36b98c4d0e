// iso.hostprocess-metrics: the counts as upstream's getCurrentHostProcessMetrics sums them, what our
// pods must add, and the expectation where HostProcess containers can and cannot run.

import { expect } from 'chai';
import { loadCatalog } from '../../../../lib/catalog/registry.ts';
import { CAUSED, countsShort, hostProcessCounts } from '../../../../lib/catalog/iso/hostProcessMetrics.ts';
import { parsePrometheusText } from '../../../../lib/probes/readers/prometheus.ts';
import { cluster, linuxNode, winNode } from '../../../support/clusterFixture.ts';

const TEXT = [
  '# HELP kubelet_started_host_process_containers_errors_total [ALPHA] Cumulative number of errors when starting hostprocess containers. This metric will only be collected on Windows.',
  '# TYPE kubelet_started_host_process_containers_errors_total counter',
  'kubelet_started_host_process_containers_errors_total{code="RunContainerError",container_type="container"} 2',
  'kubelet_started_host_process_containers_errors_total{code="ErrImagePull",container_type="container"} 1',
  'kubelet_started_host_process_containers_errors_total{code="RunContainerError",container_type="init_container"} 1',
  '# TYPE kubelet_started_host_process_containers_total counter',
  'kubelet_started_host_process_containers_total{container_type="container"} 7',
  'kubelet_started_host_process_containers_total{container_type="init_container"} 3',
  'kubelet_started_containers_total{container_type="container"} 40',
].join('\n');

describe('iso.hostprocess-metrics', () => {
  it('sums the HostProcess counters by container type (errors over every code), 0 where absent', () => {
    expect(hostProcessCounts(parsePrometheusText(TEXT))).to.deep.equal({ started: 7, startedInit: 3, errors: 3, errorsInit: 1 });
    expect(hostProcessCounts(parsePrometheusText('kubelet_started_containers_total{container_type="container"} 4'))).to.deep.equal({
      started: 0,
      startedInit: 0,
      errors: 0,
      errorsInit: 0,
    });
  });

  it('wants each count to grow by at least what our pods caused', () => {
    const before = { started: 5, startedInit: 1, errors: 0, errorsInit: 0 };
    const after = { started: before.started + CAUSED.started, startedInit: 3, errors: 1, errorsInit: 1 };
    expect(countsShort(before, after)).to.deep.equal([]);
    expect(countsShort(before, { ...after, errorsInit: 0 })).to.deep.equal(['failed init container starts 0 -> 0 (our pods: +1)']);
    expect(countsShort(before, before)).to.have.length(4);
  });

  it('supported where HostProcess containers run (upstream host_process.go cited), n/a on docker', async () => {
    const f = (await loadCatalog()).find(x => x.id === 'iso.hostprocess-metrics')!;
    const on = (runtimeName: string, runtimeVersion: string) =>
      cluster({ nodes: [linuxNode('l'), winNode('w', '10.0.20348', { runtimeName, runtimeVersion })] });
    const e = f.expect(on('containerd', '1.7.22'));
    expect(e.expected).to.equal('supported');
    expect(JSON.stringify(e.source))
      .to.contain('host_process.go')
      .and.to.contain('metrics should report count of started and failed to start HostProcess containers');
    expect(f.expect(on('docker', '20.10.9')).expected).to.equal('n/a');
  });
});
