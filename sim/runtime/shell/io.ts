// Stream helpers shared by the interpreters: output capture (pipes, redirects,
// PowerShell's view of native output) and signal-aware sleeping.

import { Readable, Writable } from 'node:stream';
import type { ShellIO } from './types.ts';

/** A Writable that keeps every chunk synchronously, so callers can read it right after a command returns. */
export class Capture extends Writable {
  private chunks: Buffer[] = [];
  override write(chunk: unknown, encOrCb?: unknown, cb?: unknown): boolean {
    const enc = typeof encOrCb === 'string' ? (encOrCb as BufferEncoding) : 'utf8';
    if (typeof chunk === 'string') this.chunks.push(Buffer.from(chunk, enc));
    else if (chunk instanceof Uint8Array) this.chunks.push(Buffer.from(chunk));
    const done = typeof encOrCb === 'function' ? encOrCb : cb;
    if (typeof done === 'function') queueMicrotask(() => (done as (e?: Error | null) => void)(null));
    return true;
  }
  buffer(): Buffer {
    return Buffer.concat(this.chunks);
  }
  text(): string {
    return this.buffer().toString('utf8');
  }
  clear(): void {
    this.chunks = [];
  }
}

/** Discards everything (NUL on Windows, /dev/null on Linux). */
export function nullSink(): Writable {
  return new Capture();
}

export function withStreams(io: ShellIO, over: Partial<Pick<ShellIO, 'stdin' | 'stdout' | 'stderr'>>): ShellIO {
  return { ...io, ...over };
}

export function stdinFrom(data: Buffer): Readable {
  return Readable.from([data]);
}

/** Reads all of stdin (empty when there is none). */
export async function readAll(stream: Readable | null, signal: AbortSignal): Promise<Buffer> {
  if (!stream) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const c of stream) {
    if (signal.aborted) break;
    chunks.push(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c as Uint8Array));
  }
  return Buffer.concat(chunks);
}

/** Node timers overflow above 2^31-1 ms (they would fire at once), so long sleeps are chunked. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Sleeps ms; resolves false when the signal aborted first. */
export async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  let left = Math.max(0, ms);
  do {
    const chunk = Math.min(left, MAX_TIMER_MS);
    if (!(await sleepOnce(chunk, signal))) return false;
    left -= chunk;
  } while (left > 0);
  return true;
}

function sleepOnce(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise(resolve => {
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Blocks until the signal aborts (long-running servers, agnhost pause). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise(resolve => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** The exit code used when io.signal aborts a command (128 + SIGINT). */
export const ABORTED_EXIT = 130;

/** Last path element for both separators, lower-cased: "C:\\Windows\\cmd.exe" -> "cmd.exe". */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return (parts[parts.length - 1] ?? '').toLowerCase();
}

export function isIPv4(s: string): boolean {
  return /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(s);
}
