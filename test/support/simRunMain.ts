// Child-process entry of runOnSim({ inChild: true }): `node --import tsx simRunMain.ts <request.json> <result.json>`.
// One harness run per process, so that runs can go at once (in one process they take turns).

import { readFileSync, writeFileSync } from 'node:fs';
import { runOnSim, simRunToJson, type SimRunOptions } from './simRun.ts';

async function main(): Promise<void> {
  const [requestFile, resultFile] = process.argv.slice(2);
  const req = JSON.parse(readFileSync(requestFile, 'utf8')) as { features: string[]; options: SimRunOptions };
  writeFileSync(resultFile, JSON.stringify(simRunToJson(await runOnSim(req.features, req.options))));
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
