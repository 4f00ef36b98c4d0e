// What every controller is started with, and what it gives back.

import type { KubeObject, Store } from '../api/store.ts';
import type { NetworkTwin } from '../network/types.ts';
import type { Profile } from '../profiles/types.ts';

/** CPU and memory a pod uses now, as metrics-server would report it. */
export interface PodUsage {
  cpuCores: number;
  memoryBytes: number;
}

/** Reads a pod's current usage; undefined when there is no sample for it. */
export type PodMetricsSource = (namespace: string, pod: string) => PodUsage | undefined | Promise<PodUsage | undefined>;

/** The parts of the network twin the control plane uses; all optional. */
export type ControlPlaneNetwork = Partial<Pick<NetworkTwin, 'nodeAddress' | 'dnsServer'>> & {
  /** The twin's address plan: each node's pod range becomes its spec.podCIDR (podCIDRs: both families when dual-stack). */
  plan?: { podCIDR(node: string): string; podCIDRs?(node: string): string[] };
  /** An external address for a LoadBalancer Service. */
  allocateLoadBalancerIP?(namespace: string, service: string): string;
  releaseLoadBalancerIP?(namespace: string, service: string): void;
};

export interface ControllerOptions {
  network?: ControlPlaneNetwork;
  /** Pod usage for the HPA; without it HPAs report FailedGetResourceMetric. */
  metrics?: PodMetricsSource;
  /** Where the API server listens, for the default/kubernetes Endpoints. */
  apiServer?: { host: string; port: number };
  /** Create Node objects and Leases from the profile (default true). */
  registerNodes?: boolean;
  /** Seconds between HPA syncs (default 15, as kube-controller-manager). */
  hpaSyncSeconds?: number;
}

export interface ControllerContext {
  store: Store;
  profile: Profile;
  options: ControllerOptions;
}

export interface Stoppable {
  stop(): Promise<void> | void;
}

/** Runs a store listener so that a bug in it is logged and never reaches the writer. */
export function guarded<A extends unknown[]>(name: string, fn: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      fn(...args);
    } catch (err) {
      console.error(`sim: ${name} listener failed:`, err);
    }
  };
}

export const nsName = (o: KubeObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

interface PodMetricsLike {
  metadata?: { name?: string };
  containers?: { usage?: { cpu?: string; memory?: string } }[];
}

/**
 * Adapts a metrics.k8s.io PodMetrics lister (the runtime's SubresourceHandlers.podMetrics)
 * into a PodMetricsSource: the pod's usage is the sum over its containers.
 */
export function metricsSourceFromPodMetrics(list: (namespace: string) => Promise<object[]>, parse: (q: string | undefined) => number): PodMetricsSource {
  return async (namespace, pod) => {
    const found = ((await list(namespace)) as PodMetricsLike[]).find(m => m.metadata?.name === pod);
    if (!found) return undefined;
    return (found.containers ?? []).reduce(
      (a, c) => ({
        cpuCores: a.cpuCores + (parse(c.usage?.cpu) || 0),
        memoryBytes: a.memoryBytes + (parse(c.usage?.memory) || 0),
      }),
      { cpuCores: 0, memoryBytes: 0 },
    );
  };
}
