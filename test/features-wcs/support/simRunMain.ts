// Child-process entry for runOnSimInChild: `node --import tsx simRunMain.ts <request.json> <result.json>`.
// The harness's mocha runner imports suites/*.ts as ES modules, which Node caches: a second
// runWincheck in the same process would register no tests. So each run gets its own process.

import { readFileSync, writeFileSync } from 'node:fs';
import { runOnSim, type SimRunOptions } from './simRun.ts';

async function main(): Promise<void> {
  const [requestFile, resultFile] = process.argv.slice(2);
  const req = JSON.parse(readFileSync(requestFile, 'utf8')) as { features: string[]; options: SimRunOptions };
  const run = await runOnSim(req.features, req.options);
  writeFileSync(resultFile, JSON.stringify({ exitCode: run.exitCode, results: [...run.results.values()], output: run.output }));
}

main().then(() => process.exit(0), (e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
