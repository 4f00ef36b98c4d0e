// Benchmark 3: the sim's API overhead. The same question, "the pods of kube-system", asked
// through the HTTPS API with @kubernetes/client-node (the harness's own clients, makeClients)
// and of the sim's store in-process (store.list). Per-request latency of each, in short batches
// taken in pairs (an API batch, then a store batch) so a change of the machine's load hits both
// sides of a pair alike.
//
// ratio = median over the pairs of (API latency / store.list latency). Informational: the store
// is the floor; the ratio says what the API layer (TLS, routing, admission, serialisation, the
// client's deserialisation) costs on top of it, and a generous threshold catches a regression.

import { fmtMs, kubeOf, median, report, simSettled, startSimRetrying } from './support.ts';

const NAME = 'api-overhead';

const BATCHES = 15;
const API_PER_BATCH = 50;
/** Enough store lists per batch that one batch takes milliseconds, well above the timer's resolution. */
const STORE_PER_BATCH = 1_000;
/** Measured 13-16 on a quiet machine, up to about 24 under heavy load (the API path suffers more from CPU contention); 50 leaves 2x room over that. */
const THRESHOLD = 50;
const NAMESPACE = 'kube-system';

const out = (l: string) => process.stdout.write(l + '\n');

async function main(): Promise<void> {
  const started = performance.now();
  out(`${NAME}: list pods in ${NAMESPACE}: ${BATCHES} batches of ${API_PER_BATCH} API requests and ${STORE_PER_BATCH} store.list calls`);
  const api: number[] = [];
  const store: number[] = [];
  let items: number;
  const sim = await startSimRetrying('default', out);
  try {
    await simSettled(sim);
    const kube = kubeOf(sim);

    const apiList = async () => (await kube.core.listNamespacedPod({ namespace: NAMESPACE })).items.length;
    const storeList = () => sim.store.list('pods', { namespace: NAMESPACE }).items.length;
    items = storeList();
    const viaApi = await apiList();
    if (items === 0 || viaApi !== items) throw new Error(`the API lists ${viaApi} pods in ${NAMESPACE}, the store ${items}`);

    // Warm-up (not measured): JIT, TLS session and keep-alive connection.
    for (let i = 0; i < 50; i++) await apiList();
    for (let i = 0; i < 1_000; i++) storeList();

    for (let b = 0; b < BATCHES; b++) {
      let t = performance.now();
      for (let i = 0; i < API_PER_BATCH; i++) await apiList();
      api.push((performance.now() - t) / API_PER_BATCH);
      t = performance.now();
      let n = 0;
      for (let i = 0; i < STORE_PER_BATCH; i++) n += storeList();
      store.push((performance.now() - t) / STORE_PER_BATCH);
      if (n !== items * STORE_PER_BATCH) throw new Error('the store changed its kube-system pods during the benchmark');
    }
  } finally {
    await sim.stop();
    sim.cleanupDir();
  }
  out(`  API (ms/request):        ${api.map(fmtMs).join(', ')}`);
  out(`  store.list (ms/request): ${store.map(fmtMs).join(', ')}`);
  const a = median(api);
  const s = median(store);
  out(`  median: API ${fmtMs(a)} ms, store.list ${fmtMs(s)} ms (${items} pods per list)`);
  await report(
    {
      name: NAME,
      ratioOf: 'API list latency / store.list latency (median of pairs)',
      ratio: median(api.map((x, i) => x / store[i])),
      threshold: THRESHOLD,
      measurements: { apiList: a, storeList: s },
      repeats: BATCHES,
      notes: ['informational: the store is the floor; a generous threshold only catches a regression of the API layer'],
    },
    started,
  );
}

await main();
