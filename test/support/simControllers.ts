// Test support for the control plane: a store with the real resource registry, the
// controllers of a profile, a tiny fake kubelet, and waits on store events with deadlines.

import type { V1Pod } from '@kubernetes/client-node';
import { Store, type KubeObject } from '../../sim/api/store.ts';
import { RESOURCES, bucketOf } from '../../sim/api/resources.ts';
import { loadProfile } from '../../sim/profiles/load.ts';
import type { Profile } from '../../sim/profiles/types.ts';
import { startControllers, type ControlPlane, type ControllerOptions } from '../../sim/controllers/index.ts';

// Generous: the machine may be busy with other suites; a pass is usually milliseconds.
export const DEFAULT_WAIT_MS = 15000;

export function newStore(): Store {
  const store = new Store();
  for (const r of RESOURCES) if (r.namespaced) store.registerNamespaced(bucketOf(r));
  return store;
}

export interface FakeKubeletOptions {
  /** Pods that never become Ready (still Running), e.g. to hold a rolling update. */
  notReady?: (pod: V1Pod) => boolean;
  /** Nodes whose kubelet is gone: their pods stay Pending and are never finished. */
  deadNodes?: Set<string>;
}

/**
 * Marks bound pods Running and Ready with an IP, and finishes graceful deletions with
 * gracePeriodSeconds 0, as the node runtime does. Writes happen on setImmediate, never
 * from inside the store callback.
 */
export function startFakeKubelet(store: Store, opts: FakeKubeletOptions = {}): { stop(): void; ipOf(ns: string, name: string): string } {
  const ips = new Map<string, string>();
  let next = 1;
  let stopped = false;
  const ipOf = (ns: string, name: string) => {
    const k = `${ns}/${name}`;
    if (!ips.has(k)) {
      const n = next++;
      ips.set(k, `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`);
    }
    return ips.get(k)!;
  };
  const handle = (o: KubeObject) => {
    if (stopped) return;
    const pod = o as unknown as V1Pod;
    const node = pod.spec?.nodeName;
    if (!node || opts.deadNodes?.has(node)) return;
    const ns = o.metadata.namespace!,
      name = o.metadata.name!;
    try {
      if (o.metadata.deletionTimestamp) {
        if (store.tryGet('pods', ns, name)) store.delete('pods', ns, name, { gracePeriodSeconds: 0 });
        return;
      }
      if (pod.status?.phase === 'Running') return;
      const ready = !opts.notReady?.(pod);
      const now = new Date().toISOString() as unknown as Date;
      store.mutate(
        'pods',
        ns,
        name,
        p => {
          const s = p as unknown as V1Pod;
          const cond = (type: string, status: string) => ({ type, status, lastTransitionTime: now });
          s.status = {
            ...s.status,
            phase: 'Running',
            podIP: ipOf(ns, name),
            podIPs: [{ ip: ipOf(ns, name) }],
            hostIP: '127.0.10.1',
            startTime: now,
            conditions: [
              cond('PodScheduled', 'True'),
              cond('Initialized', 'True'),
              cond('ContainersReady', ready ? 'True' : 'False'),
              cond('Ready', ready ? 'True' : 'False'),
            ],
          };
        },
        { skipAdmission: true },
      );
    } catch (err) {
      console.error('fake kubelet:', err);
    }
  };
  const sub = store.onAny((bucket, e) => {
    if (bucket === 'pods' && e.type !== 'DELETED')
      setImmediate(() => {
        const cur = store.tryGet('pods', e.object.metadata.namespace, e.object.metadata.name!);
        if (cur && cur.metadata.uid === e.object.metadata.uid) handle(cur);
      });
  });
  return {
    stop() {
      stopped = true;
      sub.stop();
    },
    ipOf,
  };
}

/**
 * Resolves with the predicate's first truthy result, checked now and after every store
 * write; rejects at the deadline with what was awaited and the last value seen.
 */
export function waitFor<T>(store: Store, what: string, check: () => T | undefined | false | null, timeoutMs = DEFAULT_WAIT_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      sub.stop();
      clearTimeout(timer);
      fn();
    };
    const probe = () => {
      try {
        const v = check();
        if (v) finish(() => resolve(v));
      } catch (err) {
        finish(() => reject(err));
      }
    };
    // Checked after the write has been seen by everyone (our listener may run first).
    const sub = store.onAny(() => setImmediate(probe));
    const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`))), timeoutMs);
    probe();
  });
}

export interface TestCluster {
  store: Store;
  profile: Profile;
  kubelet: ReturnType<typeof startFakeKubelet>;
  controllers: ControlPlane;
  stop(): Promise<void>;
}

export async function startTestCluster(
  profile: Profile | string = 'default',
  opts: ControllerOptions & { kubelet?: FakeKubeletOptions } = {},
): Promise<TestCluster> {
  const p = typeof profile === 'string' ? loadProfile(profile) : profile;
  const store = newStore();
  const kubelet = startFakeKubelet(store, opts.kubelet);
  const controllers = startControllers(store, p, opts);
  return {
    store,
    profile: p,
    kubelet,
    controllers,
    async stop() {
      kubelet.stop();
      await controllers.stop();
    },
  };
}

export function createNamespace(store: Store, name: string): KubeObject {
  return store.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

export const podsIn = (store: Store, ns: string, labelSelector?: string) =>
  store.list('pods', { namespace: ns, labelSelector }).items.map(o => o as unknown as V1Pod);

export const isReady = (p: V1Pod) => p.status?.conditions?.some(c => c.type === 'Ready' && c.status === 'True') ?? false;

/** A minimal Windows pod: selects Windows and tolerates the os=windows taint. */
export function windowsPod(name: string, ns: string, extra: Partial<V1Pod['spec']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: {
      nodeSelector: { 'kubernetes.io/os': 'windows' },
      tolerations: [{ key: 'os', operator: 'Equal', value: 'windows', effect: 'NoSchedule' }],
      containers: [{ name: 'c', image: 'mcr.microsoft.com/windows/servercore/iis:windowsservercore-ltsc2022' }],
      ...extra,
    },
  };
}

export function linuxPod(name: string, ns: string, extra: Partial<V1Pod['spec']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: { nodeSelector: { 'kubernetes.io/os': 'linux' }, containers: [{ name: 'c', image: 'registry.k8s.io/e2e-test-images/agnhost:2.52' }], ...extra },
  };
}
