// The contract between the API server (HTTP, websockets, framing) and the node
// runtime (what a kubelet does). The API layer parses the request and speaks the
// channel protocol; the runtime runs the command or streams the data.

import type { Duplex, Readable, Writable } from 'node:stream';

export interface ExecRequest {
  namespace: string;
  pod: string;
  /** Defaults to the first container (the API layer resolves kubectl.kubernetes.io/default-container). */
  container?: string;
  command: string[];
  stdin: boolean;
  tty: boolean;
}

export interface ExecStreams {
  /** Present when stdin=true; ends when the client closes stdin. */
  stdin: Readable | null;
  stdout: Writable;
  stderr: Writable;
}

export interface ExecResult {
  exitCode: number;
  /** Set when the command could not start at all (v4 status: Failure with this message). */
  error?: string;
}

export interface LogRequest {
  namespace: string;
  pod: string;
  container?: string;
  follow: boolean;
  previous?: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  timestamps?: boolean;
  limitBytes?: number;
}

export interface PortForwardRequest {
  namespace: string;
  pod: string;
  port: number;
}

export interface NodeProxyResponse {
  status: number;
  contentType: string;
  body: string | Buffer;
}

/** Implemented by sim/runtime. Errors are StoreErrors (404 pod not found, 400 container not running...). */
export interface SubresourceHandlers {
  exec(req: ExecRequest, streams: ExecStreams, signal: AbortSignal): Promise<ExecResult>;
  log(req: LogRequest, out: Writable, signal: AbortSignal): Promise<void>;
  /** Connects a byte stream to the pod's port (data channel of one port-forward stream pair). */
  portForward(req: PortForwardRequest, signal: AbortSignal): Promise<Duplex>;
  /** GET on the kubelet through nodes/{name}/proxy/{path}, e.g. "stats/summary". */
  nodeProxy(node: string, path: string): Promise<NodeProxyResponse>;
  /** metrics.k8s.io PodMetrics / NodeMetrics objects (only when the profile has metrics-server). */
  podMetrics?(namespace: string | undefined): Promise<object[]>;
  nodeMetrics?(): Promise<object[]>;
}
