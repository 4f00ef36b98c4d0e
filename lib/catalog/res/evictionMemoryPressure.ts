// res.eviction-memory-pressure: upstream's "Eviction [Serial] [Slow] [Disruptive] should evict a
// pod when a node experiences memory pressure" (test/e2e/windows/eviction.go). On the
// --disruptive-node only: its kubelet's /configz gives the hard eviction threshold for
// memory.available (none: n/a, as upstream skips "No Windows nodes with hard memory-pressure
// eviction found"); once the node has no MemoryPressure, pod1 (resource-consumer, requests 500Mi,
// `testlimit.exe -accepteula -d 100Mb -e 5 20000s -c 5`) runs and allocates its 5 x 100 MB (the
// positive control, read from the kubelet's /stats/summary), then pod2 (`-d 300Mb -e 1 20000s -c N`,
// N = (capacity - threshold) / 300Mi + 3) eats the rest of the node's memory. The kubelet's
// eviction manager must report the node condition MemoryPressure True and evict a consumer pod:
// phase Failed, reason "Evicted", message "The node was low on resource: memory. ..." (pkg/kubelet/
// eviction/helpers.go), with the Warning event Evicted upstream looks for. Every pod it made is
// deleted, then the check waits for the node to report MemoryPressure False again (the kubelet
// keeps it evictionPressureTransitionPeriod, 5 min by default) and for the memory-pressure taint to
// go, as upstream waits for all nodes schedulable, so the rest of the run finds the node as it was.

import type { CoreV1Event, V1Node, V1Pod } from '@kubernetes/client-node';
import { createObject } from '../../cluster/create.ts';
import { listAll } from '../../cluster/list.ts';
import { permissions } from '../../cluster/permission.ts';
import { PodStartError } from '../../cluster/podWait.ts';
import { seenBeforeEnd, watchUntil, WaitTimeoutError } from '../../cluster/watch.ts';
import { cite, sources } from '../../facts/sources.ts';
import { parseQuantity } from '../../../util/quantity.ts';
import { NODE_SUMMARY_ACCESS } from '../access.ts';
import { supported } from '../expect.ts';
import { configzPath, readKubeletConfigz } from '../kit/configz.ts';
import { formatBytes } from '../kit/formatBytes.ts';
import { podStatsOf, summaryUntil } from '../kit/kubeletStats.ts';
import { control, meansOfStart } from '../kit/observe.ts';
import { podOnNode } from '../node/hostShutdown.ts';
import type { CheckContext, EvidenceItem, Feature, Observation } from '../types.ts';
import { memoryThreshold, type KubeletMemoryConfig } from './allocatable.ts';

const SPEC = cite.e2eTest('eviction.go', 'Eviction [Serial] [Slow] [Disruptive] should evict a pod when a node experiences memory pressure');
const HELPERS = cite.k8s(
  'pkg/kubelet/eviction/helpers.go',
  'Reason = "Evicted"; nodeLowMessageFmt = "The node was low on resource: %v. "; thresholdMetMessageFmt = "Threshold quantity: %v, available: %v. "; PodIsEvicted: phase Failed and reason Evicted',
);
const CONDITION = cite.k8s(
  'pkg/kubelet/nodestatus/setters.go',
  'MemoryPressureCondition: True, reason KubeletHasInsufficientMemory, "kubelet has insufficient memory available"',
);
/** imageutils.ResourceConsumer: Testlimit64.exe as C:\bin\testlimit.exe (test/images/resource-consumer/Dockerfile_windows). */
export const RESOURCE_CONSUMER = 'registry.k8s.io/e2e-test-images/resource-consumer:1.13';
const MI = 2 ** 20;
export const EVICTED_REASON = 'Evicted';
export const LOW_ON_MEMORY = 'The node was low on resource: memory. ';
const POD1 = 'memory-pressure-pod1';
const POD2 = 'memory-pressure-pod2';
/** Upstream pod1: 5 allocations of 100 MB. */
const POD1_BYTES = 5 * 100 * MI;
/** How long pod1's 5 allocations 5 s apart may take to show in the kubelet's stats. */
const CONTROL_MS = 2 * 60_000;

type Condition = { status?: string; reason?: string; message?: string };
const memoryPressureOf = (n: V1Node): Condition | undefined => n.status?.conditions?.find(c => c.type === 'MemoryPressure');
const taintedOf = (n: V1Node) => (n.spec?.taints ?? []).some(t => t.key === 'node.kubernetes.io/memory-pressure' && t.effect === 'NoSchedule');
const condLine = (c: Condition | undefined) =>
  c ? `MemoryPressure ${c.status} (${c.reason ?? '-'}: ${JSON.stringify(c.message ?? '')})` : 'no MemoryPressure condition';

/** Upstream's chunk count of pod2: (capacity - hard threshold) / 300Mi + 3. */
export function pod2Chunks(capacity: number, threshold: number): number {
  return Math.floor((capacity - threshold) / (300 * MI)) + 3;
}

/** Upstream's PodIsEvicted. */
export const isEvicted = (p: V1Pod) => p.status?.phase === 'Failed' && p.status?.reason === EVICTED_REASON;

function consumerPod(ctx: CheckContext, node: string, name: string, mb: number, every: number, count: number, request?: string): V1Pod {
  return podOnNode(ctx, node, name, {
    restartPolicy: 'Always',
    nodeSelector: { 'kubernetes.io/os': 'windows' },
    containers: [
      {
        name,
        image: RESOURCE_CONSUMER,
        command: ['/bin/testlimit.exe', '-accepteula', '-d', `${mb}Mb`, '-e', String(every), '20000s', '-c', String(count)],
        ...(request ? { resources: { requests: { memory: request } } } : {}),
      },
    ],
  });
}

/** Watches the node until `done` holds (or the deadline): every MemoryPressure condition seen is passed to `seen`. */
async function watchNode(
  ctx: CheckContext,
  name: string,
  what: string,
  done: (n: V1Node) => boolean,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<V1Node | undefined> {
  const kube = ctx.kube;
  try {
    return await watchUntil<V1Node, V1Node>({
      kube,
      path: '/api/v1/nodes',
      fieldSelector: `metadata.name=${name}`,
      list: () => listAll(q => kube.core.listNode({ fieldSelector: `metadata.name=${name}`, ...q })),
      check: n => (done(n) ? n : undefined),
      what,
      describe: n => (n ? `${condLine(memoryPressureOf(n))}${taintedOf(n) ? ', tainted node.kubernetes.io/memory-pressure' : ''}` : 'not seen'),
      timeoutMs,
      signal: signal ?? ctx.signal,
    });
  } catch (e) {
    if (e instanceof WaitTimeoutError || (signal?.aborted && !ctx.signal.aborted)) return undefined;
    throw e;
  }
}

const calm = (n: V1Node) => memoryPressureOf(n)?.status !== 'True' && !taintedOf(n);

async function evictionProbe(ctx: CheckContext): Promise<Observation> {
  const name = ctx.options.disruptiveNode;
  if (!name) throw new Error('res.eviction-memory-pressure ran without --disruptive-node');
  const kube = ctx.kube;
  const t = ctx.options.timeouts;
  const before = await kube.core.readNode({ name });
  const capacity = parseQuantity(before.status?.capacity?.memory);
  if (capacity === undefined) throw new Error(`node ${name} reports no memory capacity`);

  ctx.step(`reading the hard eviction threshold of ${name}'s kubelet (/configz)`);
  const config = await readKubeletConfigz<KubeletMemoryConfig>(kube, name);
  const threshold = memoryThreshold(config.evictionHard?.['memory.available'], capacity);
  const evidence: EvidenceItem[] = [
    `GET ${configzPath(name)}: evictionHard ${JSON.stringify(config.evictionHard ?? {})}`,
    `node ${name}: memory capacity ${before.status?.capacity?.memory} (${formatBytes(capacity)}), hard eviction threshold memory.available ${formatBytes(threshold)}; available before eviction ${formatBytes(capacity - threshold)}; ${condLine(memoryPressureOf(before))}`,
  ];
  if (threshold <= 0) {
    const why = `node ${name}'s kubelet has no hard eviction threshold for memory.available (/configz evictionHard ${JSON.stringify(config.evictionHard ?? {})}): no memory-pressure eviction to see (upstream skips: "No Windows nodes with hard memory-pressure eviction found"); the node was not disturbed`;
    return { works: false, summary: why, evidence, node: name, notApplicable: why };
  }

  // Upstream's waitForMemoryPressureTaintRemoval before it begins.
  if (!calm(before)) {
    ctx.step(`waiting up to ${Math.round(t.memoryPressure / 1000)} s for ${name} to be free of memory pressure before it begins`);
    const free = await watchNode(ctx, name, `node ${name} without MemoryPressure and its taint`, calm, t.memoryPressure);
    if (!free)
      throw new Error(
        `node ${name} was still under memory pressure ${Math.round(t.memoryPressure / 1000)} s before the check began (${condLine(memoryPressureOf(before))}): it cannot tell an eviction of its own`,
      );
  }

  const created: string[] = [];
  const since = Date.now();
  const secs = () => ((Date.now() - since) / 1000).toFixed(1);
  try {
    ctx.step(`creating pod ${POD1} on ${name} (${RESOURCE_CONSUMER}, requests 500Mi, testlimit.exe -d 100Mb -c 5)`);
    await createObject(kube, consumerPod(ctx, name, POD1, 100, 5, 5, '500Mi'));
    created.push(POD1);
    const ready = async (pod: string) => {
      try {
        return await ctx.waitForPodReady(pod);
      } catch (e) {
        if (e instanceof PodStartError) throw meansOfStart(pod, e) ?? new Error(`the consumer pod ${pod} did not start on ${name}: ${e.message}`);
        throw e;
      }
    };
    await ready(POD1);
    ctx.step(`waiting for ${POD1}'s working set to reach ${formatBytes(POD1_BYTES)} in ${name}'s /stats/summary`);
    const allocated = await summaryUntil(ctx, name, Math.min(CONTROL_MS, t.podStart), s => {
      const ws = podStatsOf(s, ctx.namespace, POD1)?.memory?.workingSetBytes;
      return ws !== undefined && ws >= POD1_BYTES ? ws : undefined;
    });
    const ws1 = allocated.value ?? (allocated.last && podStatsOf(allocated.last, ctx.namespace, POD1)?.memory?.workingSetBytes);
    const ctl = control(
      allocated.value !== undefined,
      allocated.value !== undefined
        ? `pod ${POD1} ran on ${name} and allocated: its working set is ${formatBytes(allocated.value)} (testlimit's 5 x 100 MB)`
        : `pod ${POD1} ran on ${name} but its working set never reached ${formatBytes(POD1_BYTES)} (last ${ws1 === undefined ? 'not in /stats/summary' : formatBytes(ws1)}): the consumer does not consume, so no pressure would say nothing`,
    );
    evidence.push(ctl.summary);
    if (!ctl.ok) return { works: false, summary: ctl.summary, evidence, node: name, control: ctl };

    // Every MemoryPressure sighting and every consumer pod's status from now on.
    let pressure: { cond: Condition; at: string } | undefined;
    let tainted: string | undefined;
    const last = new Map<string, V1Pod>();
    let evicted: V1Pod | undefined;
    let both!: (ok: boolean) => void;
    const bothSeen = new Promise<boolean>(r => (both = r));
    const maybeBoth = () => {
      if (evicted && pressure) both(true);
    };
    const stop = new AbortController();
    const onRunAbort = () => stop.abort();
    ctx.signal.addEventListener('abort', onRunAbort, { once: true });
    const nodeSeen = watchNode(
      ctx,
      name,
      `node ${name} to report MemoryPressure`,
      n => {
        const c = memoryPressureOf(n);
        if (c?.status === 'True' && !pressure) pressure = { cond: c, at: secs() };
        if (taintedOf(n) && !tainted) tainted = secs();
        maybeBoth();
        return false;
      },
      t.memoryPressure,
      stop.signal,
    );
    nodeSeen.catch(() => undefined);
    const path = `/api/v1/namespaces/${encodeURIComponent(ctx.namespace)}/pods`;
    const podsSeen = seenBeforeEnd(
      watchUntil<V1Pod, true>({
        kube,
        path,
        fieldSelector: `spec.nodeName=${name}`,
        list: () => listAll(q => kube.core.listNamespacedPod({ namespace: ctx.namespace, fieldSelector: `spec.nodeName=${name}`, ...q })),
        check: p => {
          const n = p.metadata?.name ?? '';
          if (n !== POD1 && n !== POD2) return undefined;
          last.set(n, p);
          if (!evicted && isEvicted(p)) evicted = p;
          maybeBoth();
          return undefined;
        },
        what: `a consumer pod on ${name} evicted by the kubelet under MemoryPressure`,
        describe: () =>
          `${[...last.values()].map(p => `${p.metadata?.name} ${p.status?.phase ?? '?'}${p.status?.reason ? ` (${p.status.reason})` : ''}`).join(', ') || 'no consumer pod seen'}; ${pressure ? 'MemoryPressure seen' : 'no MemoryPressure seen'}`,
        timeoutMs: t.memoryPressure,
        signal: stop.signal,
      }),
      stop.signal,
      ctx.signal,
    );
    podsSeen.catch(() => undefined);

    const chunks = pod2Chunks(capacity, threshold);
    ctx.step(
      `creating pod ${POD2} on ${name}: testlimit.exe -d 300Mb -c ${chunks} (about ${formatBytes(chunks * 300 * MI)}, past the ${formatBytes(capacity - threshold)} available before eviction)`,
    );
    let done: boolean;
    try {
      await createObject(kube, consumerPod(ctx, name, POD2, 300, 1, chunks));
      created.push(POD2);
      ctx.step(`waiting up to ${Math.round(t.memoryPressure / 1000)} s for MemoryPressure on ${name} and a consumer pod evicted`);
      done = await Promise.race([podsSeen, bothSeen]);
    } finally {
      stop.abort();
      ctx.signal.removeEventListener('abort', onRunAbort);
    }
    evidence.push(
      pressure
        ? `node ${name} reported ${condLine(pressure.cond)} ${pressure.at} s after ${POD1} was created${tainted ? `; tainted node.kubernetes.io/memory-pressure:NoSchedule after ${tainted} s` : ''}`
        : `node ${name} never reported MemoryPressure True within ${Math.round(t.memoryPressure / 1000)} s`,
    );
    for (const [n, p] of [...last.entries()].sort()) {
      const s = p.status;
      evidence.push(`pod ${n}: phase ${s?.phase ?? '?'}, reason ${s?.reason ?? '-'}${s?.message ? `, message ${JSON.stringify(s.message)}` : ''}`);
    }
    const events = await listAll(q => kube.core.listNamespacedEvent({ namespace: ctx.namespace, ...q })).catch(() => ({
      items: [] as CoreV1Event[],
    }));
    const evictedEvents = events.items.filter(e => e.reason === EVICTED_REASON && (e.involvedObject?.name === POD1 || e.involvedObject?.name === POD2));
    for (const e of evictedEvents.slice(0, 2))
      evidence.push(`event ${e.type} Evicted for pod ${e.involvedObject?.name} from ${e.source?.component ?? '?'}: ${e.message}`);
    if (!evictedEvents.length) evidence.push('no Evicted event for a consumer pod');

    const problems: string[] = [];
    if (!pressure) problems.push(`node ${name} never reported the MemoryPressure condition`);
    else if (pressure.cond.reason !== 'KubeletHasInsufficientMemory')
      problems.push(`its MemoryPressure condition has reason ${pressure.cond.reason}, not KubeletHasInsufficientMemory`);
    if (!evicted) problems.push(`no consumer pod was evicted (phase Failed, reason Evicted) within ${Math.round(t.memoryPressure / 1000)} s`);
    else if (!(evicted.status?.message ?? '').startsWith(LOW_ON_MEMORY))
      problems.push(
        `pod ${evicted.metadata?.name} was evicted with message ${JSON.stringify(evicted.status?.message ?? '')}, not the kubelet's "${LOW_ON_MEMORY.trim()} ..."`,
      );
    if (!done && !problems.length) problems.push('the eviction was not seen');

    // Back to a node without pressure: the pods deleted, MemoryPressure False and the taint gone.
    await deletePods(ctx, created.splice(0));
    ctx.step(`waiting up to ${Math.round(t.memoryPressure / 1000)} s for ${name} to report MemoryPressure False again`);
    const cleared = await watchNode(ctx, name, `node ${name} to report MemoryPressure False and lose its taint`, calm, t.memoryPressure);
    evidence.push(
      cleared
        ? `node ${name}: ${condLine(memoryPressureOf(cleared))} ${secs()} s after ${POD1} was created, no memory-pressure taint`
        : `node ${name} still under memory pressure ${Math.round(t.memoryPressure / 1000)} s after the consumer pods were deleted`,
    );
    if (!cleared)
      problems.push(`node ${name} did not report MemoryPressure False within ${Math.round(t.memoryPressure / 1000)} s of the consumer pods' deletion`);
    return {
      works: !problems.length,
      summary: problems.length
        ? `node ${name} ran out of memory, but ${problems.join('; ')}`
        : `node ${name}'s kubelet reported MemoryPressure (KubeletHasInsufficientMemory) and evicted pod ${evicted!.metadata?.name} (Failed, reason Evicted: "${LOW_ON_MEMORY.trim()} ..."); the node reported MemoryPressure False again once the pods were gone`,
      evidence,
      node: name,
      control: ctl,
    };
  } finally {
    await deletePods(ctx, created);
  }
}

async function deletePods(ctx: CheckContext, names: string[]): Promise<void> {
  await Promise.all(names.map(name => ctx.kube.core.deleteNamespacedPod({ namespace: ctx.namespace, name, gracePeriodSeconds: 0 }).catch(() => undefined)));
}

export const features: Feature[] = [
  {
    id: 'res.eviction-memory-pressure',
    area: 'resources',
    title: 'A Windows node out of memory reports MemoryPressure and its kubelet evicts a pod with reason Evicted (disruptive)',
    needs: ['windows-node', 'disruptive-node'],
    fixtures: [],
    images: [RESOURCE_CONSUMER],
    access: [...NODE_SUMMARY_ACCESS, ...permissions('', 'events', ['list'], 'namespace'), ...permissions('', 'pods', ['delete'], 'namespace')],
    perBuild: false,
    expect: () =>
      supported(
        'where the kubelet has a hard eviction threshold for memory.available (read from /configz; 500Mi by default on Windows; none: n/a), a node whose memory runs out reports MemoryPressure True (KubeletHasInsufficientMemory) and the kubelet evicts a pod: phase Failed, reason Evicted, "The node was low on resource: memory. ..."',
        sources(
          SPEC,
          HELPERS,
          CONDITION,
          cite.doc(
            'concepts/scheduling-eviction/node-pressure-eviction',
            'hard eviction thresholds; memory.available; the MemoryPressure condition and evictionPressureTransitionPeriod',
          ),
        ),
      ),
    probe: evictionProbe,
  },
];
