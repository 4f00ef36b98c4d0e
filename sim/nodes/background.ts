// Other tenants' load (the profile's `background`): namespaces of pods already bound to the
// schedulable workers and Running, as on a shared production cluster. They count against the
// nodes' room for the scheduler and for anyone who lists pods; nothing runs behind them (no
// container, no address in the network twin), so the kubelets leave them alone (BACKGROUND_ANNOTATION).

import type { V1Namespace, V1Pod } from '@kubernetes/client-node';
import type { Store } from '../api/store.ts';
import type { Profile } from '../profiles/types.ts';
import { nodeSpecs } from './nodeSpec.ts';

/** Marks a background pod: the sim's kubelets run no worker for it and finish its deletion at once. */
export const BACKGROUND_ANNOTATION = 'sim.wincheck.io/background';

export const isBackgroundPod = (pod: { metadata?: { annotations?: Record<string, string> } }) => pod.metadata?.annotations?.[BACKGROUND_ANNOTATION] === 'true';

/** The namespaces' names: tenant-001 ... */
export function backgroundNamespace(i: number, of: number): string {
  return `tenant-${String(i + 1).padStart(Math.max(3, String(of).length), '0')}`;
}

/** Creates the background namespaces and pods (once: an existing pod is left as it is). Returns how many pods it made. */
export function createBackground(store: Store, profile: Profile, nodeAddress?: (node: string) => string): number {
  const bg = profile.background;
  if (!bg || bg.podsPerNode <= 0) return 0;
  for (let i = 0; i < bg.namespaces; i++) {
    const name = backgroundNamespace(i, bg.namespaces);
    if (store.tryGet('namespaces', undefined, name)) continue;
    const ns: V1Namespace = {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name, labels: { 'kubernetes.io/metadata.name': name } },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    };
    store.create('namespaces', ns as never, { skipAdmission: true });
  }
  // Workers a tenant's pods land on: Ready, not cordoned, not a control plane.
  const workers = nodeSpecs(profile).filter(n => n.ready && !n.unschedulable && n.role !== 'control-plane');
  const requests = Object.fromEntries(Object.entries(bg.requests ?? {}).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const started = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  let made = 0;
  let k = 0;
  for (const node of workers) {
    for (let j = 0; j < bg.podsPerNode; j++, k++) {
      const namespace = backgroundNamespace(k % bg.namespaces, bg.namespaces);
      const name = `app-${node.name}-${j + 1}`;
      if (store.tryGet('pods', namespace, name)) continue;
      const image = node.os === 'windows' ? 'mcr.microsoft.com/windows/nanoserver:ltsc2022' : 'registry.k8s.io/pause:3.10';
      const pod: V1Pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace, labels: { app: `tenant-app-${k % 50}` }, annotations: { [BACKGROUND_ANNOTATION]: 'true' } },
        spec: {
          nodeName: node.name,
          nodeSelector: { 'kubernetes.io/os': node.os },
          containers: [{ name: 'app', image, ...(Object.keys(requests).length ? { resources: { requests } } : {}) }],
          // What admission would add (DefaultTolerationSeconds), and the Windows nodes' taint tolerated as tenants do.
          tolerations: [
            { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
            { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
            ...(node.taints ?? []).map(t => ({ key: t.key, operator: 'Equal', value: t.value, effect: t.effect })),
          ],
        },
        status: {
          phase: 'Running',
          qosClass: Object.keys(requests).length ? 'Burstable' : 'BestEffort',
          hostIP: nodeAddress?.(node.name),
          startTime: started as never,
          conditions: (['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'] as const).map(type => ({
            type,
            status: 'True',
            lastTransitionTime: started as never,
          })),
          containerStatuses: [
            { name: 'app', image, imageID: '', ready: true, restartCount: 0, started: true, state: { running: { startedAt: started as never } } },
          ],
        },
      };
      store.create('pods', pod as never, { skipAdmission: true });
      made++;
    }
  }
  return made;
}
