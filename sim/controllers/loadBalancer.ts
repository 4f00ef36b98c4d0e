// The cloud provider's service controller: type=LoadBalancer Services get an ingress
// address (from the network twin when it offers one, else 127.0.200.N). Without the
// loadBalancer add-on nothing answers and the address stays <pending>, as on bare metal.

import type { V1Service } from '@kubernetes/client-node';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { recordEvent } from './events.ts';
import { WorkQueue, keyOf, splitKey } from './workqueue.ts';

const SOURCE = 'service-controller';

export function startLoadBalancerController({ store, profile, options }: ControllerContext): Stoppable {
  const assigned = new Map<string, string>();
  let next = 1;
  const queue = new WorkQueue('service-controller', key => sync(key));
  const sub = store.onAny(
    guarded('service-controller', (bucket, e) => {
      if (bucket !== 'services') return;
      const key = keyOf(e.object.metadata.namespace, e.object.metadata.name!);
      if (e.type === 'DELETED') {
        release(key);
        return;
      }
      queue.add(key);
    }),
  );
  for (const s of store.list('services').items) queue.add(keyOf(s.metadata.namespace, s.metadata.name!));

  function release(key: string): void {
    if (!assigned.delete(key)) return;
    const [ns, name] = splitKey(key);
    options.network?.releaseLoadBalancerIP?.(ns!, name);
  }

  function sync(key: string): void {
    if (!profile.addons.loadBalancer) return;
    const [ns, name] = splitKey(key);
    const obj = store.tryGet('services', ns, name);
    const svc = obj as unknown as V1Service | undefined;
    if (!obj || !svc) return;
    if (svc.spec?.type !== 'LoadBalancer') {
      if (assigned.has(key)) {
        release(key);
        store.mutate(
          'services',
          ns,
          name,
          o => {
            o.status = { ...(o.status as object), loadBalancer: {} };
          },
          { skipAdmission: true },
        );
      }
      return;
    }
    if (svc.status?.loadBalancer?.ingress?.length) return;
    recordEvent(store, obj, 'Normal', 'EnsuringLoadBalancer', 'Ensuring load balancer', SOURCE);
    const ip = assigned.get(key) ?? options.network?.allocateLoadBalancerIP?.(ns!, name) ?? `127.0.200.${next++}`;
    assigned.set(key, ip);
    store.mutate(
      'services',
      ns,
      name,
      o => {
        o.status = { ...(o.status as object), loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] } };
      },
      { skipAdmission: true },
    );
    recordEvent(store, obj, 'Normal', 'EnsuredLoadBalancer', 'Ensured load balancer', SOURCE);
  }

  return {
    async stop() {
      sub.stop();
      await queue.stop();
    },
  };
}
