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
  /** One resource-list read per apiVersion in flight: its own cache fills only once a read returns. */
  private readonly _lookups = new Map<string, Promise<unknown>>();

  constructor(config: ConstructorParameters<typeof KubernetesObjectApi>[0], kc: KubeConfig) {
    super(config);
    this.setDefaultNamespace(kc);
  }

  /**
   * The kind's API resource (is it namespaced?), read from the apiVersion's resource list once:
   * 100 HostProcess pods created at once each read /api/v1, as the cache was still empty for all
   * of them. A failed read is dropped, so the next call reads again (client-go's memcache
   * discovery likewise shares one fetch).
   */
  protected override async resource(apiVersion: string, kind: string, options?: Parameters<KubernetesObjectApi['resource']>[2]) {
    const first = this._lookups.get(apiVersion);
    if (first) {
      await first.catch(() => undefined);
      return super.resource(apiVersion, kind, options);
    }
    const lookup = super.resource(apiVersion, kind, options);
    this._lookups.set(apiVersion, lookup);
    try {
      return await lookup;
    } finally {
      if (this._lookups.get(apiVersion) === lookup) this._lookups.delete(apiVersion);
    }
  }
}
