// The cluster client the whole harness shares: built once from a kubeconfig and injected.

import type {
  AppsV1Api, CoreV1Api, KubeConfig, KubernetesObjectApi, NodeV1Api, StorageV1Api, Watch,
} from '@kubernetes/client-node';

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
  watch: Watch;
}
