// Reliability sweep (not a timing ratio, so not in run.ts's list): N runs against one `wincheck
// sim`, each interrupted by SIGINT or SIGTERM at a seeded moment; every one must exit 130 and
// leave 0 objects. Exit 1 otherwise.
//
//   npx tsx bench/interrupts.ts        20 seeds
//   npx tsx bench/interrupts.ts 5      5 seeds

import { CoreV1Api, KubeConfig, NodeV1Api } from '@kubernetes/client-node';
import { interruptAt } from '../test/support/interrupts.ts';
import { startSimProcess } from '../test/support/simProcess.ts';

const seeds = Number(process.argv[2] ?? 20);
const out = (l: string) => process.stdout.write(l + '\n');
const sim = await startSimProcess();
const kc = new KubeConfig();
kc.loadFromFile(sim.kubeconfig);
const core = kc.makeApiClient(CoreV1Api);
const node = kc.makeApiClient(NodeV1Api);

let bad = 0;
let late = 0;
try {
  for (let seed = 1; seed <= seeds; seed++) {
    const r = await interruptAt(seed, sim.kubeconfig);
    const sel = { labelSelector: `wincheck.io/run-id=${r.runId}` };
    const [ns, pods, rcs] = await Promise.all([core.listNamespace(sel), core.listPodForAllNamespaces(sel), node.listRuntimeClass(sel)]);
    const left = ns.items.length + pods.items.length + rcs.items.length;
    const ok = (r.exitCode === 130 || (!r.delivered && r.exitCode === 0)) && left === 0;
    if (!ok) bad++;
    if (!r.delivered) late++;
    out(`seed ${String(seed).padStart(2)}: ${r.moment}: exit ${r.exitCode}${r.delivered ? '' : ' (ended before the signal)'}, ${left} object(s) left ${ok ? 'OK' : 'FAIL'}`);
  }
} finally {
  await sim.stop('SIGTERM');
}
out(`interrupts: ${seeds - bad}/${seeds} runs right (${seeds - late} interrupted: exit 130; ${late} ended before their moment: exit 0), 0 objects left in each ${bad ? 'FAIL' : 'OK'}`);
process.exit(bad ? 1 : 0);
