// Installs the kube-system add-ons of the profile as plain objects; the controllers then
// run them like any workload (DaemonSet pods on every node, CoreDNS replicas...).

import type { KubeObject, Store } from '../../api/store.ts';
import { StoreError } from '../../api/store.ts';
import type { Profile } from '../../profiles/types.ts';
import { coreDNS, DEFAULT_DNS_IP, defaultStorageClass, metricsServer, runtimeClasses } from './cluster.ts';
import { cni, kubeProxy } from './network.ts';
import { directxDevicePlugin } from './devicePlugin.ts';
import { configMap, KUBE_SYSTEM } from './objects.ts';

export { cniDaemonSetNames } from './network.ts';
export { DEFAULT_DNS_IP } from './cluster.ts';

const APISERVICES = 'apiservices.apiregistration.k8s.io';

/** Creates an object unless one of that name exists; a rejected add-on is logged, not fatal. */
export function ensureObject(store: Store, bucket: string, obj: object): void {
  const o = obj as KubeObject;
  if (store.tryGet(bucket, o.metadata.namespace, o.metadata.name!)) return;
  try {
    store.create(bucket, o);
  } catch (err) {
    if (err instanceof StoreError && err.code === 409) return;
    console.error(`sim: could not create add-on ${bucket} ${o.metadata.namespace ?? ''}/${o.metadata.name}: ${err instanceof Error ? err.message : err}`);
  }
}

/**
 * Every image the add-ons run, with the OS of the nodes they land on: the runtime's
 * registry must know them for kube-system pods to start.
 */
export function addonImages(profile: Profile): { image: string; os: 'linux' | 'windows' }[] {
  const workloads = [
    ...kubeProxy(profile).daemonSets,
    ...cni(profile).daemonSets,
    coreDNS(profile, DEFAULT_DNS_IP).deployment,
    ...(profile.addons.metricsServer ? [metricsServer().deployment] : []),
    ...directxDevicePlugin(profile),
  ];
  const out = new Map<string, { image: string; os: 'linux' | 'windows' }>();
  for (const w of workloads) {
    const spec = w.spec!.template.spec!;
    const os = spec.nodeSelector?.['kubernetes.io/os'] === 'windows' ? 'windows' : 'linux';
    for (const c of spec.containers) out.set(`${os} ${c.image}`, { image: c.image!, os });
  }
  return [...out.values()];
}

/**
 * The sim says what it is, the way a managed cluster names itself in kube-system: discovery
 * reads this ConfigMap (by name; the harness does not import sim/), so a run that reaches the
 * sim through a plain --kubeconfig is still reported as SIMULATED.
 */
export const SIMULATED_CLUSTER_CONFIGMAP = 'wincheck-simulated-cluster';

export function advertiseSimulation(store: Store, profile: Profile, egressUrl: string): void {
  ensureObject(store, 'configmaps', configMap(SIMULATED_CLUSTER_CONFIGMAP, { profile: profile.name, egressUrl }));
}

export function installAddons(store: Store, profile: Profile, dnsIP = DEFAULT_DNS_IP): void {
  for (const rc of runtimeClasses(profile)) ensureObject(store, 'runtimeclasses.node.k8s.io', rc);
  if (profile.addons.defaultStorageClass) ensureObject(store, 'storageclasses.storage.k8s.io', defaultStorageClass());

  for (const sa of ['kube-proxy', 'coredns', profile.network.cni, ...(profile.addons.metricsServer ? ['metrics-server'] : [])])
    ensureObject(store, 'serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: sa, namespace: KUBE_SYSTEM } });

  for (const part of [kubeProxy(profile), cni(profile)]) {
    // A CNI of its own namespace (OpenShift's openshift-ovn-kubernetes).
    for (const ns of new Set(part.daemonSets.map(d => d.metadata!.namespace!).filter(n => n !== KUBE_SYSTEM))) {
      ensureObject(store, 'namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns, labels: { 'kubernetes.io/metadata.name': ns } },
        spec: { finalizers: ['kubernetes'] },
      });
      if (!store.tryGet('namespaces', undefined, ns)?.status)
        store.mutate(
          'namespaces',
          undefined,
          ns,
          o => {
            o.status = { phase: 'Active' };
          },
          { skipAdmission: true },
        );
      ensureObject(store, 'serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: profile.network.cni, namespace: ns } });
    }
    for (const cm of part.configMaps) ensureObject(store, 'configmaps', cm);
    for (const ds of part.daemonSets) ensureObject(store, 'daemonsets.apps', ds);
  }
  const dns = coreDNS(profile, dnsIP);
  ensureObject(store, 'configmaps', dns.configMap);
  ensureObject(store, 'services', dns.service);
  ensureObject(store, 'deployments.apps', dns.deployment);

  for (const ds of directxDevicePlugin(profile)) ensureObject(store, 'daemonsets.apps', ds);

  if (profile.addons.metricsServer) {
    const ms = metricsServer();
    ensureObject(store, 'services', ms.service);
    ensureObject(store, 'deployments.apps', ms.deployment);
    ensureObject(store, APISERVICES, ms.apiService);
  }
}
