// Flags, then the file, then defaults: takeFirst shows the precedence in one line per field.

import { defaultTimeouts } from '../cluster/timeouts.ts';
import type { FileConfig, NodeAccessMode, RunConfig, SshConfig } from './types.ts';

/** CLI flags as commander hands them over (undefined when not given). */
export interface RunFlags {
  kubeconfig?: string;
  context?: string;
  /** kubectl's --cluster, --user, --as, --as-group, --as-uid. */
  cluster?: string;
  user?: string;
  as?: string;
  asGroups?: string[];
  asUid?: string;
  suite?: string[];
  feature?: string[];
  skip?: string[];
  reportDir?: string;
  timeoutMs?: number;
  keep?: boolean;
  strict?: boolean;
  skipUnpermitted?: boolean;
  parallel?: number;
  imageRegistry?: string;
  egressUrl?: string;
  nodes?: string[];
  includeCordoned?: boolean;
  /** --disruptive: run the disruptive features (only together with disruptiveNode). */
  disruptive?: boolean;
  /** --disruptive-node: the Windows node they may disrupt. */
  disruptiveNode?: string;
  sshUser?: string;
  sshKey?: string;
  sshKnownHosts?: string;
  nodeAccess?: NodeAccessMode;
  /** --no-prepull gives false. */
  prepull?: boolean;
  /** --no-diagnostics gives false. */
  diagnostics?: boolean;
  /** --prepull-timeout, ms. */
  prepullTimeoutMs?: number;
}

/**
 * Exec sessions at once (probe commands in pods and on nodes). Checks themselves all start at
 * once and wait (polls, pod starts, watches) without holding a slot; only the commands queue.
 */
export const DEFAULT_PARALLEL = 12;
/** Commands at once on one node: a 2-vCPU Windows node pays for each powershell it starts. */
export const PER_NODE_COMMANDS = 2;

export function takeFirst<T>(...values: (T | undefined)[]): T | undefined {
  return values.find(v => v !== undefined);
}

export function resolveConfig(flags: RunFlags, file: FileConfig, env: NodeJS.ProcessEnv = process.env): RunConfig {
  const ssh: SshConfig = {
    user: takeFirst(flags.sshUser, file.ssh?.user),
    key: takeFirst(flags.sshKey, file.ssh?.key),
    knownHosts: takeFirst(flags.sshKnownHosts, file.ssh?.knownHosts),
  };
  return {
    kubeconfig: takeFirst(flags.kubeconfig, file.kubeconfig),
    context: takeFirst(flags.context, file.context),
    cluster: flags.cluster,
    user: flags.user,
    as: flags.as,
    asGroups: flags.asGroups,
    asUid: flags.asUid,
    suites: takeFirst(nonEmpty(flags.suite), file.suites) ?? [],
    features: takeFirst(nonEmpty(flags.feature), file.features) ?? [],
    skip: takeFirst(nonEmpty(flags.skip), file.skip) ?? [],
    reportDir: takeFirst(flags.reportDir, file.reportDir, env.ARTIFACTS || undefined, 'reports')!,
    timeoutMs: takeFirst(flags.timeoutMs, file.timeoutMs),
    keep: takeFirst(flags.keep, file.keep) ?? false,
    strict: takeFirst(flags.strict, file.strict) ?? false,
    skipUnpermitted: takeFirst(flags.skipUnpermitted, file.skipUnpermitted) ?? false,
    parallel: takeFirst(flags.parallel, file.parallel) ?? DEFAULT_PARALLEL,
    imageRegistry: takeFirst(flags.imageRegistry, file.imageRegistry),
    egressUrl: takeFirst(flags.egressUrl, file.egressUrl),
    nodes: takeFirst(nonEmpty(flags.nodes), file.nodes) ?? [],
    includeCordoned: takeFirst(flags.includeCordoned, file.includeCordoned) ?? false,
    // Flags only: a config file shared by routine runs must never make one disruptive.
    ...(flags.disruptive && flags.disruptiveNode ? { disruptiveNode: flags.disruptiveNode } : {}),
    ssh,
    nodeAccess: takeFirst<NodeAccessMode>(flags.nodeAccess, file.nodeAccess, 'auto'),
    loadBalancer: file.loadBalancer,
    probeTimeoutMs: file.probes?.timeoutMs ?? defaultTimeouts().exec,
    timeouts: { ...defaultTimeouts(), ...file.timeouts, ...(flags.prepullTimeoutMs !== undefined ? { prepull: flags.prepullTimeoutMs } : {}) },
    prepull: takeFirst(flags.prepull, file.prepull) ?? true,
    diagnostics: takeFirst(flags.diagnostics, file.diagnostics) ?? true,
    simulated: false,
  };
}

function nonEmpty(list: string[] | undefined): string[] | undefined {
  return list && list.length ? list : undefined;
}
