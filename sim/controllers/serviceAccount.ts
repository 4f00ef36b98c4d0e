// The serviceaccount controller: every active namespace has a "default" ServiceAccount,
// recreated if deleted.

import type { V1ServiceAccount } from '@kubernetes/client-node';
import { StoreError, type KubeObject } from '../api/store.ts';
import { guarded, type ControllerContext, type Stoppable } from './context.ts';
import { WorkQueue } from './workqueue.ts';

const SERVICE_ACCOUNTS = 'serviceaccounts';

export function startServiceAccountController({ store }: ControllerContext): Stoppable {
  const queue = new WorkQueue('serviceaccount-controller', ns => ensure(ns));
  const sub = store.onAny(
    guarded('serviceaccount-controller', (bucket, e) => {
      if (bucket === 'namespaces' && e.type === 'ADDED') queue.add(e.object.metadata.name!);
      if (bucket === SERVICE_ACCOUNTS && e.type === 'DELETED' && e.object.metadata.name === 'default') queue.add(e.object.metadata.namespace!);
    }),
  );
  for (const n of store.list('namespaces').items) queue.add(n.metadata.name!);

  function ensure(ns: string): void {
    const nsObj = store.tryGet('namespaces', undefined, ns);
    if (!nsObj || nsObj.metadata.deletionTimestamp || store.tryGet(SERVICE_ACCOUNTS, ns, 'default')) return;
    const sa: V1ServiceAccount = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: ns } };
    try {
      store.create(SERVICE_ACCOUNTS, sa as unknown as KubeObject);
    } catch (err) {
      // Lost a race with a terminating namespace or another writer: nothing to do.
      if (!(err instanceof StoreError)) throw err;
    }
  }

  return {
    async stop() {
      sub.stop();
      await queue.stop();
    },
  };
}
