// Exec into a pod over the websocket protocol. Exec.exec() resolves when the socket opens, not
// when the command ends: wait for close and the status channel, then map the Status to an exit code.
// A Status that is not the command's own exit (the runtime could not start it, the kubelet or the
// API server failed) is the harness's means failing: a MeansError with the Status's own words.

import { Writable } from 'node:stream';
import { Exec, type V1Status } from '@kubernetes/client-node';
import type { KubeClients } from './types.ts';
import { connectWithRetries, isTransportFailure } from './resilience.ts';
import { asMeansError, MeansError } from './meansError.ts';
import { defaultTimeouts } from './timeouts.ts';
import { CredentialedKubeConfig } from './credentials.ts';

/** What a command run in a pod or on a node gave back. */
export interface CommandResult {
  stdout: string;
  stderr: string;
  /** Process exit code; -1 when the transport could not tell. */
  exitCode: number;
}

export interface ExecTarget {
  namespace: string;
  pod: string;
  container?: string;
}

export async function execInPod(
  kube: KubeClients,
  target: ExecTarget,
  argv: string[],
  timeoutMs = defaultTimeouts().exec,
  signal = kube.signal,
  renewed = false,
): Promise<CommandResult> {
  const container = target.container ?? (await firstContainer(kube, target));
  const stdout = collector();
  const stderr = collector();
  let status: V1Status | undefined;
  const exec = new Exec(kube.kc);
  const where = `${target.namespace}/${target.pod} [${container}]`;
  let ws;
  try {
    // Connects are retried (resets, 429, 5xx on the upgrade): no command has run yet.
    ws = await connectWithRetries(
      `exec into ${where}`,
      kube.policy,
      signal,
      () =>
        exec.exec(target.namespace, target.pod, container, argv, stdout.stream, stderr.stream, null, false, st => {
          status = st;
        }),
      w => w.close(),
    );
  } catch (e) {
    // A refused credential (the upgrade answered 401) that can be had anew: once more with it.
    if (!renewed && /Unexpected server response: 401/.test(String(e)) && kube.kc instanceof CredentialedKubeConfig && kube.kc.credentialRefused())
      return execInPod(kube, { ...target, container }, argv, timeoutMs, signal, true);
    // No answer from the API server even after retries: the path to the cluster failed, not exec.
    if (isTransportFailure(e)) throw e;
    throw asMeansError(e, 'exec', `could not exec into ${where}`)!;
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      ws.close();
      reject(new MeansError('exec', `exec in ${where} did not finish within ${Math.round(timeoutMs / 1000)}s`));
    }, timeoutMs);
    const onAbort = () => {
      ws.close();
      reject(new Error(`exec in ${where} interrupted`));
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    ws.on('close', () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
    ws.on('error', (e: Error) => {
      clearTimeout(timer);
      reject(new MeansError('exec', `exec in ${where} failed: ${e.message}`, { cause: e }));
    });
  });
  const result = { stdout: stdout.text(), stderr: stderr.text(), exitCode: exitCodeOf(status) };
  const failure = execFailure(status, result);
  if (failure) throw asMeansError(new Error(failure), 'exec', `exec in ${where} failed`)!;
  return result;
}

/**
 * Why the exec itself failed (not the command), or undefined when the command ran: a Status that
 * is neither Success nor the command's exit code, or no Status at all.
 */
export function execFailure(status: V1Status | undefined, result: { stdout: string; stderr: string }): string | undefined {
  if (!status) return `the connection closed without an exec status${result.stderr ? ` (stderr: ${result.stderr.trim().slice(0, 300)})` : ''}`;
  if (status.status === 'Success' || status.reason === 'NonZeroExitCode') return undefined;
  return `${status.message || 'no message'}${status.reason ? ` (${status.reason}${status.code ? `, HTTP ${status.code}` : ''})` : ''}`;
}

/** Success → 0; NonZeroExitCode → the ExitCode cause; anything else (or no status) → -1. */
export function exitCodeOf(status: V1Status | undefined): number {
  if (!status) return -1;
  if (status.status === 'Success') return 0;
  const cause = status.details?.causes?.find(c => c.reason === 'ExitCode');
  const code = cause?.message !== undefined ? Number(cause.message) : NaN;
  return Number.isInteger(code) ? code : -1;
}

/** The container an exec without one goes to, as kubectl picks it: the pod's first. */
export async function firstContainer(kube: KubeClients, t: ExecTarget): Promise<string> {
  const pod = await kube.core.readNamespacedPod({ namespace: t.namespace, name: t.pod });
  const name = pod.spec?.containers[0]?.name;
  if (!name) throw new Error(`pod ${t.namespace}/${t.pod} has no containers`);
  return name;
}

function collector() {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
