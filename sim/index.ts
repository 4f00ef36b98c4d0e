// The simulated mixed cluster, assembled: store → admission → API server →
// network twin → controllers (nodes, add-ons) → node runtimes. Callers get a
// kubeconfig and a stop function; nothing else of the sim leaks out.

import { writeFile, mkdir, rename, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { Store } from './api/store.ts';
import { RESOURCES, bucketOf } from './api/resources.ts';
import { startApiServer } from './api/server.ts';
import type { ClientCertificate } from './api/certs.ts';
import { clientCertificateFiles, type ClientCertificateFiles, type ClientCertificateRequest } from './api/clientCertificates.ts';
import { podSecurityAdmission } from './api/admission/podSecurity.ts';
import { webhookAdmission } from './api/admission/webhooks.ts';
import { createAdmission } from './api/validation/index.ts';
import { loadProfile } from './profiles/load.ts';
import type { Profile } from './profiles/types.ts';
import { startNetwork } from './network/index.ts';
import { startControllers, metricsSourceFromPodMetrics } from './controllers/index.ts';
import { advertiseSimulation } from './controllers/addons/index.ts';
import { parseQuantity } from '../util/quantity.ts';
import { startRuntime } from './runtime/index.ts';

export { ProfileError, loadProfile, withOverrides, builtinProfileNames } from './profiles/load.ts';
export type { Profile } from './profiles/types.ts';

export interface SimOptions {
  /** A built-in profile name or a YAML file; default "default". Or a Profile object (tests). */
  profile?: string | Profile;
  /** API server port; ephemeral when unset. */
  port?: number;
  /** Where to write the kubeconfig file. */
  kubeconfigOut?: string;
  /** Client authentication written into the kubeconfig. */
  auth?: 'token' | 'cert';
  /** Client certificates to hand out beside kubeconfigOut (sim/api/clientCertificates.ts). */
  clientCertificates?: ClientCertificateRequest[];
}

export interface SimCluster {
  kubeconfigPath?: string;
  kubeconfig: string;
  server: string;
  profileName: string;
  profile: Profile;
  store: Store;
  /** OpenSSH known_hosts lines for the Windows nodes' SSH servers, and a client key they accept. */
  ssh?: { knownHosts: string; user: string; privateKey: string };
  /** An HTTP URL on the host "outside the cluster" (egress target). */
  egressUrl: string;
  /** A client certificate the API server accepts: CN the user, O each group. */
  clientCertificate(user: string, groups?: string[]): ClientCertificate;
  /** A TokenRequest token for a ServiceAccount (one hour unless given; profile.tokenLifetimeScale applies). */
  serviceAccountToken(namespace: string, name: string, expirationSeconds?: number): string;
  /** The client certificates handed out beside the kubeconfig (opts.clientCertificates). */
  clientCertificateFiles: ClientCertificateFiles[];
  stop(): Promise<void>;
}

/**
 * Writes a file that holds credentials: always mode 0600, even over an existing 0644 file
 * (writeFile's mode applies only to new files), by writing a fresh file beside it and renaming.
 */
export async function writePrivateFile(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, text, { mode: 0o600, flag: 'wx' });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

export async function startSim(opts: SimOptions = {}): Promise<SimCluster> {
  const profile = typeof opts.profile === 'object' ? opts.profile : loadProfile(opts.profile ?? 'default');
  const store = new Store();
  for (const r of RESOURCES) if (r.namespaced) store.registerNamespaced(bucketOf(r));

  const stops: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) {
      try {
        await s();
      } catch (err) {
        console.error('sim: stop failed:', err);
      }
    }
    stops.length = 0;
  };
  try {
    store.addAdmission(createAdmission(profile));
    store.addAdmission(podSecurityAdmission(store, profile));
    store.addAdmission(webhookAdmission(profile));
    const api = await startApiServer({ store, profile, port: opts.port });
    stops.push(() => api.close());
    const apiUrl = new URL(api.url);
    const network = await startNetwork({
      store,
      profile,
      apiServer: { host: apiUrl.hostname, port: Number(apiUrl.port) },
    });
    stops.push(() => network.stop());
    if (network.serviceAdmission) store.addAdmission(network.serviceAdmission());
    const controllers = startControllers(store, profile, { network });
    stops.push(() => controllers.stop());
    const runtime = startRuntime({
      store,
      profile,
      network,
      options: {
        apiServer: { host: apiUrl.hostname, port: Number(apiUrl.port), caPem: api.caPem, serviceAccountToken: (ns, name) => api.serviceAccountToken(ns, name) },
      },
    });
    stops.push(() => runtime.stop());
    api.setHandlers(runtime.handlers);
    // The HPA reads pod usage from the runtime, which starts after the controllers.
    const podMetrics = runtime.handlers.podMetrics;
    if (podMetrics)
      controllers.setMetricsSource(
        metricsSourceFromPodMetrics(
          ns => podMetrics(ns),
          q => parseQuantity(q) ?? 0,
        ),
      );

    const kubeconfig = api.kubeconfig({ auth: opts.auth ?? 'token', context: `wincheck-sim-${profile.name}` });
    let kubeconfigPath: string | undefined;
    if (opts.kubeconfigOut) {
      kubeconfigPath = resolve(opts.kubeconfigOut);
      await mkdir(dirname(kubeconfigPath), { recursive: true });
      await writePrivateFile(kubeconfigPath, kubeconfig);
    }
    const clientCertificates: ClientCertificateFiles[] = [];
    if (opts.clientCertificates?.length && !kubeconfigPath) throw new Error('client certificates are written beside the kubeconfig: set kubeconfigOut');
    for (const req of opts.clientCertificates ?? []) {
      const { files, paths } = clientCertificateFiles(
        dirname(kubeconfigPath!),
        { server: api.url, caPem: api.caPem, context: `wincheck-sim-${profile.name}` },
        req,
        api.clientCertificate(req.user, req.groups),
      );
      for (const [path, text] of Object.entries(files)) await writePrivateFile(path, text);
      clientCertificates.push(paths);
    }
    const sshKey = network.sshClientKey?.();
    const egressUrl = `http://${network.externalHost().name}/`;
    advertiseSimulation(store, profile, egressUrl);
    return {
      kubeconfigPath,
      kubeconfig,
      server: api.url,
      profileName: profile.name,
      profile,
      store,
      egressUrl,
      clientCertificate: (user, groups) => api.clientCertificate(user, groups),
      serviceAccountToken: (namespace, name, expirationSeconds) => api.serviceAccountToken(namespace, name, expirationSeconds),
      clientCertificateFiles: clientCertificates,
      ssh: sshKey ? { knownHosts: network.knownHosts(), user: network.sshUser ?? 'Administrator', privateKey: sshKey.privateKey } : undefined,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
