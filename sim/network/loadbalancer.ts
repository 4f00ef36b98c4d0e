// A LoadBalancer provisioner for a twin run without the sim's controllers (tests,
// startNetwork({ provisionLoadBalancers: true })): gives each type=LoadBalancer Service
// an ingress address in 127.200.0.0/16 (see addresses.ts) shortly after it appears, as
// a cloud controller would, and frees it when the Service goes. In the full sim the
// controllers' service-controller does this through allocateLoadBalancerIP().

import type { V1Service } from '@kubernetes/client-node';
import type { KubeObject, Store } from '../api/store.ts';
import type { AddressPlan } from './addresses.ts';
import type { Tracker } from './tracker.ts';

export function startLoadBalancerProvisioner(store: Store, plan: AddressPlan, tracker: Tracker): void {
  for (const o of store.list('services').items) {
    const ip = (o as unknown as V1Service).status?.loadBalancer?.ingress?.[0]?.ip;
    if (ip) plan.markLoadBalancerIP(ip, `${o.metadata.namespace}/${o.metadata.name}`);
  }
  const assign = (o: KubeObject) => {
    const svc = o as unknown as V1Service;
    if (svc.spec?.type !== 'LoadBalancer' || svc.status?.loadBalancer?.ingress?.length) return;
    // Not inside the store's synchronous event delivery: write on the next turn.
    setImmediate(() => {
      if (tracker.stopped) return;
      const ns = svc.metadata?.namespace ?? '',
        name = svc.metadata?.name ?? '';
      const cur = store.tryGet('services', ns, name) as unknown as V1Service | undefined;
      if (!cur || cur.spec?.type !== 'LoadBalancer' || cur.status?.loadBalancer?.ingress?.length) return;
      const ip = plan.allocateLoadBalancerIP(`${ns}/${name}`);
      try {
        store.mutate('services', ns, name, x => {
          (x as unknown as V1Service).status = { ...(x.status as object), loadBalancer: { ingress: [{ ip, ipMode: 'VIP' }] } };
        });
      } catch {
        plan.releaseLoadBalancerIP(ip);
      }
    });
  };
  const w = store.watch('services', {}, e => {
    const ip = (e.object as unknown as V1Service).status?.loadBalancer?.ingress?.[0]?.ip;
    if (e.type === 'DELETED') {
      if (ip) plan.releaseLoadBalancerIP(ip);
      return;
    }
    if (e.type === 'MODIFIED' && ip && (e.object as unknown as V1Service).spec?.type !== 'LoadBalancer') plan.releaseLoadBalancerIP(ip);
    if (e.type === 'ADDED' || e.type === 'MODIFIED') assign(e.object);
  });
  tracker.onStop(() => w.stop());
}
