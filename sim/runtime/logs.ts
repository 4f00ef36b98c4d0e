// A container's log: what its stdout/stderr wrote, line by line with the CRI
// timestamp, kept in a bounded ring; followers are woken as lines arrive and end
// when the container stops. Each container start gets a new ContainerLog, so the
// previous instance's log (`kubectl logs --previous`) is the one before.

import { Writable } from 'node:stream';

export interface LogLine {
  time: Date;
  stream: 'stdout' | 'stderr';
  text: string;
}

const MAX_LINES = 10_000;

export class ContainerLog {
  private lines: LogLine[] = [];
  private partial: Record<'stdout' | 'stderr', string> = { stdout: '', stderr: '' };
  private waiters = new Set<() => void>();
  closed = false;

  /** Appends raw bytes; complete lines are kept (a trailing partial line is kept on close). */
  append(stream: 'stdout' | 'stderr', chunk: Buffer | string): void {
    if (this.closed) return;
    const text = this.partial[stream] + chunk.toString();
    const parts = text.split('\n');
    this.partial[stream] = parts.pop() ?? '';
    for (const p of parts) this.push({ time: new Date(), stream, text: p + '\n' });
  }

  private push(l: LogLine): void {
    this.lines.push(l);
    if (this.lines.length > MAX_LINES) this.lines.splice(0, this.lines.length - MAX_LINES);
    this.wake();
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  close(): void {
    if (this.closed) return;
    for (const s of ['stdout', 'stderr'] as const)
      if (this.partial[s]) {
        this.push({ time: new Date(), stream: s, text: this.partial[s] });
        this.partial[s] = '';
      }
    this.closed = true;
    this.wake();
  }

  /** A Writable for one stream of the container process. */
  writer(stream: 'stdout' | 'stderr'): Writable {
    return new Writable({
      write: (chunk: Buffer, _enc, cb) => {
        this.append(stream, chunk);
        cb();
      },
    });
  }

  snapshot(): LogLine[] {
    return [...this.lines];
  }

  /** Writes the log to out with the kubelet's options; with follow, streams until closed or aborted. */
  async stream(
    out: Writable,
    opts: { follow: boolean; tailLines?: number; sinceSeconds?: number; timestamps?: boolean; limitBytes?: number },
    signal: AbortSignal,
  ): Promise<void> {
    let lines = this.lines;
    if (opts.sinceSeconds !== undefined) {
      const from = Date.now() - opts.sinceSeconds * 1000;
      lines = lines.filter(l => l.time.getTime() >= from);
    }
    if (opts.tailLines !== undefined) lines = opts.tailLines <= 0 ? [] : lines.slice(-opts.tailLines);
    let budget = opts.limitBytes ?? Infinity;
    const emit = (l: LogLine): boolean => {
      let s = opts.timestamps ? `${l.time.toISOString().replace('Z', '000000Z')} ${l.text}` : l.text;
      if (budget <= 0) return false;
      if (Buffer.byteLength(s) > budget) s = Buffer.from(s).subarray(0, budget).toString();
      budget -= Buffer.byteLength(s);
      out.write(s);
      return budget > 0;
    };
    let idx = this.lines.length;
    for (const l of lines) if (!emit(l)) return;
    if (!opts.follow) return;
    // Follow from where the snapshot ended (the ring may have trimmed; track by object).
    let last = this.lines[idx - 1];
    while (!this.closed && !signal.aborted) {
      await new Promise<void>(resolve => {
        const done = () => {
          this.waiters.delete(done);
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.waiters.add(done);
        signal.addEventListener('abort', done, { once: true });
      });
      const start = last ? this.lines.indexOf(last) + 1 : 0;
      idx = start <= 0 && last ? 0 : start;
      for (let i = idx; i < this.lines.length; i++) if (!emit(this.lines[i])) return;
      last = this.lines[this.lines.length - 1];
    }
  }
}
