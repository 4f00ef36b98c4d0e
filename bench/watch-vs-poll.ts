// Benchmark 2: watch-based waits vs polling. The harness waits for pods with a list + watch
// (waitForPodReady in lib/cluster/podWait.ts, on watchUntil in lib/cluster/watch.ts), so it
// hears of a pod becoming Ready as soon as the API server writes it. Measured: the time from the
// sim's store writing Ready=True (seen in-process, same clock) to the harness's wait resolving,
// vs to a naive loop that GETs the pod once a second, both waiting on the same pod.
//
// ratio = median watch latency / median poll latency, expected < THRESHOLD.
//
// A polling loop's latency depends on where in its 1 s period the pod turns Ready; the samples
// spread that phase evenly over the period (sample i polls at 0, then (i + 0.5)/N s, then every
// second), so the median is the typical case (about 500 ms) rather than a lucky or unlucky one.

import type { V1Pod } from '@kubernetes/client-node';
import { waitForPodReady } from '../lib/cluster/podWait.ts';
import type { KubeClients } from '../lib/cluster/types.ts';
import { fmtMs, kubeOf, median, podReady, report, simSettled, startSimRetrying } from './support.ts';

const NAME = 'watch-vs-poll';

const SAMPLES = 9;
const POLL_PERIOD_MS = 1_000;
const THRESHOLD = 0.2;
const NAMESPACE = 'bench-waits';

const out = (l: string) => process.stdout.write(l + '\n');

function windowsPod(name: string): V1Pod {
  return {
    metadata: { name, namespace: NAMESPACE },
    spec: {
      containers: [{ name: 'pause', image: 'registry.k8s.io/e2e-test-images/agnhost:2.52', args: ['pause'] }],
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      tolerations: [{ operator: 'Exists' }],
      terminationGracePeriodSeconds: 0,
    },
  };
}

/** The baseline: GET the pod, and again every POLL_PERIOD_MS (the first gap is `firstGapMs`), until it is Ready. */
async function pollUntilReady(kube: KubeClients, name: string, firstGapMs: number, deadline: number): Promise<number> {
  for (let k = 0; ; k++) {
    const pod = await kube.core.readNamespacedPod({ namespace: NAMESPACE, name });
    if (podReady(pod)) return performance.now();
    if (performance.now() > deadline) throw new Error(`pod ${name} not Ready by the deadline (polling)`);
    // The deliberate sleep of this benchmark: it is the thing measured against.
    await new Promise(r => setTimeout(r, k === 0 ? firstGapMs : POLL_PERIOD_MS));
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  out(`${NAME}: ${SAMPLES} Windows pods, each awaited by waitForPodReady (watch) and by a ${POLL_PERIOD_MS} ms polling loop at once`);
  const watch: number[] = [];
  const poll: number[] = [];
  const sim = await startSimRetrying('default', out);
  try {
    await simSettled(sim);
    const kube = kubeOf(sim);
    await kube.core.createNamespace({ body: { metadata: { name: NAMESPACE } } });

    /** When the store wrote Ready=True for each pod, by name. */
    const readyAt = new Map<string, number>();
    const sub = sim.store.onAny((bucket, e) => {
      const pod = e.object as V1Pod;
      const name = pod.metadata?.name;
      if (bucket === 'pods' && name && pod.metadata?.namespace === NAMESPACE && !readyAt.has(name) && podReady(pod)) readyAt.set(name, performance.now());
    });

    const sample = async (name: string, firstGapMs: number): Promise<void> => {
      await kube.core.createNamespacedPod({ namespace: NAMESPACE, body: windowsPod(name) });
      const deadline = performance.now() + 60_000;
      const [watchDone, pollDone] = await Promise.all([
        waitForPodReady(kube, NAMESPACE, name).then(() => performance.now()),
        pollUntilReady(kube, name, firstGapMs, deadline),
      ]);
      const ready = readyAt.get(name);
      if (ready === undefined) throw new Error(`the store never wrote pod ${name} Ready`);
      await kube.core.deleteNamespacedPod({ namespace: NAMESPACE, name, gracePeriodSeconds: 0 });
      if (name.startsWith('pod-')) {
        watch.push(watchDone - ready);
        poll.push(pollDone - ready);
      }
    };

    try {
      // Warm-up (not measured): image pulls on both Windows nodes, JIT, the clients' connections.
      await sample('warmup-1', POLL_PERIOD_MS / 2);
      await sample('warmup-2', POLL_PERIOD_MS / 2);
      for (let i = 0; i < SAMPLES; i++) await sample(`pod-${i}`, ((i + 0.5) / SAMPLES) * POLL_PERIOD_MS);
    } finally {
      sub.stop();
    }
  } finally {
    await sim.stop();
    sim.cleanupDir();
  }
  out(`  watch latency (ms): ${watch.map(fmtMs).join(', ')}`);
  out(`  poll latency (ms):  ${poll.map(fmtMs).join(', ')}`);
  const w = median(watch);
  const p = median(poll);
  out(`  median: watch ${fmtMs(w)} ms, poll ${fmtMs(p)} ms`);
  await report(
    {
      name: NAME,
      ratioOf: 'watch latency / poll latency (median)',
      ratio: w / p,
      threshold: THRESHOLD,
      measurements: { watchLatency: w, pollLatency: p },
      repeats: SAMPLES,
    },
    started,
  );
}

await main();
