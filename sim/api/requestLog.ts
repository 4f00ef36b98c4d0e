// The API server's request log: with WINCHECK_SIM_REQUEST_LOG naming a file, one JSON line per
// request once it completes, {method, path, query, code, bytes} (bytes: the body's
// Content-Length; a streamed watch or an exec session has none and logs 0). What a client costs
// the API server, request by request: bench/ reads it for requests per node and the largest
// response. Lines are appended as they come (one open file), never read back by the sim.

import { createWriteStream, type WriteStream } from 'node:fs';

export const REQUEST_LOG_ENV = 'WINCHECK_SIM_REQUEST_LOG';

export interface RequestLogLine {
  method: string;
  path: string;
  /** The query string without its "?" ("" when none). */
  query: string;
  code: number;
  bytes: number;
}

export interface RequestLog {
  write(line: RequestLogLine): void;
  close(): Promise<void>;
}

/** The log the environment asks for, or undefined when WINCHECK_SIM_REQUEST_LOG is unset. */
export function openRequestLog(env: NodeJS.ProcessEnv = process.env): RequestLog | undefined {
  const file = env[REQUEST_LOG_ENV];
  if (!file) return undefined;
  const out: WriteStream = createWriteStream(file, { flags: 'a' });
  out.on('error', err => console.error(`sim: request log ${file}: ${err.message}`));
  return {
    write: line => out.write(`${JSON.stringify(line)}\n`),
    close: () => new Promise<void>(resolve => out.end(() => resolve())),
  };
}

/** Parses a request log's lines (blank lines skipped). */
export function parseRequestLog(text: string): RequestLogLine[] {
  return text
    .split('\n')
    .filter(l => l.trim())
    .map(l => JSON.parse(l) as RequestLogLine);
}
