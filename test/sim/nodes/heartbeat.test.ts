// A kubelet whose Lease lapsed while the sim was busy (a 100-node sim stalls its event loop at
// start) is not dead: its next status post puts its own conditions back, as a real kubelet's
// does, and the lifecycle controller lifts the unreachable taints.

import { expect } from 'chai';
import type { V1Node } from '@kubernetes/client-node';
import { startNodeLifecycleController } from '../../../sim/controllers/nodeLifecycle.ts';
import { startNodes } from '../../../sim/nodes/index.ts';
import { loadProfile } from '../../../sim/profiles/load.ts';
import { newStore, waitFor } from '../../support/simControllers.ts';

describe('sim nodes: a lapsed Lease recovers', () => {
  it('conditions set Unknown by the lifecycle controller go back to Ready on the next status post', async () => {
    const store = newStore();
    store.create('namespaces', { metadata: { name: 'kube-node-lease' } });
    const profile = loadProfile('default');
    const nodes = startNodes(store, profile, { leaseRenewMs: 20, statusHeartbeatMs: 50 });
    const nlc = startNodeLifecycleController({ store, profile, options: {} }, { gracePeriodMs: 60_000, monitorPeriodMs: 60_000 });
    const get = () => store.get('nodes', undefined, 'win-2022-1') as unknown as V1Node;
    try {
      // What the controller writes when the Lease is older than its grace period.
      store.mutate(
        'nodes',
        undefined,
        'win-2022-1',
        o => {
          const n = o as unknown as V1Node;
          n.status!.conditions = n.status!.conditions!.map(c =>
            c.type === 'NetworkUnavailable' ? c : { ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' },
          );
        },
        { skipAdmission: true },
      );
      await waitFor(store, 'unreachable taints', () => (get().spec?.taints ?? []).some(t => t.key === 'node.kubernetes.io/unreachable'), 5_000);
      const back = await waitFor(
        store,
        'Ready again, untainted',
        () => {
          const n = get();
          const ready = n.status!.conditions!.find(c => c.type === 'Ready');
          return ready?.status === 'True' && !(n.spec?.taints ?? []).some(t => t.key.startsWith('node.kubernetes.io/')) ? n : undefined;
        },
        5_000,
      );
      expect(back.status!.conditions!.find(c => c.type === 'Ready')!.reason).to.equal('KubeletReady');
      expect(back.status!.conditions!.some(c => c.status === 'Unknown')).to.equal(false);
    } finally {
      await nlc.stop();
      await nodes.stop();
    }
  });
});
