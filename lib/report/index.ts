// The reporters of a run, made in one place: every file reporter, then the console (last, so it
// can say whether the files were written), behind one Multiplexer that the run emits to.

import ConsoleReporter from './console.ts';
import HtmlReporter from './html.ts';
import JsonReporter from './json.ts';
import JUnitReporter from './junit.ts';
import { Multiplexer } from './multiplexer.ts';
import SummaryReporter from './summary.ts';
import type { Reporter } from '../run/events.ts';

export interface ReporterOptions {
  reportDir: string;
  /** Where console lines go (default stdout). */
  out?: (line: string) => void;
  /** A live status line instead of a heartbeat: stdout is a terminal. */
  tty?: boolean;
  /** Replaces the default reporters (tests). */
  reporters?: Reporter[];
}

export function createReporters(o: ReporterOptions): Multiplexer {
  const out = o.out ?? ((l: string) => process.stdout.write(l + '\n'));
  return new Multiplexer(
    o.reporters ?? [
      new JUnitReporter(o.reportDir, out),
      new SummaryReporter(o.reportDir),
      new JsonReporter(o.reportDir),
      new HtmlReporter(o.reportDir),
      new ConsoleReporter(out, { tty: o.tty === true }),
    ],
    out,
  );
}
