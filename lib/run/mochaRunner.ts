// Runs the suites with the Mocha API. A feed reporter turns each finished mocha test into the
// feature's CheckResult for lib/report; a test that failed outside the check becomes an error.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Mocha from 'mocha';
import { suiteOf } from '../catalog/registry.ts';
import { MODULE_EXT } from '../moduleExt.ts';
import type { CheckResult, Feature } from '../catalog/types.ts';
import type { Multiplexer } from '../report/multiplexer.ts';
import { checkAsTest, featureIdOfTitle, setSession, testTitle, type Session } from './session.ts';

/** Suite files already imported by this process (ESM modules cannot be loaded twice). */
const loadedSuiteFiles = new Set<string>();

export const suitesDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'suites');

export interface SuiteRunOptions {
  session: Session;
  reporter: Multiplexer;
  signal: AbortSignal;
  dir?: string;
}

export async function runSuites(opts: SuiteRunOptions): Promise<CheckResult[]> {
  const { session, reporter } = opts;
  const byId = new Map(session.features.map(f => [f.id, f]));
  const total = session.features.length;
  const finished: CheckResult[] = [];

  class FeedReporter {
    constructor(runner: Mocha.Runner) {
      runner.on(Mocha.Runner.constants.EVENT_TEST_BEGIN, (test: Mocha.Test) => {
        const f = byId.get(featureIdOfTitle(test.title));
        if (f) reporter.onTestBegin({ id: f.id, suite: suiteOf(f), area: f.area, title: f.title });
      });
      runner.on(Mocha.Runner.constants.EVENT_TEST_END, (test: Mocha.Test) => {
        const id = featureIdOfTitle(test.title);
        const f = byId.get(id);
        if (!f) return;
        const r = session.results.get(id) ?? harnessError(f, test.err?.message ?? 'the test ended without a result', test.duration ?? 0);
        finished.push(r);
        reporter.onTestEnd(r, { done: finished.length, total });
      });
    }
  }

  const mocha = new Mocha({ reporter: FeedReporter as unknown as typeof Mocha.reporters.Base, timeout: 0, bail: false, color: false });
  const dir = opts.dir ?? suitesDir;
  const suites = [...new Set(session.features.map(suiteOf))];
  const withoutFile: string[] = [];
  for (const s of suites) {
    const file = join(dir, `${s}${MODULE_EXT}`);
    // An ESM suite file runs its describe() once per process (the module cache): a second run
    // in the same process (tests) builds that suite the way a missing file is built, below.
    if (existsSync(file) && !loadedSuiteFiles.has(file)) { mocha.addFile(file); loadedSuiteFiles.add(file); } else withoutFile.push(s);
  }
  setSession(session);
  try {
    await mocha.loadFilesAsync();
    // A catalog area whose suite file is not written yet still runs: no selected feature is dropped.
    for (const s of withoutFile) {
      const suite = Mocha.Suite.create(mocha.suite, `[sig-windows] ${s}`);
      for (const f of session.features.filter(x => suiteOf(x) === s))
        suite.addTest(new Mocha.Test(testTitle(f), () => checkAsTest(session, f)));
    }
    await new Promise<void>(resolve => {
      const runner = mocha.run(() => resolve());
      const onAbort = () => runner.abort();
      if (opts.signal.aborted) onAbort();
      opts.signal.addEventListener('abort', onAbort, { once: true });
    });
  } finally {
    setSession(undefined);
    mocha.dispose();
  }
  return finished;
}

function harnessError(f: Feature, message: string, durationMs: number): CheckResult {
  return {
    id: f.id, area: f.area, suite: suiteOf(f), title: f.title,
    expectation: { expected: 'supported', reason: 'not computed', source: 'wincheck' },
    outcome: 'error', reason: `the harness failed: ${message}`, summary: message,
    evidence: [], steps: [], durationMs, error: message,
  };
}
