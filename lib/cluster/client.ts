// Builds the shared clients once from a KubeConfig; everything else gets them injected.

import { AppsV1Api, CoreV1Api, KubeConfig, KubernetesObjectApi, NodeV1Api, StorageV1Api } from '@kubernetes/client-node';
import { policyOf, resilientConfiguration, type ClientOptions } from './resilience.ts';
import { openWatch } from './watch.ts';
import { SharedAgentKubeConfig } from './agent.ts';
import type { KubeClients } from './types.ts';

/**
 * Every call goes through one retry-and-deadline policy (resilience.ts); with opts.signal
 * (the run's abort) every call in flight ends on Ctrl-C or the run's deadline.
 */
export function makeClients(from: KubeConfig, opts: ClientOptions = {}): KubeClients {
  // Kept-alive connections and resumed TLS sessions for every call, exec and watch (agent.ts).
  const kc = from instanceof SharedAgentKubeConfig ? from : new SharedAgentKubeConfig(from);
  const config = resilientConfiguration(kc, opts);
  const objects = new ObjectsApi(config, kc);
  return {
    kc,
    server: kc.getCurrentCluster()?.server ?? '',
    context: kc.getCurrentContext(),
    core: new CoreV1Api(config),
    apps: new AppsV1Api(config),
    node: new NodeV1Api(config),
    storage: new StorageV1Api(config),
    objects,
    watch: { watch: (path, query, callback, done) => openWatch(kc, path, query, callback, done, policyOf(opts).requestTimeoutMs) },
    signal: opts.signal,
    policy: policyOf(opts),
  };
}

/** KubernetesObjectApi on our configuration, with the context's default namespace (as makeApiClient does). */
class ObjectsApi extends KubernetesObjectApi {
  constructor(config: ConstructorParameters<typeof KubernetesObjectApi>[0], kc: KubeConfig) {
    super(config);
    this.setDefaultNamespace(kc);
  }
}
