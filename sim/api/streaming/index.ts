// The streaming subresources over websockets (pods/exec, pods/attach,
// pods/portforward): checks the request as the API server does before upgrading
// (errors are plain HTTP Status responses), then speaks the channel protocol.

import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { V1Pod } from '@kubernetes/client-node';
import { WebSocketServer } from 'ws';
import type { Store } from '../store.ts';
import type { SubresourceHandlers } from '../runtimeContract.ts';
import { EXEC_PROTOCOLS, PORTFORWARD_PROTOCOLS, pickProtocol } from './channels.ts';
import { runExec, type ExecSession } from './exec.ts';
import { runPortForward } from './portforward.ts';
import { boolParam } from '../params.ts';

export interface StreamingTarget {
  namespace: string;
  pod: string;
  subresource: 'exec' | 'attach' | 'portforward';
  query: URLSearchParams;
}

class UpgradeError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: object,
  ) {
    super(message);
  }
}

// One server per subprotocol family; noServer: the caller owns the HTTP server.
const execWss = new WebSocketServer({ noServer: true, handleProtocols: p => pickProtocol(p, EXEC_PROTOCOLS) });
const pfWss = new WebSocketServer({ noServer: true, handleProtocols: p => pickProtocol(p, PORTFORWARD_PROTOCOLS) });

function reject(socket: Duplex, err: UpgradeError): void {
  const body = JSON.stringify({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: err.message,
    reason: err.reason,
    ...(err.details ? { details: err.details } : {}),
    code: err.code,
  });
  socket.end(
    `HTTP/1.1 ${err.code} ${STATUS_CODES[err.code] ?? ''}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** The container exec/attach is about: explicit, annotated default, or the only one (as the API server resolves it). */
function resolveContainer(pod: V1Pod, requested: string | null): string {
  const name = pod.metadata?.name ?? '';
  const all = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? []), ...(pod.spec?.ephemeralContainers ?? [])].map(c => c.name);
  if (requested) {
    if (!all.includes(requested)) throw new UpgradeError(400, 'BadRequest', `container ${requested} is not valid for pod ${name}`);
    return requested;
  }
  const def = pod.metadata?.annotations?.['kubectl.kubernetes.io/default-container'];
  if (def && all.includes(def)) return def;
  const main = (pod.spec?.containers ?? []).map(c => c.name);
  if (main.length === 1) return main[0];
  throw new UpgradeError(400, 'BadRequest', `a container name must be specified for pod ${name}, choose one of: [${main.join(' ')}]`);
}

function checkPod(store: Store, t: StreamingTarget): V1Pod {
  const pod = store.tryGet('pods', t.namespace, t.pod) as unknown as V1Pod | undefined;
  if (!pod) throw new UpgradeError(404, 'NotFound', `pods "${t.pod}" not found`, { name: t.pod, kind: 'pods' });
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') {
    const verb = t.subresource === 'portforward' ? 'port-forward to' : `${t.subresource} into`;
    throw new UpgradeError(400, 'BadRequest', `cannot ${verb} a container in a completed pod; current phase is ${phase}`);
  }
  if (!pod.spec?.nodeName) throw new UpgradeError(400, 'BadRequest', `pod ${t.pod} does not have a host assigned`);
  return pod;
}

function execSession(pod: V1Pod, t: StreamingTarget): ExecSession {
  const q = t.query;
  const container = resolveContainer(pod, q.get('container'));
  const s: ExecSession = {
    namespace: t.namespace,
    pod: t.pod,
    container,
    command: q.getAll('command'),
    stdin: boolParam(q, 'stdin'),
    stdout: boolParam(q, 'stdout'),
    stderr: boolParam(q, 'stderr'),
    tty: boolParam(q, 'tty'),
    attach: t.subresource === 'attach',
  };
  // A container the kubelet reports as not running cannot be entered (the runtime has no process to join).
  const cs = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])].find(c => c.name === container);
  if (cs && !cs.state?.running) throw new UpgradeError(400, 'BadRequest', `unable to upgrade connection: container not found ("${container}")`);
  if (!s.stdin && !s.stdout && !s.stderr) throw new UpgradeError(400, 'BadRequest', 'you must specify at least 1 of stdin, stdout, stderr');
  if (s.tty && s.stderr) s.stderr = false; // a tty has one output stream (kubectl never asks for both)
  if (!s.attach && s.command.length === 0) throw new UpgradeError(400, 'BadRequest', 'you must specify at least one command for the container');
  return s;
}

function forwardPorts(q: URLSearchParams): number[] {
  const raw = q
    .getAll('ports')
    .flatMap(v => v.split(','))
    .map(v => v.trim())
    .filter(Boolean);
  if (raw.length === 0) throw new UpgradeError(400, 'BadRequest', 'at least one port must be specified');
  return raw.map(v => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new UpgradeError(400, 'BadRequest', `invalid port "${v}"`);
    return n;
  });
}

/**
 * A client offering only protocols we do not speak (e.g. kubectl 1.31+ port-forward's
 * SPDY/3.1+portforward.k8s.io tunnel) gets the handshake refused, as wsstream does, so
 * it can fall back; none offered means the unversioned channel protocol.
 */
function checkProtocols(req: IncomingMessage, supported: string[]): void {
  const offered = (req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map(p => p.trim())
    .filter(Boolean);
  if (offered.length && !offered.some(p => supported.includes(p)))
    throw new UpgradeError(
      403,
      'Forbidden',
      `unable to upgrade connection: requested protocol(s) are not supported: [${offered.join(' ')}]; supports [${supported.join(' ')}]`,
    );
}

export function handleStreamingUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: StreamingTarget,
  handlers: SubresourceHandlers,
  store: Store,
): void {
  try {
    if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket')
      throw new UpgradeError(400, 'BadRequest', `unable to upgrade connection: unsupported protocol "${req.headers.upgrade ?? ''}"`);
    const pod = checkPod(store, target);
    checkProtocols(req, target.subresource === 'portforward' ? PORTFORWARD_PROTOCOLS : EXEC_PROTOCOLS);
    if (target.subresource === 'portforward') {
      const ports = forwardPorts(target.query);
      pfWss.handleUpgrade(req, socket, head, ws => runPortForward(ws, target.namespace, target.pod, ports, handlers));
    } else {
      const session = execSession(pod, target);
      execWss.handleUpgrade(req, socket, head, ws => runExec(ws, session, handlers));
    }
  } catch (err) {
    if (err instanceof UpgradeError) {
      reject(socket, err);
      return;
    }
    reject(socket, new UpgradeError(500, 'InternalError', `Internal error occurred: ${err instanceof Error ? err.message : String(err)}`));
  }
}
