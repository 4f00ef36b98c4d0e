// Which kubeconfig to use: --kubeconfig, then $KUBECONFIG, then ~/.kube/config, then in-cluster.
// Never the simulated cluster: that is only ever an explicit --sim.

import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { UsageError } from '../errors.ts';

export interface KubeconfigChoice {
  kubeconfig?: string;
  context?: string;
}

export const NO_CLUSTER_HINT =
  'no cluster to test: pass --kubeconfig FILE (or set KUBECONFIG, or have ~/.kube/config), ' +
  'or run against the simulated cluster with --sim (wincheck run --sim)';

export function loadKubeConfig(choice: KubeconfigChoice, env: NodeJS.ProcessEnv = process.env): { kc: KubeConfig; source: string } {
  const kc = new KubeConfig();
  let source: string;
  if (choice.kubeconfig) {
    if (!existsSync(choice.kubeconfig)) throw new UsageError(`kubeconfig file ${choice.kubeconfig} does not exist`);
    load(kc, choice.kubeconfig);
    source = choice.kubeconfig;
  } else if (env.KUBECONFIG) {
    const files = env.KUBECONFIG.split(delimiter).filter(Boolean);
    const missing = files.filter(f => !existsSync(f));
    if (missing.length === files.length) throw new UsageError(`kubeconfig file ${missing.join(', ')} (from KUBECONFIG) does not exist`);
    // KubeConfig loads only one file; the first existing one is the one kubectl would start from.
    source = files.find(f => existsSync(f))!;
    load(kc, source);
  } else if (existsSync(join(homedir(), '.kube', 'config'))) {
    source = join(homedir(), '.kube', 'config');
    load(kc, source);
  } else if (inClusterRoot(env) !== undefined) {
    kc.loadFromCluster(inClusterRoot(env));
    source = 'in-cluster service account';
  } else {
    throw new UsageError(NO_CLUSTER_HINT);
  }
  if (choice.context) {
    if (!kc.getContextObject(choice.context))
      throw new UsageError(
        `context ${choice.context} is not in ${source}; contexts there: ${
          kc
            .getContexts()
            .map(c => c.name)
            .join(', ') || 'none'
        }`,
      );
    kc.setCurrentContext(choice.context);
  }
  if (!kc.getCurrentCluster()) throw new UsageError(`${source} has no current cluster; pass --context NAME`);
  return { kc, source };
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

function load(kc: KubeConfig, file: string): void {
  try {
    kc.loadFromFile(file);
  } catch (e) {
    throw new UsageError(`kubeconfig file ${file} could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}
