// The cluster client the whole harness shares: built once from a kubeconfig and injected.

import type { AppsV1Api, CoreV1Api, KubeConfig, KubernetesObjectApi, NodeV1Api, StorageV1Api } from '@kubernetes/client-node';

import type { RetryPolicy } from './resilience.ts';

/** client-node's Watch.watch signature; ours (openWatch) adds a connect deadline and a real cancel. */
export interface WatchClient {
  watch(
    path: string,
    query: Record<string, string | boolean | undefined>,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Watch's own callback type
    callback: (type: string, obj: any) => void,
    done: (err: unknown) => void,
  ): Promise<AbortController>;
}

export interface KubeClients {
  kc: KubeConfig;
  /** API server URL of the current context. */
  server: string;
  /** Name of the current context ('' when loaded in-cluster). */
  context: string;
  core: CoreV1Api;
  apps: AppsV1Api;
  node: NodeV1Api;
  storage: StorageV1Api;
  /** Generic create/delete of any manifest (fixtures). */
  objects: KubernetesObjectApi;
  /** One watch request at a time (watch.ts's watchUntil adds reconnects and relists). */
  watch: WatchClient;
  /** The abort signal every call of these clients honours (the run's), if any. */
  signal?: AbortSignal;
  /** The retry-and-deadline policy of these clients (resilience.ts). */
  policy?: RetryPolicy;
}
