// The simulated control plane: bootstraps the cluster the profile describes (system
// namespaces, nodes, kube-system add-ons) and runs the controllers and scheduler, each
// reacting to store events. stop() ends them all.

import type { Store } from '../api/store.ts';
import type { Profile } from '../profiles/types.ts';
import { startNodes } from '../nodes/index.ts';
import { createBackground } from '../nodes/background.ts';
import { registerControlPlaneAdmission } from './admission.ts';
import { DEFAULT_DNS_IP, installAddons } from './addons/index.ts';
import { createKubernetesService, createSystemNamespaces } from './bootstrap.ts';
import type { ControllerContext, ControllerOptions, PodMetricsSource, Stoppable } from './context.ts';
import { startClusterRoleAggregationController } from './clusterRoleAggregation.ts';
import { startDaemonSetController } from './daemonset.ts';
import { startDeploymentController } from './deployment.ts';
import { startEndpointSliceController } from './endpointslices.ts';
import { startEndpointsController } from './endpoints.ts';
import { startGarbageCollector } from './garbageCollector.ts';
import { startHpaController } from './hpa.ts';
import { startJobController } from './job.ts';
import { startLoadBalancerController } from './loadBalancer.ts';
import { startNamespaceController } from './namespace.ts';
import { startPvcProtectionController } from './pvcProtection.ts';
import { startNodeLifecycleController } from './nodeLifecycle.ts';
import { startReplicaSetController } from './replicaset.ts';
import { startScheduler } from './scheduler.ts';
import { startServiceAccountController } from './serviceAccount.ts';
import { startStatefulSetController } from './statefulset.ts';
import { startTaintEvictionController } from './taintEviction.ts';
import { startVolumeProvisioner } from './volumeProvisioner.ts';
import { startVolumeResizer } from './volumeResizer.ts';

export type { ControllerOptions, PodMetricsSource, PodUsage, ControlPlaneNetwork } from './context.ts';
export { metricsSourceFromPodMetrics } from './context.ts';
export { recordEvent } from './events.ts';
export { addonImages, cniDaemonSetNames } from './addons/index.ts';

export interface ControlPlane {
  /**
   * Sets where the HPA reads pod usage. The runtime starts after the controllers, so its
   * metrics can be plugged in later (see metricsSourceFromPodMetrics in ./context.ts).
   */
  setMetricsSource(source: PodMetricsSource | undefined): void;
  stop(): Promise<void>;
}

export function startControllers(store: Store, profile: Profile, options: ControllerOptions = {}): ControlPlane {
  // A copy, so setMetricsSource does not write into the caller's object.
  const ctx: ControllerContext = { store, profile, options: { ...options } };
  let running = true;
  registerControlPlaneAdmission(store, profile, () => running);

  // Controllers first, so they see the bootstrap objects as events like any others.
  const parts: Stoppable[] = [
    startNamespaceController(ctx),
    startServiceAccountController(ctx),
    startGarbageCollector(ctx),
    startScheduler(ctx),
    startReplicaSetController(ctx),
    startDeploymentController(ctx),
    startDaemonSetController(ctx),
    startStatefulSetController(ctx),
    startJobController(ctx),
    startEndpointsController(ctx),
    startEndpointSliceController(ctx),
    startVolumeProvisioner(ctx),
    startVolumeResizer(ctx),
    startPvcProtectionController(ctx),
    startLoadBalancerController(ctx),
    startHpaController(ctx),
    startTaintEvictionController(ctx),
    startNodeLifecycleController(ctx),
    startClusterRoleAggregationController(ctx),
  ];
  try {
    createSystemNamespaces(store);
    const net = options.network;
    if (options.registerNodes !== false)
      parts.push(
        startNodes(store, profile, {
          nodeAddress: net?.nodeAddress ? n => net.nodeAddress!(n) : undefined,
          podCIDR: net?.plan ? n => net.plan!.podCIDR(n) : undefined,
          podCIDRs: net?.plan?.podCIDRs ? n => net.plan!.podCIDRs!(n) : undefined,
        }),
      );
    createKubernetesService(store, { allocateIPs: !!options.network, apiServer: options.apiServer });
    installAddons(store, profile, options.network?.dnsServer?.().address ?? DEFAULT_DNS_IP);
    if (options.registerNodes !== false) createBackground(store, profile, net?.nodeAddress ? n => net.nodeAddress!(n) : undefined);
  } catch (err) {
    running = false;
    void Promise.all(parts.map(p => p.stop()));
    throw err;
  }

  return {
    setMetricsSource(source) {
      ctx.options.metrics = source;
    },
    async stop() {
      running = false;
      await Promise.all(
        parts.map(async p => {
          try {
            await p.stop();
          } catch (err) {
            console.error('sim: stopping a controller failed:', err);
          }
        }),
      );
    },
  };
}
