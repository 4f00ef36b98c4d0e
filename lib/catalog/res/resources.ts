// Resources and metrics (the Windows docs (https://kubernetes.io/docs/concepts/windows/intro/) "Resources and metrics"): limits, CPU enforcement in the
// kubelet's stats, no OOM killer, node reservations, the summary API and metrics.k8s.io.

import { permissions } from '../../cluster/permission.ts';
import { NODE_SUMMARY_ACCESS } from '../access.ts';
import type { V1Deployment } from '@kubernetes/client-node';
import { MeansError, podStartMeans, refusalMeans } from '../../cluster/meansError.ts';
import { isNoRoom } from '../../cluster/podFailures.ts';
import { rawGet } from '../../cluster/rawGet.ts';
import type { RenderedFixture } from '../../fixtures/types.ts';
import { WaitTimeoutError } from '../../cluster/watch.ts';
import { windowsNodes } from '../../discovery/nodes.ts';
import { limited, notApplicable, supported } from '../expect.ts';
import { pause } from '../../../util/pause.ts';
import { control, meansOfWorkload } from '../kit/observe.ts';
import { fixturePodReady, throwIfNoPodMade, waitForPodSet } from '../kit/podWaits.ts';
import { whileFixtureControllerActs } from '../kit/controllerActs.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { parseQuantity } from '../../../util/quantity.ts';
import { formatBytes } from '../kit/formatBytes.ts';
import { kubeletSummary, podStatsOf, summaryUntil } from '../kit/kubeletStats.ts';
import { listAll } from '../../cluster/list.ts';
import { cite, sources } from '../../facts/sources.ts';
/** Recommended system reservation on Windows nodes (the v1.22 Windows intro (https://v1-22.docs.kubernetes.io/docs/setup/production-environment/windows/intro-windows-in-kubernetes/): "at least 2GB"). */
const RECOMMENDED_RESERVED = 2 * 2 ** 30;
/** Kubelet stats come from periodic housekeeping (10-15 s): a new pod may take that long to show. */
const STATS_DEADLINE_MS = 30_000;
/** metrics-server scrapes every 15-60 s: a new pod's metrics may take a full resolution to appear. */
const METRICS_DEADLINE_MS = 60_000;
/** Spacing of stats samples: these are measurements over time, not a wait for a state. */
const SAMPLE_INTERVAL_MS = 2_000;
/** CPU samples taken of the burner. */
const CPU_SAMPLES = 3;
/** The burners' CPU limit (fixtures/cpu-burner.yaml), written both ways upstream writes it. */
const BURNER_LIMIT_NANOCORES = 500e6;
const BURNERS = [
  { pod: 'cpu-burner', limit: '500m' },
  { pod: 'cpu-burner-decimal', limit: '0.5' },
] as const;
/**
 * The most a 0.5-core burner may show: upstream's cpu_limits.go fails at 0.8 × 1.05 cores, because
 * Windows job objects can run over their limit for a while
 * (https://github.com/kubernetes/kubernetes/blob/master/test/e2e/windows/cpu_limits.go,
 * https://github.com/kubernetes/kubernetes/issues/124643).
 */
const UPSTREAM_CEILING_NANOCORES = 0.8 * 1.05 * 1e9;
const CPU_LIMIT_FLAKE = cite.k8sIssue(124643, 'Cpu Resources Container limits test is flaky for Windows on containerd 1.7', 'v1.30');

/** A stats/metrics deadline, never longer than the run allows a pod to start (config timeouts.podStart). */
const within = (ctx: CheckContext, ms: number) => Math.min(ms, ctx.options.timeouts.podStart);

/** The first container's cpu and memory limits as rendered. */
function limitsOf(f: RenderedFixture): { cpu: number; memory: number } {
  const d = f.objects.find(o => o.kind === 'Deployment') as V1Deployment | undefined;
  const l = d?.spec?.template.spec?.containers[0]?.resources?.limits ?? {};
  return { cpu: parseQuantity(l.cpu) ?? 0, memory: parseQuantity(l.memory) ?? 0 };
}

async function limitsProbe(ctx: CheckContext): Promise<Observation> {
  // The v1.9 guide's limits (memory 128Mi, cpu 2), unless the harness sized them down to fit the nodes.
  const fixture = ctx.fixture('deploy-resource');
  const want = limitsOf(fixture);
  const wantText = `limits memory ${formatBytes(want.memory)}, cpu ${+want.cpu.toFixed(3)}`;
  ctx.step(`waiting for the 3 replicas of deploy-resource (${wantText}) to be Ready (or unschedulable for lack of CPU/memory)`);
  const evidence: EvidenceItem[] = [];
  let pods;
  try {
    pods = await whileFixtureControllerActs(ctx, fixture, () => waitForPodSet(ctx, 'app=deploy-resource', 3, ctx.options.timeouts.rollout));
  } catch (e) {
    if (!(e instanceof WaitTimeoutError)) throw e;
    await throwIfNoPodMade(ctx, 'app=deploy-resource', 'Deployment deploy-resource', e);
    const means = await meansOfWorkload(ctx, 'app=deploy-resource', 'deployment deploy-resource');
    if (means) throw means;
    return { works: false, summary: e.message, evidence: [e.message] };
  }
  const ready = pods.filter(p => p.state === 'ready');
  const failed = pods.filter(p => p.state === 'failed');
  // cpu: 2 per replica needs 6 CPUs: on small Windows nodes the scheduler rightly leaves some
  // Pending ("Insufficient cpu"), which shows the limits were accounted, not refused.
  const noRoom = pods.filter(p => p.state === 'unschedulable' && /Insufficient (cpu|memory)/i.test(p.message));
  const otherPending = pods.filter(p => p.state === 'unschedulable' && !noRoom.includes(p));
  for (const p of pods) {
    const c = p.pod.spec?.containers[0];
    evidence.push(
      `pod ${p.pod.metadata?.name}${p.pod.spec?.nodeName ? ` on ${p.pod.spec.nodeName}` : ''}: ${p.state}${p.state === 'failed' ? ` (${p.reason})` : p.state === 'unschedulable' ? ` (${p.message})` : ''}; limits ${JSON.stringify(c?.resources?.limits ?? {})}`,
    );
  }
  const limitsKept = ready.every(p => {
    const l = p.pod.spec?.containers[0]?.resources?.limits ?? {};
    return parseQuantity(l.memory) === want.memory && parseQuantity(l.cpu) === want.cpu;
  });
  const node = ready[0]?.pod.spec?.nodeName ?? failed[0]?.pod.spec?.nodeName;
  for (const f of failed) {
    // A pull that failed says nothing about limits: the harness's means.
    const means = f.state === 'failed' ? podStartMeans(f.reason.split(':')[0], f.reason) : undefined;
    if (means)
      throw new MeansError(means, `pod ${f.pod.metadata?.name} of deploy-resource did not start: ${f.state === 'failed' ? f.reason : ''}`, {
        pod: f.pod.metadata,
      });
  }
  if (failed.length)
    return {
      works: false,
      summary: `${failed.length} pod(s) with ${wantText} failed to start: ${failed.map(f => (f.state === 'failed' ? f.reason : '')).join('; ')}`,
      evidence,
      node,
    };
  // Unschedulable for another reason than the limits' own CPU/memory: no pod slots left ("Too
  // many pods", "Insufficient pods": the nodes' capacity) or the harness's placement.
  if (otherPending.length) {
    const messages = otherPending.map(p => (p.state === 'unschedulable' ? p.message : ''));
    const full = messages.every(m => isNoRoom(m));
    throw new MeansError(
      full ? 'capacity' : 'scheduling',
      `${otherPending.length} pod(s) of deploy-resource unschedulable for another reason than their CPU/memory limits: ${messages.join('; ')}`,
    );
  }
  if (!ready.length) return { works: false, summary: 'no replica became Ready', evidence, node };
  if (!limitsKept) return { works: false, summary: `the running pods do not carry ${wantText}`, evidence, node };
  return {
    works: true,
    summary: `${ready.length} replica(s) Ready with ${wantText}${noRoom.length ? `; ${noRoom.length} Pending for lack of CPU/memory (limits accounted by the scheduler)` : ''}`,
    evidence,
    node,
  };
}

/** Samples one burner's container in its node's summary; throws when the stats never show it. */
async function burnerSamples(ctx: CheckContext, pod: string, node: string): Promise<number[]> {
  const samples: number[] = [];
  const deadline = Date.now() + within(ctx, STATS_DEADLINE_MS) + CPU_SAMPLES * SAMPLE_INTERVAL_MS;
  while (samples.length < CPU_SAMPLES && Date.now() < deadline) {
    const s = await kubeletSummary(ctx, node);
    const c = podStatsOf(s, ctx.namespace, pod)?.containers?.find(x => x.name === 'burner');
    if (typeof c?.cpu?.usageNanoCores === 'number') samples.push(c.cpu.usageNanoCores);
    if (samples.length < CPU_SAMPLES) await pause(SAMPLE_INTERVAL_MS, ctx.signal);
  }
  if (samples.length < CPU_SAMPLES)
    throw new Error(
      `the kubelet summary of ${node} gave ${samples.length} CPU sample(s) of ${pod} within ${Math.round(within(ctx, STATS_DEADLINE_MS) / 1000)}s; see res.stats`,
    );
  return samples;
}

async function cpuLimitProbe(ctx: CheckContext): Promise<Observation> {
  const fmt = (n: number) => `${Math.round(n / 1e6)}m`;
  // Upstream starts one burner per spelling of the limit ("500m" and "0.5"): both must hold.
  const ready = await Promise.all(BURNERS.map(b => fixturePodReady(ctx, b.pod, `pod ${b.pod} (a busy loop under a ${b.limit} limit)`)));
  const pods = [];
  for (const r of ready) {
    if (!r.ok) return r.observation;
    pods.push(r.pod);
  }
  const nodes = pods.map(p => p.spec!.nodeName!);
  ctx.step(`sampling the burners' CPU in /stats/summary of ${[...new Set(nodes)].join(', ')} ${CPU_SAMPLES} times`);
  const samples = await Promise.all(BURNERS.map((b, i) => burnerSamples(ctx, b.pod, nodes[i])));
  const evidence: EvidenceItem[] = BURNERS.map(
    (b, i) =>
      `GET /api/v1/nodes/${nodes[i]}/proxy/stats/summary: pod ${b.pod} container burner usageNanoCores ${samples[i].map(fmt).join(', ')} (limit ${b.limit})`,
  );
  const over: string[] = [];
  const maxima: string[] = [];
  BURNERS.forEach((b, i) => {
    const max = Math.max(...samples[i]);
    if (max < BURNER_LIMIT_NANOCORES / 4)
      throw new Error(`the busy loop of ${b.pod} used at most ${fmt(max)}: it is not burning, so the ${b.limit} limit cannot be judged`);
    maxima.push(`${b.pod} (${b.limit}) max ${fmt(max)}`);
    if (max >= UPSTREAM_CEILING_NANOCORES) over.push(`${b.pod} (limit ${b.limit}) used ${fmt(max)}`);
  });
  const ceiling = fmt(UPSTREAM_CEILING_NANOCORES);
  return over.length
    ? { works: false, summary: `${over.join('; ')}: at or over ${ceiling}, the most upstream's e2e allows a 500m limit`, evidence, node: nodes[0] }
    : { works: true, summary: `both burners stayed under ${ceiling} (upstream's bound for a 500m limit): ${maxima.join(', ')}`, evidence, node: nodes[0] };
}

async function memoryProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, 'memory-hog', 'pod memory-hog (512Mi limit)');
  if (!r.ok) return r.observation;
  const node = r.pod.spec?.nodeName;
  const restartsBefore = r.pod.status?.containerStatuses?.[0]?.restartCount ?? 0;
  ctx.step('allocating 1GB inside the container (twice its limit)');
  const t = ctx.podTransport('memory-hog', 'windows');
  let res;
  let execError: string | undefined;
  let execFailure: unknown;
  try {
    res = await ctx.probe(t, { kind: 'node-command', script: '$a = New-Object byte[] 1GB; Write-Output ("allocated " + $a.Length)' });
  } catch (e) {
    // A killed container takes its exec session with it.
    execError = (e as Error).message;
    execFailure = e;
  }
  const pod = await ctx.kube.core.readNamespacedPod({ namespace: ctx.namespace, name: 'memory-hog' });
  const cs = pod.status?.containerStatuses?.[0];
  const terminated = cs?.lastState?.terminated ?? cs?.state?.terminated;
  const oomKilled = terminated?.reason === 'OOMKilled' || res?.evidence.exitCode === 137 || (cs?.restartCount ?? 0) > restartsBefore;
  const evidence: EvidenceItem[] = [
    ...(res ? [res.evidence] : [`exec failed: ${execError}`]),
    `container hog after the allocation: restarts ${cs?.restartCount ?? 0} (was ${restartsBefore}), ${terminated ? `last terminated ${terminated.reason} exit ${terminated.exitCode}` : 'never terminated'}`,
  ];
  // An exec that failed while the container lives on was the harness's exec, not the OOM killer.
  if (!oomKilled && execFailure !== undefined) throw execFailure;
  // Control: the container was killed, or the 1GB allocation demonstrably ran over its limit.
  const allocated = /allocated 1073741824/.test(res?.evidence.stdout ?? '');
  const ran = control(
    oomKilled || allocated,
    oomKilled
      ? 'the container was seen terminated after the allocation'
      : allocated
        ? 'the container allocated 1GB (twice its limit) and printed it'
        : `the allocation did not report itself (exit ${res?.evidence.exitCode ?? 'n/a'}): it may not have run`,
  );
  return oomKilled
    ? {
        works: true,
        control: ran,
        summary: `going over the 512Mi limit killed the container (${terminated?.reason ?? `exit ${res?.evidence.exitCode}`}), as Linux's OOM killer does`,
        evidence,
        node,
      }
    : {
        control: ran,
        works: false,
        summary: `going over the 512Mi limit did not kill the container (exec exit ${res?.evidence.exitCode ?? 'n/a'}, restarts ${cs?.restartCount ?? 0})`,
        evidence,
        node,
      };
}

async function nodeReservedProbe(ctx: CheckContext): Promise<Observation> {
  ctx.step('reading capacity and allocatable of every Windows node');
  const list = await listAll(q => ctx.kube.core.listNode({ labelSelector: 'kubernetes.io/os=windows', ...q }));
  const evidence: EvidenceItem[] = [];
  const none: string[] = [];
  const low: string[] = [];
  for (const n of list.items) {
    const name = n.metadata?.name ?? '';
    const cap = parseQuantity(n.status?.capacity?.memory);
    const alloc = parseQuantity(n.status?.allocatable?.memory);
    const capCpu = parseQuantity(n.status?.capacity?.cpu);
    const allocCpu = parseQuantity(n.status?.allocatable?.cpu);
    if (cap === undefined || alloc === undefined) {
      none.push(`${name} (no memory capacity/allocatable)`);
      continue;
    }
    const reserved = cap - alloc;
    evidence.push(
      `node ${name}: memory capacity ${formatBytes(cap)}, allocatable ${formatBytes(alloc)}, reserved ${formatBytes(reserved)}; cpu capacity ${capCpu ?? '?'}, allocatable ${allocCpu ?? '?'}`,
    );
    if (reserved <= 0) none.push(name);
    else if (reserved < RECOMMENDED_RESERVED) low.push(`${name} reserves ${formatBytes(reserved)}`);
  }
  if (!list.items.length) throw new Error('no Windows node was listed');
  const warning = low.length ? `; warning: under the recommended 2Gi: ${low.join(', ')}` : '';
  return none.length
    ? {
        works: false,
        summary: `allocatable memory equals capacity on ${none.join(', ')}: nothing reserved for the OS, kubelet and runtime${warning}`,
        evidence,
        node: none[0],
      }
    : { works: true, summary: `every Windows node reserves memory (allocatable < capacity)${warning}`, evidence, node: list.items[0]?.metadata?.name };
}

async function statsProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, 'stats-pod');
  if (!r.ok) return r.observation;
  const node = r.pod.spec!.nodeName!;
  ctx.step(`GET /api/v1/nodes/${node}/proxy/stats/summary until stats-pod shows`);
  const { value: pod, last } = await summaryUntil(ctx, node, within(ctx, STATS_DEADLINE_MS), s => podStatsOf(s, ctx.namespace, 'stats-pod'));
  const n = last?.node;
  const problems: string[] = [];
  if (typeof n?.cpu?.usageNanoCores !== 'number') problems.push('node cpu.usageNanoCores missing');
  if (typeof n?.memory?.workingSetBytes !== 'number') problems.push('node memory.workingSetBytes missing');
  if (!pod) problems.push(`pod ${ctx.namespace}/stats-pod missing (${last?.pods?.length ?? 0} pod(s) listed)`);
  else {
    const c = pod.containers?.[0];
    if (!c) problems.push('no container stats for stats-pod');
    else {
      if (typeof c.cpu?.usageCoreNanoSeconds !== 'number' && typeof c.cpu?.usageNanoCores !== 'number') problems.push(`container ${c.name}: no cpu stats`);
      if (typeof c.memory?.workingSetBytes !== 'number') problems.push(`container ${c.name}: no memory.workingSetBytes`);
    }
  }
  const evidence: EvidenceItem[] = [
    `node ${n?.nodeName ?? node}: cpu ${n?.cpu?.usageNanoCores ?? 'absent'} nanocores, working set ${n?.memory?.workingSetBytes ?? 'absent'} bytes; ${last?.pods?.length ?? 0} pod(s)`,
    pod
      ? `pod stats-pod: containers ${JSON.stringify((pod.containers ?? []).map(c => ({ name: c.name, cpu: c.cpu?.usageNanoCores, workingSet: c.memory?.workingSetBytes })))}`
      : 'pod stats-pod: absent',
  ];
  return problems.length
    ? { works: false, summary: `the summary API of ${node} lacks ${problems.join('; ')}`, evidence, node }
    : { works: true, summary: `node, pod and container CPU/memory stats of ${node} are served`, evidence, node };
}

async function metricsProbe(ctx: CheckContext): Promise<Observation> {
  const r = await fixturePodReady(ctx, 'metrics-pod');
  if (!r.ok) return r.observation;
  const node = r.pod.spec!.nodeName!;
  const podPath = `/apis/metrics.k8s.io/v1beta1/namespaces/${ctx.namespace}/pods/metrics-pod`;
  const nodePath = `/apis/metrics.k8s.io/v1beta1/nodes/${node}`;
  ctx.step(`GET ${nodePath} and ${podPath} until both answer`);
  const deadline = Date.now() + within(ctx, METRICS_DEADLINE_MS);
  let p, n;
  for (;;) {
    [n, p] = await Promise.all([rawGet(ctx.kube, nodePath, { requestTimeoutMs: 30_000 }), rawGet(ctx.kube, podPath, { requestTimeoutMs: 30_000 })]);
    if ((n.status === 200 && p.status === 200) || Date.now() + SAMPLE_INTERVAL_MS * 2 > deadline) break;
    await pause(SAMPLE_INTERVAL_MS * 2, ctx.signal);
  }
  // A refusal (403, the kubelet unreachable) is the harness's means failing, not missing metrics.
  for (const [path, x] of [
    [nodePath, n],
    [podPath, p],
  ] as const) {
    const means = x.status === 200 ? undefined : refusalMeans(x.status, x.body);
    if (means) throw new MeansError(means, `GET ${path}: HTTP ${x.status}: ${x.body.slice(0, 200)}`);
  }
  const usage = (body: string) => {
    try {
      return JSON.stringify((JSON.parse(body) as { usage?: unknown; containers?: unknown }).usage ?? (JSON.parse(body) as { containers?: unknown }).containers);
    } catch {
      return body.slice(0, 200);
    }
  };
  const evidence: EvidenceItem[] = [
    `GET ${nodePath}: HTTP ${n.status} ${n.status === 200 ? usage(n.body) : n.body.slice(0, 200)}`,
    `GET ${podPath}: HTTP ${p.status} ${p.status === 200 ? usage(p.body) : p.body.slice(0, 200)}`,
  ];
  const works = n.status === 200 && p.status === 200;
  return {
    works,
    summary: works
      ? `metrics.k8s.io serves Windows node ${node} and pod metrics-pod`
      : `metrics.k8s.io lacks ${[n.status !== 200 ? `node ${node}` : '', p.status !== 200 ? 'pod metrics-pod' : ''].filter(Boolean).join(' and ')} within ${Math.round(within(ctx, METRICS_DEADLINE_MS) / 1000)}s`,
    evidence,
    node,
  };
}

export const features: Feature[] = [
  {
    id: 'res.limits',
    area: 'resources',
    title: 'A Deployment with limits memory 128Mi, cpu 2 is accepted; its pods run',
    access: NODE_SUMMARY_ACCESS,
    needs: ['windows-node'],
    fixtures: [{ id: 'deploy-resource', template: 'deploy-resource', os: 'windows', sizeToNode: true }],
    expect: () => supported('CPU and memory limits are supported for Windows containers since v1.10', sources(cite.v19Guide('deploy-resource'), cite.intro())),
    probe: limitsProbe,
  },
  {
    id: 'res.cpu-limit-enforced',
    area: 'resources',
    title: 'CPU burners limited to 500m and 0.5 stay under their limit in the kubelet stats',
    access: NODE_SUMMARY_ACCESS,
    needs: ['windows-node'],
    fixtures: [
      { id: 'cpu-burner', template: 'cpu-burner', os: 'windows', params: { cpu: '500m' } },
      { id: 'cpu-burner-decimal', template: 'cpu-burner', os: 'windows', params: { cpu: '0.5' } },
    ],
    expect: () =>
      supported(
        "Windows job objects cap a container's CPU near its limit, the kubelet reports it in /stats/summary; a 0.5 limit may show up to 0.84 cores, as upstream allows",
        sources(
          cite.e2eTest('cpu_limits.go', 'Container limits should not be exceeded after waiting 2 minutes: 0.5 and 500m, under 0.8 × 1.05 cores'),
          CPU_LIMIT_FLAKE,
        ),
      ),
    probe: cpuLimitProbe,
  },
  {
    id: 'res.memory-no-oomkill',
    area: 'resources',
    title: 'Going over a memory limit pages instead of being OOMKilled',
    access: NODE_SUMMARY_ACCESS,
    needs: ['windows-node'],
    fixtures: [{ id: 'memory-hog', template: 'memory-hog', os: 'windows' }],
    expect: () =>
      limited(
        'Windows has no OOM killer: over-limit memory is paged to disk, the container is not killed',
        sources(cite.v122Intro('memory reservations'), cite.intro()),
      ),
    probe: memoryProbe,
  },
  {
    id: 'res.node-reserved',
    area: 'resources',
    title: 'Node allocatable below capacity (>= 2Gi reserved recommended)',
    needs: ['windows-node'],
    fixtures: [],
    expect: c => {
      const win = windowsNodes(c.nodes);
      const low = win
        .filter(n => {
          const cap = parseQuantity(n.capacity.memory);
          const alloc = parseQuantity(n.allocatable.memory);
          return cap !== undefined && alloc !== undefined && cap - alloc < RECOMMENDED_RESERVED;
        })
        .map(n => n.name);
      return supported(
        `--system-reserved/--kube-reserved lower allocatable; at least 2Gi is the documented best practice${low.length ? ` (discovery: under 2Gi on ${low.join(', ')})` : ''}`,
        sources(cite.v122Intro('memory reservations'), cite.intro()),
      );
    },
    probe: nodeReservedProbe,
  },
  {
    id: 'res.stats',
    area: 'resources',
    title: 'Pod/container/node stats from the kubelet summary API',
    access: NODE_SUMMARY_ACCESS,
    needs: ['windows-node'],
    fixtures: [{ id: 'stats-pod', template: 'windows-pause', os: 'windows', params: { selectorKey: 'kubernetes.io/os' } }],
    expect: () => supported('the Windows kubelet serves /stats/summary from CRI and winstats', sources(cite.v19Guide('metrics'), cite.intro())),
    probe: statsProbe,
  },
  {
    id: 'res.metrics-api',
    area: 'resources',
    title: 'metrics.k8s.io has Windows pods and nodes',
    access: [...permissions('metrics.k8s.io', 'pods', ['get'], 'namespace'), ...permissions('metrics.k8s.io', 'nodes', ['get'], 'cluster')],
    needs: ['windows-node', 'metrics-server'],
    fixtures: [{ id: 'metrics-pod', template: 'windows-pause', os: 'windows', params: { selectorKey: 'kubernetes.io/os' } }],
    expect: c =>
      c.metricsServer
        ? supported("metrics-server scrapes the Windows kubelets' summary API", sources(cite.intro(), cite.intro('metrics')))
        : notApplicable('metrics.k8s.io is not served (no metrics-server)', [cite.intro()]),
    probe: metricsProbe,
  },
];
