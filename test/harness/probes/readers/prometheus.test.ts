// The Prometheus text reader, on the sim's /metrics/resource (written after upstream's collector)
// and on the format's own corner cases.

import { expect } from 'chai';
import { parsePrometheusText } from '../../../../lib/probes/readers/prometheus.ts';
import { resourceMetricsProblems } from '../../../../lib/catalog/res/resourceMetrics.ts';
import { resourceMetrics } from '../../../../sim/runtime/resourceMetrics.ts';

const TEXT = [
  '# HELP pod_memory_working_set_bytes [STABLE] Current working set of the pod in bytes',
  '# TYPE pod_memory_working_set_bytes gauge',
  'pod_memory_working_set_bytes{namespace="ns",pod="a"} 5.0331648e+07 1733130000000',
  'pod_memory_working_set_bytes{namespace="ns",pod="b"} 0 1733130000000',
  'container_cpu_usage_seconds_total{container="c",namespace="ns",pod="a"} 0.5',
  'weird{path="C:\\\\var\\\\log",msg="say \\"hi\\"\\nbye"} 1',
  'resource_scrape_error 0',
  'not a sample line',
].join('\n');

describe('Prometheus text reader', () => {
  it('reads names, labels, values in exponent form, optional timestamps, and skips comments and junk', () => {
    const f = parsePrometheusText(TEXT);
    expect(f.get('pod_memory_working_set_bytes')).to.deep.equal([
      { labels: { namespace: 'ns', pod: 'a' }, value: 50331648 },
      { labels: { namespace: 'ns', pod: 'b' }, value: 0 },
    ]);
    expect(f.get('resource_scrape_error')).to.deep.equal([{ labels: {}, value: 0 }]);
    expect(f.get('weird')![0].labels).to.deep.equal({ path: 'C:\\var\\log', msg: 'say "hi"\nbye' });
    expect([...f.keys()]).to.not.include('not');
  });

  it('res.kubelet-resource-metrics names a pod whose working set is zero and metrics that are absent', () => {
    const f = parsePrometheusText(TEXT);
    expect(resourceMetricsProblems(f, 'ns', ['a', 'b'])).to.deep.equal([
      'container_memory_working_set_bytes for pod a: absent',
      'pod_memory_working_set_bytes for pod b: 0',
      'container_memory_working_set_bytes for pod b: absent',
      'container_cpu_usage_seconds_total for pod b: absent',
    ]);
  });

  it("reads the sim's /metrics/resource back: every family typed, pod and container samples labelled as upstream's collector labels them", () => {
    const t = '2026-12-02T20:00:00Z';
    const text = resourceMetrics({
      node: { cpu: { time: t, usageCoreNanoSeconds: 2e9 }, memory: { time: t, workingSetBytes: 1024 } },
      pods: [
        {
          podRef: { name: 'a', namespace: 'ns' },
          cpu: { time: t, usageCoreNanoSeconds: 5e8 },
          memory: { time: t, workingSetBytes: 4096 },
          containers: [{ name: 'c', startTime: t, cpu: { time: t, usageCoreNanoSeconds: 5e8 }, memory: { time: t, workingSetBytes: 4096 } }],
        },
      ],
    });
    expect(text).to.match(/^# HELP container_cpu_usage_seconds_total \[STABLE\] /);
    expect(text).to.contain('# TYPE pod_memory_working_set_bytes gauge\npod_memory_working_set_bytes{namespace="ns",pod="a"} 4096 1796241600000\n');
    const f = parsePrometheusText(text);
    expect(f.get('node_cpu_usage_seconds_total')).to.deep.equal([{ labels: {}, value: 2 }]);
    expect(f.get('container_cpu_usage_seconds_total')).to.deep.equal([{ labels: { container: 'c', namespace: 'ns', pod: 'a' }, value: 0.5 }]);
    expect(resourceMetricsProblems(f, 'ns', ['a'])).to.deep.equal([]);
  });
});
