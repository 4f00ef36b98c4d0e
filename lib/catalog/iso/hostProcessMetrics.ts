// The kubelet's HostProcess start counters (upstream test/e2e/windows/host_process.go "metrics should
// report count of started and failed to start HostProcess containers"): the node's /metrics through
// the API server's node proxy before and after HostProcess pods start there, as upstream's
// getCurrentHostProcessMetrics reads kubelet_started_host_process_containers_total and
// kubelet_started_host_process_containers_errors_total by container_type (errors summed over code).
// Upstream runs two failing pods (an init container, then a container, with runAsUserName
// bad-user-name and command foobar.exe) and wants all four counts to grow; we run those two and a
// good copy of the fixture (init container and container exit 0), and want each count to grow by at
// least what our pods caused. Control: the good copy Succeeded and /metrics answered with the
// kubelet's own families. The kubelet counts an attempt before the start and a failure after it
// (pkg/kubelet/kuberuntime/kuberuntime_manager.go), so a failed start counts in both.

import type { V1Pod } from '@kubernetes/client-node';
import { hostProcessPossible } from '../../discovery/discover.ts';
import { targetWindowsNode } from '../../discovery/nodes.ts';
import { HOST_PROCESS } from '../../facts/kubernetes.ts';
import { cite, sources } from '../../facts/sources.ts';
import { MeansError, refusalMeans } from '../../cluster/meansError.ts';
import { rawGet } from '../../cluster/rawGet.ts';
import { waitForPodFinished } from '../../cluster/podWait.ts';
import { parsePrometheusText, type Sample } from '../../probes/readers/prometheus.ts';
import { NODE_SUMMARY_ACCESS } from '../access.ts';
import { notApplicable, supported } from '../expect.ts';
import { control } from '../kit/observe.ts';
import { createPodLike } from '../kit/podCopy.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';

const FIXTURE = 'hostprocess-metrics';
const SPEC = 'HostProcess containers metrics should report count of started and failed to start HostProcess containers';
/** Upstream's user and command for the containers that must fail to start. */
const BAD_USER = 'bad-user-name';
const BAD_COMMAND = ['foobar.exe'];

export interface HostProcessCounts {
  started: number;
  startedInit: number;
  errors: number;
  errorsInit: number;
}
const LABELS: Record<keyof HostProcessCounts, string> = {
  started: 'started containers',
  startedInit: 'started init containers',
  errors: 'failed container starts',
  errorsInit: 'failed init container starts',
};

/** What our three pods add at least: good (init + container), bad-init (init fails), bad-main (container fails). */
export const CAUSED: HostProcessCounts = { started: 2, startedInit: 2, errors: 1, errorsInit: 1 };

/** The counts as upstream's getCurrentHostProcessMetrics sums them (a metric without samples is 0). */
export function hostProcessCounts(families: Map<string, Sample[]>): HostProcessCounts {
  const sum = (family: string, type: string) => (families.get(family) ?? []).filter(s => s.labels.container_type === type).reduce((a, s) => a + s.value, 0);
  return {
    started: sum('kubelet_started_host_process_containers_total', 'container'),
    startedInit: sum('kubelet_started_host_process_containers_total', 'init_container'),
    errors: sum('kubelet_started_host_process_containers_errors_total', 'container'),
    errorsInit: sum('kubelet_started_host_process_containers_errors_total', 'init_container'),
  };
}

/** The counts that grew by less than our pods caused (empty when every one did). */
export function countsShort(before: HostProcessCounts, after: HostProcessCounts): string[] {
  return (Object.keys(CAUSED) as (keyof HostProcessCounts)[])
    .filter(k => after[k] - before[k] < CAUSED[k])
    .map(k => `${LABELS[k]} ${before[k]} -> ${after[k]} (our pods: +${CAUSED[k]})`);
}

const describeCounts = (c: HostProcessCounts) => `started ${c.started} (init ${c.startedInit}), failed ${c.errors} (init ${c.errorsInit})`;

async function kubeletMetrics(ctx: CheckContext, node: string): Promise<{ families: Map<string, Sample[]>; line: string }> {
  const path = `/api/v1/nodes/${encodeURIComponent(node)}/proxy/metrics`;
  const r = await rawGet(ctx.kube, path, { requestTimeoutMs: 30_000 });
  if (r.status !== 200) {
    const means = refusalMeans(r.status, r.body);
    const message = `GET ${path}: HTTP ${r.status}: ${r.body.slice(0, 200)}`;
    throw means ? new MeansError(means, message) : new Error(message);
  }
  const families = parsePrometheusText(r.body);
  const kubelet = [...families.keys()].filter(k => k.startsWith('kubelet_'));
  return { families, line: `GET ${path}: ${families.size} metric families, ${kubelet.length} of the kubelet's own` };
}

/** How a pod that had to fail to start ended: the container's terminated reason and the kubelet's Failed event. */
function endOf(p: V1Pod, init: boolean): string {
  const s = (init ? p.status?.initContainerStatuses : p.status?.containerStatuses)?.[0];
  const t = s?.state?.terminated;
  return `pod ${p.metadata?.name} ${p.status?.phase}; ${init ? 'init container' : 'container'} ${s?.name ?? '?'}: ${
    t ? `terminated ${t.reason ?? ''} exit ${t.exitCode}${t.message ? ` (${t.message.slice(0, 300)})` : ''}` : 'not terminated'
  }`;
}

async function hostProcessMetricsProbe(ctx: CheckContext): Promise<Observation> {
  const fixture = ctx.fixture(FIXTURE);
  const node = fixture.node ?? ctx.windowsNode?.name;
  if (!node) throw new Error(`fixture ${FIXTURE} is not pinned to a node`);
  const finished = (name: string) => waitForPodFinished(ctx.kube, ctx.namespace, name, ctx.options.timeouts.podStart, { signal: ctx.signal });
  // The fixture runs to completion before the first read (and has the image on the node).
  ctx.step(`waiting for HostProcess pod ${FIXTURE} (init container and container exit 0) to finish`);
  const first = await finished(FIXTURE);
  // A HostProcess pod that only exits 0 and fails: HostProcess containers do not run on the node.
  if (first.status?.phase !== 'Succeeded')
    return {
      works: false,
      summary: `HostProcess pod ${FIXTURE} (init container and container exit 0) did not run on ${node}: ${first.status?.phase}`,
      evidence: [endOf(first, true), endOf(first, false)],
      node,
    };

  ctx.step(`reading ${node}'s kubelet /metrics before`);
  const before = await kubeletMetrics(ctx, node);
  const b = hostProcessCounts(before.families);

  ctx.step(`creating on ${node}: ${FIXTURE}-good (a copy), ${FIXTURE}-bad-init and ${FIXTURE}-bad-main (runAsUserName ${BAD_USER}, ${BAD_COMMAND.join(' ')})`);
  const badUser = { windowsOptions: { runAsUserName: BAD_USER } };
  await Promise.all([
    createPodLike(ctx, FIXTURE, `${FIXTURE}-good`, () => undefined),
    createPodLike(ctx, FIXTURE, `${FIXTURE}-bad-init`, p => {
      const init = p.spec!.initContainers![0];
      Object.assign(init, { command: BAD_COMMAND, securityContext: badUser });
    }),
    createPodLike(ctx, FIXTURE, `${FIXTURE}-bad-main`, p => {
      delete p.spec!.initContainers;
      Object.assign(p.spec!.containers[0], { command: BAD_COMMAND, securityContext: badUser });
    }),
  ]);
  const [good, badInit, badMain] = await Promise.all([finished(`${FIXTURE}-good`), finished(`${FIXTURE}-bad-init`), finished(`${FIXTURE}-bad-main`)]);

  ctx.step(`reading ${node}'s kubelet /metrics after`);
  const after = await kubeletMetrics(ctx, node);
  const a = hostProcessCounts(after.families);
  const codes = (after.families.get('kubelet_started_host_process_containers_errors_total') ?? []).map(
    s => `${s.labels.container_type}/${s.labels.code}=${s.value}`,
  );
  const evidence: EvidenceItem[] = [
    `before: ${describeCounts(b)}`,
    `after: ${describeCounts(a)}; errors by type/code: ${codes.join(', ') || 'none'}`,
    endOf(good, false),
    endOf(badInit, true),
    endOf(badMain, false),
    before.line,
  ];
  const ctl = control(
    good.status?.phase === 'Succeeded' && [...after.families.keys()].some(k => k.startsWith('kubelet_')),
    good.status?.phase === 'Succeeded'
      ? `HostProcess pod ${FIXTURE}-good Succeeded on ${node}; ${after.line}`
      : `HostProcess pod ${FIXTURE}-good did not succeed: ${endOf(good, false)}`,
  );
  const ranBad = [badInit, badMain].filter(p => p.status?.phase === 'Succeeded').map(p => p.metadata?.name);
  if (ranBad.length)
    return {
      works: false,
      summary: `${ranBad.join(' and ')} (runAsUserName ${BAD_USER}, ${BAD_COMMAND.join(' ')}) ran to success on ${node}: no failed HostProcess start to count`,
      evidence,
      node,
      control: ctl,
    };
  const short = countsShort(b, a);
  return short.length
    ? {
        works: false,
        summary: `${node}'s kubelet /metrics did not count our HostProcess starts: ${short.join('; ')}`,
        evidence,
        node,
        control: ctl,
      }
    : {
        works: true,
        summary: `${node}'s kubelet counted our HostProcess starts and failed starts (containers and init containers) in kubelet_started_host_process_containers_total and _errors_total`,
        evidence,
        node,
        control: ctl,
      };
}

export const features: Feature[] = [
  {
    id: 'iso.hostprocess-metrics',
    area: 'isolation',
    title: "The kubelet's /metrics counts started and failed-to-start HostProcess containers and init containers",
    access: NODE_SUMMARY_ACCESS,
    needs: ['windows-node'],
    fixtures: [{ id: FIXTURE, template: 'hostprocess-metrics', os: 'windows', pin: 'node' }],
    expect: c => {
      const node = targetWindowsNode(c.nodes);
      const hp = hostProcessPossible(c.version, node ? [node] : []);
      return node && hp.ok
        ? supported(
            `the kubelet counts HostProcess container starts and failed starts by container type (kubelet_started_host_process_containers_total, _errors_total; since v1.23, KEP-1981): ${hp.reason}`,
            sources(cite.e2eTest('host_process.go', SPEC), cite.kep(1981)),
          )
        : notApplicable(`HostProcess containers cannot run on the target node: ${hp.reason}`, sources(HOST_PROCESS.source));
    },
    probe: hostProcessMetricsProbe,
  },
];
