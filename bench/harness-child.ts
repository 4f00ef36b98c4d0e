// The harness alone in its own process, for bench/critical-path.ts and bench/node-scale.ts: the
// sim runs in another process, so this process's peak RSS is the harness's own. Prints one
// CHILD_RESULT line.
//
//   harness-child.ts --kubeconfig F --report-dir D [--egress-url U] [--suite S] full [feature ...]
//       one run of the given features (default: the whole catalog)
//   harness-child.ts --kubeconfig F --report-dir D [--egress-url U] sequential [feature ...]
//       the sequential baseline: one run per feature, one after the other (deploy, wait, probe,
//       delete, as the upstream e2e anchors run), each timed

import { join } from 'node:path';
import { loadCatalog } from '../lib/catalog/registry.ts';
import { resolveConfig } from '../lib/config/resolve.ts';
import { runWincheck } from '../lib/run/run.ts';
import { CHILD_PREFIX, type ChildResult, type ChildRun } from './result.ts';
import { addMark, checkSpans, failuresOf, outcomesOf, readResults } from './runLines.ts';
import { createReporters } from '../lib/report/index.ts';

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
}

async function main(argv: string[]): Promise<void> {
  const args = [...argv];
  const kubeconfig = flag(args, '--kubeconfig');
  const reportRoot = flag(args, '--report-dir');
  const egressUrl = flag(args, '--egress-url');
  const suite = flag(args, '--suite');
  const [mode, ...features] = args;
  if (!kubeconfig || !reportRoot || (mode !== 'full' && mode !== 'sequential'))
    throw new Error('usage: harness-child.ts --kubeconfig F --report-dir D [--egress-url U] [--suite S] full|sequential [feature ...]');
  const ids = features.length ? features : mode === 'sequential' ? (await loadCatalog()).map(f => f.id) : [];
  const runs: ChildRun[] = [];
  const once = async (selected: string[]) => {
    const reportDir = join(reportRoot, String(runs.length));
    const config = resolveConfig({ kubeconfig, feature: selected, suite: suite ? [suite] : [], egressUrl, reportDir }, {}, {});
    const lines: string[] = [];
    const marks: Record<string, number> = {};
    const t0 = performance.now();
    const wallStart = Date.now();
    const out = (l: string) => {
      lines.push(l);
      addMark(marks, l, performance.now() - t0);
    };
    const code = await runWincheck(config, { out, events: createReporters({ reportDir: config.reportDir, out }) });
    const wallMs = performance.now() - t0;
    runs.push({
      features: selected,
      wallMs,
      code,
      outcomes: outcomesOf(lines),
      tail: lines.slice(-12),
      marks,
      failures: failuresOf(lines),
      checks: checkSpans(readResults(reportDir), wallStart),
    });
  };
  if (mode === 'full') await once(ids);
  else for (const id of ids) await once([id]);
  const result: ChildResult = { runs, maxRssKB: process.resourceUsage().maxRSS };
  process.stdout.write(CHILD_PREFIX + JSON.stringify(result) + '\n');
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  e => {
    process.stderr.write(`harness-child: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
