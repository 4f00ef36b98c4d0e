// Which kubeconfig to use: --kubeconfig, then $KUBECONFIG, then ~/.kube/config, then in-cluster.
// Never the simulated cluster: that is only ever an explicit --sim.

import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import type { Cluster, Context, User } from '@kubernetes/client-node';
import { UsageError } from '../errors.ts';
import { attachAuth, CredentialedKubeConfig, StaticSource, TokenFileSource, type CredentialSource } from './credentials.ts';
import { EXEC_API_VERSIONS, ExecCredentialSource } from './execCredential.ts';
import { describeImpersonation, impersonationOf } from './impersonation.ts';
import { KubeconfigFileError, mergeKubeconfigFiles, type FromFile, type MergedKubeconfig, type RawCluster, type RawUser } from './kubeconfigFiles.ts';
import { PROXY_SCHEMES, proxyFor } from './proxyEnv.ts';
import type { CredentialInfo } from './credentialInfo.ts';

export type { CredentialInfo } from './credentialInfo.ts';

export interface KubeconfigChoice {
  kubeconfig?: string;
  context?: string;
  /** kubectl's --cluster and --user: the context's cluster or user replaced. */
  cluster?: string;
  user?: string;
  /** kubectl's --as, --as-group, --as-uid. */
  as?: string;
  asGroups?: string[];
  asUid?: string;
}

export interface LoadedKubeConfig {
  kc: CredentialedKubeConfig;
  source: string;
  credentials: CredentialInfo;
}

export const NO_CLUSTER_HINT =
  'no cluster to test: pass --kubeconfig FILE (or set KUBECONFIG, or have ~/.kube/config), ' +
  'or run against the simulated cluster with --sim (wincheck run --sim)';

/**
 * client-go's loading rules (https://github.com/kubernetes/client-go/blob/master/tools/clientcmd/loader.go):
 * --kubeconfig is the one file; else every file of KUBECONFIG, merged; else ~/.kube/config; else in-cluster.
 */
export function loadKubeConfig(choice: KubeconfigChoice, env: NodeJS.ProcessEnv = process.env): LoadedKubeConfig {
  let files: string[];
  let source: string;
  if (choice.kubeconfig) {
    if (!existsSync(choice.kubeconfig)) throw new UsageError(`kubeconfig file ${choice.kubeconfig} does not exist`);
    files = [choice.kubeconfig];
    source = choice.kubeconfig;
  } else if (env.KUBECONFIG) {
    const listed = env.KUBECONFIG.split(delimiter).filter(Boolean);
    // Missing files in KUBECONFIG are skipped, as client-go does; all missing is an error.
    files = listed.filter(f => existsSync(f));
    if (!files.length) throw new UsageError(`kubeconfig file ${listed.join(', ')} (from KUBECONFIG) does not exist`);
    source = files.join(delimiter);
  } else if (existsSync(join(homedir(), '.kube', 'config'))) {
    files = [join(homedir(), '.kube', 'config')];
    source = files[0];
  } else if (inClusterRoot(env) !== undefined) {
    const kc = new CredentialedKubeConfig();
    kc.loadFromCluster(inClusterRoot(env));
    return { kc, source: 'in-cluster service account', credentials: { kind: 'tokenFile', user: 'in-cluster service account' } };
  } else {
    throw new UsageError(NO_CLUSTER_HINT);
  }
  let merged: MergedKubeconfig;
  try {
    merged = mergeKubeconfigFiles(files);
  } catch (e) {
    if (e instanceof KubeconfigFileError) throw new UsageError(e.message);
    throw e;
  }
  return build(merged, source, choice, env);
}

function build(m: MergedKubeconfig, source: string, choice: KubeconfigChoice, env: NodeJS.ProcessEnv): LoadedKubeConfig {
  const contextName = choice.context || m.currentContext;
  const names = [...m.contexts.keys()].join(', ') || 'none';
  if (!contextName) throw new UsageError(`${source} has no current context; pass --context NAME (contexts there: ${names})`);
  const ctx = m.contexts.get(contextName);
  if (!ctx) throw new UsageError(`context ${contextName} is not in ${source}; contexts there: ${names}`);
  const clusterName = choice.cluster || ctx.value.cluster || '';
  const userName = choice.user || ctx.value.user || '';
  const rawCluster = m.clusters.get(clusterName);
  if (!rawCluster) throw new UsageError(`cluster ${clusterName || '(none)'} of context ${contextName} is not in ${source}`);
  const rawUser = userName ? m.users.get(userName) : undefined;
  if (userName && !rawUser) throw new UsageError(`user ${userName} of context ${contextName} is not in ${source}`);

  const cluster = toCluster(clusterName, rawCluster, env);
  const user = toUser(userName || 'no-user', rawUser?.value ?? {});
  const where = `user ${userName || '(none)'} of context ${contextName}`;
  const source_ = credentialSource(user, rawUser, cluster, rawCluster.value, where);
  const impersonation = impersonationOf(rawUser?.value ?? {}, choice);
  if (typeof impersonation === 'string') throw new UsageError(`${where}: ${impersonation}`);
  attachAuth(user, { userName: userName || '(none)', source: source_, impersonation });

  const context: Context = { name: contextName, cluster: clusterName, user: user.name, namespace: ctx.value.namespace };
  const kc = new CredentialedKubeConfig();
  kc.loadFromOptions({ clusters: [cluster], users: [user], contexts: [context], currentContext: contextName });
  return {
    kc,
    source,
    credentials: {
      user: userName || undefined,
      kind: source_.kind,
      impersonating: describeImpersonation(impersonation || undefined),
      insecureSkipTLSVerify: cluster.skipTLSVerify || undefined,
      proxy: cluster.proxyUrl ? redactUrl(cluster.proxyUrl) : undefined,
    },
  };
}

function toCluster(name: string, { value: c, file }: FromFile<RawCluster>, env: NodeJS.ProcessEnv): Cluster {
  if (!c.server) throw new UsageError(`cluster ${name} in ${file} has no server`);
  let server: URL;
  try {
    server = new URL(c.server);
  } catch {
    throw new UsageError(`cluster ${name} in ${file}: server ${c.server} is not a URL`);
  }
  if (server.protocol !== 'https:' && server.protocol !== 'http:') throw new UsageError(`cluster ${name} in ${file}: server ${c.server} is not http(s)`);
  // client-go refuses a CA together with insecure-skip-tls-verify.
  if (c['insecure-skip-tls-verify'] && (c['certificate-authority'] || c['certificate-authority-data']))
    throw new UsageError(`cluster ${name} in ${file}: certificate-authority and insecure-skip-tls-verify cannot both be set`);
  mustExist(c['certificate-authority'], `certificate-authority of cluster ${name}`);
  const proxyUrl = proxyFor(c.server, c['proxy-url'], env);
  if (proxyUrl) {
    let scheme = '';
    try {
      scheme = new URL(proxyUrl).protocol;
    } catch {
      /* reported below */
    }
    if (!PROXY_SCHEMES.includes(scheme)) throw new UsageError(`cluster ${name}: proxy ${redactUrl(proxyUrl)} is not an http, https or socks5 URL`);
  }
  return {
    name,
    server: c.server.replace(/\/+$/, ''),
    caData: c['certificate-authority-data'],
    caFile: c['certificate-authority'],
    skipTLSVerify: c['insecure-skip-tls-verify'] === true,
    tlsServerName: c['tls-server-name'],
    proxyUrl,
  };
}

function toUser(name: string, u: RawUser): User {
  mustExist(u['client-certificate'], `client-certificate of user ${name}`);
  mustExist(u['client-key'], `client-key of user ${name}`);
  return {
    name,
    certData: u['client-certificate-data'],
    certFile: u['client-certificate'],
    keyData: u['client-key-data'],
    keyFile: u['client-key'],
    // A tokenFile wins over token (rest.Config: the last value read from BearerTokenFile is used).
    token: u.tokenFile || u.exec ? undefined : u.token,
    username: u.username,
    password: u.password,
    // client-node refreshes oidc itself; every other provider is refused in credentialSource.
    authProvider: u['auth-provider']?.name === 'oidc' ? u['auth-provider'] : undefined,
  };
}

// client-go removed its in-tree providers (1.26); the exec plugins that replace them.
const REPLACED_PROVIDERS: Record<string, string> = {
  gcp: 'gke-gcloud-auth-plugin (https://cloud.google.com/kubernetes-engine/docs/how-to/cluster-access-for-kubectl)',
  azure: 'kubelogin (https://azure.github.io/kubelogin/)',
};

function credentialSource(user: User, raw: FromFile<RawUser> | undefined, cluster: Cluster, rawCluster: RawCluster, where: string): CredentialSource {
  const u = raw?.value ?? {};
  const provider = u['auth-provider']?.name;
  if (u.exec) {
    if (!u.exec.command) throw new UsageError(`${where}: the exec entry has no command`);
    if (!u.exec.apiVersion || !EXEC_API_VERSIONS.includes(u.exec.apiVersion))
      throw new UsageError(`${where}: exec apiVersion ${u.exec.apiVersion ?? '(none)'} is not one of ${EXEC_API_VERSIONS.join(', ')}`);
    const caData = cluster.caFile ? readFileSync(cluster.caFile) : cluster.caData ? Buffer.from(cluster.caData, 'base64') : undefined;
    return new ExecCredentialSource(u.exec, { cluster: { ...rawCluster, server: cluster.server, caData } });
  }
  if (provider && provider !== 'oidc') {
    const instead = REPLACED_PROVIDERS[provider];
    throw new UsageError(
      `${where}: the auth-provider ${provider} is not supported (kubectl removed it); ${instead ? `use the exec plugin ${instead}` : 'use an exec credential plugin instead'}`,
    );
  }
  if (provider === 'oidc') return new StaticSource('auth-provider oidc', 'check the oidc id-token and refresh-token, or log in again');
  if (u.tokenFile) {
    mustExist(u.tokenFile, `tokenFile of ${where}`);
    return new TokenFileSource(u.tokenFile);
  }
  if (user.token) return new StaticSource('token', "check that the user's token is current and meant for this cluster");
  if (user.certData || user.certFile)
    return new StaticSource('certificate', "check that the client certificate is current and signed by the cluster's client CA");
  if (user.username) return new StaticSource('basic auth', 'check the username and password (most clusters no longer accept basic auth)');
  return new StaticSource('none', 'the kubeconfig gives this user no token, certificate or exec plugin');
}

function mustExist(file: string | undefined, what: string): void {
  if (file && !existsSync(file)) throw new UsageError(`${what}: ${file} does not exist`);
}

/** A proxy URL without its password. */
function redactUrl(u: string): string {
  try {
    const url = new URL(u);
    if (url.password) url.password = '***';
    return url.toString().replace(/\/$/, '');
  } catch {
    return u;
  }
}

/** Where the pod's service account files are. A real container: under /. The sim's in-cluster
 * processes (sim/runtime/hostProcess.ts) name their private root in WINCHECK_CONTAINER_ROOT. */
const SERVICEACCOUNT_DIR = 'var/run/secrets/kubernetes.io/serviceaccount';

/**
 * The container root when this process runs in a pod ('' for a real one): KUBERNETES_SERVICE_HOST
 * set and the service account token mounted. undefined when not in a pod.
 */
export function inClusterRoot(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (!env.KUBERNETES_SERVICE_HOST) return undefined;
  const root = env.WINCHECK_CONTAINER_ROOT ?? '';
  return existsSync(join(root || '/', SERVICEACCOUNT_DIR, 'token')) ? root : undefined;
}

/** Whether loadKubeConfig would take the in-cluster service account: no kubeconfig of any kind, in a pod. */
export function usesInClusterConfig(choice: KubeconfigChoice, env: NodeJS.ProcessEnv = process.env): boolean {
  return !choice.kubeconfig && !env.KUBECONFIG && !existsSync(join(homedir(), '.kube', 'config')) && inClusterRoot(env) !== undefined;
}

/** The pod's own namespace (the service account's namespace file). */
export function inClusterNamespace(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const root = inClusterRoot(env);
  if (root === undefined) return undefined;
  try {
    return readFileSync(join(root || '/', SERVICEACCOUNT_DIR, 'namespace'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
