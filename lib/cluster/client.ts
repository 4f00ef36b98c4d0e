// Builds the shared clients once from a KubeConfig; everything else gets them injected.

import {
  AppsV1Api, CoreV1Api, KubeConfig, KubernetesObjectApi, NodeV1Api, StorageV1Api, Watch,
} from '@kubernetes/client-node';
import type { KubeClients } from './types.ts';

export function makeClients(kc: KubeConfig): KubeClients {
  return {
    kc,
    server: kc.getCurrentCluster()?.server ?? '',
    context: kc.getCurrentContext(),
    core: kc.makeApiClient(CoreV1Api),
    apps: kc.makeApiClient(AppsV1Api),
    node: kc.makeApiClient(NodeV1Api),
    storage: kc.makeApiClient(StorageV1Api),
    objects: KubernetesObjectApi.makeApiClient(kc),
    watch: new Watch(kc),
  };
}
