// Which kubeconfig to use: --kubeconfig, then $KUBECONFIG, then ~/.kube/config, then in-cluster.
// Never the simulated cluster: that is only ever an explicit --sim.

import { existsSync } from 'node:fs';
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
  } else if (env.KUBERNETES_SERVICE_HOST) {
    kc.loadFromCluster();
    source = 'in-cluster service account';
  } else {
    throw new UsageError(NO_CLUSTER_HINT);
  }
  if (choice.context) {
    if (!kc.getContextObject(choice.context))
      throw new UsageError(`context ${choice.context} is not in ${source}; contexts there: ${kc.getContexts().map(c => c.name).join(', ') || 'none'}`);
    kc.setCurrentContext(choice.context);
  }
  if (!kc.getCurrentCluster()) throw new UsageError(`${source} has no current cluster; pass --context NAME`);
  return { kc, source };
}

function load(kc: KubeConfig, file: string): void {
  try {
    kc.loadFromFile(file);
  } catch (e) {
    throw new UsageError(`kubeconfig file ${file} could not be read: ${e instanceof Error ? e.message : String(e)}`);
  }
}
