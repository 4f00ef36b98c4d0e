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
    // Seen by the run: it must stop cleanly (130). Not seen: the run had ended (its reports
    // written, exit 0), or the signal landed as it exited and its default action ended the
    // process after the reports; anything else is wrong.
    const ended = !r.seen && r.finished && (r.exitCode === 0 || r.killedBy === r.moment.split(' ')[0]);
    const ok = ((r.seen && r.exitCode === 130) || ended) && left === 0;
    if (!ok) bad++;
    if (!r.seen) late++;
    const how = r.seen ? '' : r.killedBy ? ` (ended by ${r.killedBy} after its reports were written)` : ' (ended before the signal)';
    out(`seed ${String(seed).padStart(2)}: ${r.moment}: exit ${r.exitCode ?? '-'}${how}, ${left} object(s) left ${ok ? 'OK' : 'FAIL'}`);
  }
} finally {
  await sim.stop('SIGTERM');
}
out(
  `interrupts: ${seeds - bad}/${seeds} runs right (${seeds - late} interrupted: exit 130; ${late} ended before their moment, or with it as they exited), 0 objects left in each ${bad ? 'FAIL' : 'OK'}`,
);
process.exit(bad ? 1 : 0);
