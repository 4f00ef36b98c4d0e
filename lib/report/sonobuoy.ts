// Sonobuoy plugin mode (`wincheck run --sonobuoy`, ci/sonobuoy/wincheck-plugin.yaml): the reports
// go to the plugin's results directory ($SONOBUOY_RESULTS_DIR), are packed into results.tar.gz
// there, and its path is written to the "done" file, which is what the Sonobuoy worker waits for
// before handing the results to the aggregator (result-format junit: it reads the junit_*.xml).
// The done file is written whatever happened, so the aggregator never waits out its timeout.

import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { errorText } from '../../util/errorText.ts';

export const SONOBUOY_DEFAULT_RESULTS_DIR = '/tmp/sonobuoy/results';
export const SONOBUOY_TARBALL = 'results.tar.gz';

export function sonobuoyResultsDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SONOBUOY_RESULTS_DIR || SONOBUOY_DEFAULT_RESULTS_DIR;
}

export async function runAsSonobuoyPlugin(dir: string, run: () => Promise<number>, log: (line: string) => void): Promise<number> {
  mkdirSync(dir, { recursive: true });
  let code = 1;
  let failure: unknown;
  try {
    code = await run();
  } catch (e) {
    failure = e;
    // What the aggregator shows when there is no JUnit: the reason.
    writeFileSync(join(dir, 'error.txt'), `${errorText(e)}\n`);
  }
  const files = readdirSync(dir).filter(f => f !== 'done' && f !== SONOBUOY_TARBALL);
  const tarball = join(dir, SONOBUOY_TARBALL);
  await execa('tar', ['-czf', tarball, '-C', dir, ...files]);
  writeFileSync(join(dir, 'done'), tarball);
  log(`Sonobuoy: ${files.length} file(s) packed into ${tarball}; done file written.`);
  if (failure !== undefined) throw failure;
  return code;
}
