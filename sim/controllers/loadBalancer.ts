// The cloud provider's service controller: type=LoadBalancer Services get an ingress
// address (from the network twin when it offers one, else 127.0.200.N). Without the
// loadBalancer add-on nothing answers and the address stays <pending>, as on bare metal.
//
// As upstream (https://github.com/kubernetes/cloud-provider/blob/master/controllers/service/controller.go,
// syncLoadBalancerIfNeeded): the service-controller adds the
// service.kubernetes.io/load-balancer-cleanup finalizer before it asks the cloud, records
// EnsuringLoadBalancer, and writes the ingress when the cloud is done (after
// latencies.loadBalancerIngressMs here); when the Service is deleted or stops being a
// LoadBalancer it records DeletingLoadBalancer, deletes the load balancer, DeletedLoadBalancer,
// and only then removes the finalizer.

import type { V1Service } from '@kubernetes/client-node';
import { StoreError, type KubeObject } from '../api/store.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

const SOURCE = 'service-controller';
export const LB_CLEANUP_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';
/** How long the cloud takes to give an address when the profile does not say (ms). */
const DEFAULT_INGRESS_MS = 300;

export function startLoadBalancerController({ store, profile, options }: ControllerContext): Stoppable {
  const assigned = new Map<string, string>();
  /** Services whose load balancer the cloud is still making: the timer that finishes it. */
  const provisioning = new Map<string, NodeJS.Timeout>();
  const ingressMs = profile.latencies?.loadBalancerIngressMs ?? DEFAULT_INGRESS_MS;
  let next = 1;
  let stopped = false;
  const queue = new WorkQueue('service-controller', key => sync(key));
  const sub = store.onAny(
    guarded('service-controller', (bucket, e) => {
      if (bucket !== 'services') return;
      const key = keyOf(e.object.metadata.namespace, e.object.metadata.name!);
      if (e.type === 'DELETED') {
        cancel(key);
        release(key);
        return;
      }
      queue.add(key);
    }),
  );
  for (const s of store.list('services').items) queue.add(keyOf(s.metadata.namespace, s.metadata.name!));

  function cancel(key: string): void {
    clearTimeout(provisioning.get(key));
    provisioning.delete(key);
  }

  function release(key: string): void {
    if (!assigned.delete(key)) return;
    const [ns, name] = splitKey(key);
    options.network?.releaseLoadBalancerIP?.(ns!, name);
  }

  function write(ns: string, name: string, fn: (o: KubeObject) => void): void {
    try {
      store.mutate('services', ns, name, fn, { skipAdmission: true });
    } catch (err) {
      if (!(err instanceof StoreError && err.code === 404)) throw err;
    }
  }

  function sync(key: string): void {
    if (!profile.addons.loadBalancer || stopped) return;
    const [ns, name] = splitKey(key);
    const obj = store.tryGet('services', ns, name);
    if (!obj) return;
    const svc = obj as unknown as V1Service;
    const hasFinalizer = obj.metadata.finalizers?.includes(LB_CLEANUP_FINALIZER) ?? false;
    if (obj.metadata.deletionTimestamp || svc.spec?.type !== 'LoadBalancer') {
      cancel(key);
      if (!hasFinalizer && !assigned.has(key)) return;
      recordEvent(store, obj, 'Normal', 'DeletingLoadBalancer', 'Deleting load balancer', SOURCE);
      release(key);
      write(ns!, name, o => {
        if (!o.metadata.deletionTimestamp) o.status = { ...(o.status as object), loadBalancer: {} };
        o.metadata.finalizers = o.metadata.finalizers?.filter(f => f !== LB_CLEANUP_FINALIZER);
      });
      recordEvent(store, obj, 'Normal', 'DeletedLoadBalancer', 'Deleted load balancer', SOURCE);
      return;
    }
    if (svc.status?.loadBalancer?.ingress?.length || provisioning.has(key)) return;
    if (!hasFinalizer) write(ns!, name, o => void (o.metadata.finalizers = [...(o.metadata.finalizers ?? []), LB_CLEANUP_FINALIZER]));
    recordEvent(store, obj, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer', SOURCE);
    provisioning.set(
      key,
      setTimeout(
        guarded('service-controller', () => {
          provisioning.delete(key);
          finish(key);
        }),
        ingressMs,
      ),
    );
  }

  function finish(key: string): void {
    const [ns, name] = splitKey(key);
    const obj = store.tryGet('services', ns, name);
    if (stopped || !obj || obj.metadata.deletionTimestamp || (obj as unknown as V1Service).spec?.type !== 'LoadBalancer') return;
    const ip = assigned.get(key) ?? options.network?.allocateLoadBalancerIP?.(ns!, name) ?? `127.0.200.${next++}`;
    assigned.set(key, ip);
    write(ns!, name, o => {
      o.status = { ...(o.status as object), loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] } };
    });
    recordEvent(store, obj, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer', SOURCE);
  }

  return {
    async stop() {
      stopped = true;
      for (const t of provisioning.values()) clearTimeout(t);
      provisioning.clear();
      sub.stop();
      await queue.stop();
    },
  };
}
