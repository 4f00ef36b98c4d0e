// pods/exec and pods/attach over the channel websocket: stdin/stdout/stderr on
// channels 0-2, terminal resizes on 4, the final metav1.Status on 3 (v4/v5) or a
// plain error text (v1-v3), then a normal close.

import { PassThrough, type Writable } from 'node:stream';
import type WebSocket from 'ws';
import type { ExecResult, SubresourceHandlers } from '../runtimeContract.ts';
import { StoreError } from '../store.ts';
import { CLOSE, ERROR, RESIZE, STDERR, STDIN, STDOUT, channelWriter, finish, frame, send } from './channels.ts';

export interface ExecSession {
  namespace: string;
  pod: string;
  container: string;
  command: string[];
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
  attach: boolean;
}

interface ExecStatus {
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  code?: number;
  details?: { causes: { reason: string; message: string }[] };
}

/** The Status the kubelet writes for an exit code (remotecommand v4WriteStatusFunc). */
export function exitStatus(command: string[], r: ExecResult): ExecStatus {
  if (r.error) return { metadata: {}, status: 'Failure', message: r.error, reason: 'InternalError', code: 500 };
  if (r.exitCode === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${r.exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(r.exitCode) }] },
  };
}

function errorStatus(err: unknown): ExecStatus {
  if (err instanceof StoreError) return { metadata: {}, status: 'Failure', message: err.message, reason: err.reason, code: err.code };
  const message = err instanceof Error ? err.message : String(err);
  return { metadata: {}, status: 'Failure', message, reason: 'InternalError', code: 500 };
}

export function runExec(ws: WebSocket, s: ExecSession, handlers: SubresourceHandlers): void {
  const v4plus = ws.protocol === 'v4.channel.k8s.io' || ws.protocol === 'v5.channel.k8s.io';
  const ac = new AbortController();
  const stdin = s.stdin ? new PassThrough() : null;
  const stdout = channelWriter(ws, STDOUT);
  // With a tty the terminal merges both streams, as the runtime's pty does.
  const stderr = channelWriter(ws, s.tty ? STDOUT : STDERR);

  ws.on('message', (data: Buffer, isBinary: boolean) => {
    const buf = isBinary ? data : Buffer.from(data);
    if (buf.length === 0) return;
    const ch = buf[0];
    if (ch === STDIN && stdin && !stdin.writableEnded) stdin.write(buf.subarray(1));
    else if (ch === CLOSE && buf[1] === STDIN && stdin) stdin.end();
    else if (ch === RESIZE) {
      /* terminal size: the simulated runtime has no pty to resize */
    }
  });
  ws.on('close', () => {
    stdin?.end();
    ac.abort();
  });

  // An empty message on the lowest writable channel tells the client the stream is up (as the kubelet does).
  ws.send(frame(s.stdout ? STDOUT : s.stderr && !s.tty ? STDERR : ERROR, Buffer.alloc(0)));

  const run = s.attach
    ? attach(s, handlers, stdout, ac.signal)
    : handlers.exec(
        { namespace: s.namespace, pod: s.pod, container: s.container, command: s.command, stdin: s.stdin, tty: s.tty },
        { stdin, stdout, stderr },
        ac.signal,
      );

  void run
    .then(r => exitStatus(s.command, r), errorStatus)
    .then(async status => {
      await Promise.all([finish(stdout), finish(stderr)]);
      if (ac.signal.aborted) return;
      if (v4plus) await send(ws, frame(ERROR, JSON.stringify(status)));
      else if (status.status === 'Failure') await send(ws, frame(ERROR, status.message ?? 'error'));
      ws.close(1000);
    });
}

/** Attach: the container's output from now on (the runtime keeps no attachable pty). */
async function attach(s: ExecSession, handlers: SubresourceHandlers, out: Writable, signal: AbortSignal): Promise<ExecResult> {
  await handlers.log({ namespace: s.namespace, pod: s.pod, container: s.container, follow: true, tailLines: 0 }, out, signal);
  return { exitCode: 0 };
}
