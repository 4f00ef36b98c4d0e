// The run's configuration: defaults, then the config file, then flags (flags win).

import type { Timeouts } from '../cluster/timeouts.ts';

export type NodeAccessMode = 'auto' | 'hostprocess' | 'ssh';

export interface SshConfig {
  user?: string;
  key?: string;
  knownHosts?: string;
}

/** What the config file may hold (all optional). */
export interface FileConfig {
  kubeconfig?: string;
  context?: string;
  suites?: string[];
  features?: string[];
  skip?: string[];
  reportDir?: string;
  /** Whole run, ms. */
  timeoutMs?: number;
  keep?: boolean;
  strict?: boolean;
  /** Features whose permissions are missing run as n/a instead of stopping the run (exit 3). */
  skipUnpermitted?: boolean;
  /** Exec sessions at once (probe commands in pods and on nodes). */
  parallel?: number;
  imageRegistry?: string;
  egressUrl?: string;
  /** Windows nodes the node-level checks visit (globs over node names; default every Ready one). */
  nodes?: string[];
  /** Node-level checks visit cordoned Windows nodes too (default false: a cordoned node is being drained). */
  includeCordoned?: boolean;
  ssh?: SshConfig;
  /** How node commands reach Windows nodes: HostProcess pod, SSH, or auto (HostProcess, then SSH). */
  nodeAccess?: NodeAccessMode;
  /** The cluster has a LoadBalancer provisioner (skips guessing). */
  loadBalancer?: boolean;
  probes?: { timeoutMs?: number };
  timeouts?: Partial<Timeouts>;
  /** Pull every Windows image on its nodes before the fixtures (default true; deadline timeouts.prepull). */
  prepull?: boolean;
  /** Save diagnostics of regressed and error results under <reportDir>/diagnostics/ (default true). */
  diagnostics?: boolean;
}

export interface RunConfig {
  kubeconfig?: string;
  context?: string;
  /** kubectl's --cluster, --user, --as, --as-group, --as-uid (lib/cluster/kubeconfig.ts). */
  cluster?: string;
  user?: string;
  as?: string;
  asGroups?: string[];
  asUid?: string;
  suites: string[];
  features: string[];
  skip: string[];
  reportDir: string;
  timeoutMs?: number;
  keep: boolean;
  strict: boolean;
  skipUnpermitted: boolean;
  /** Exec sessions at once: probe commands in pods and on nodes (checks all start at once). */
  parallel: number;
  imageRegistry?: string;
  egressUrl?: string;
  /** --nodes: Windows nodes the node-level checks visit (globs); empty = every Ready Windows node. */
  nodes: string[];
  /** --include-cordoned: node-level checks visit cordoned Windows nodes too. */
  includeCordoned: boolean;
  /**
   * --disruptive --disruptive-node NODE: the one Windows node the disruptive features (reboot,
   * graceful shutdown, eviction) may disrupt. Unset: they are n/a; never set by a config file.
   */
  disruptiveNode?: string;
  ssh: SshConfig;
  /** Default 'auto': a HostProcess pod where the cluster supports it, else SSH. */
  nodeAccess?: NodeAccessMode;
  loadBalancer?: boolean;
  /** Per probe command (exec round trip). */
  probeTimeoutMs: number;
  timeouts: Timeouts;
  /** Pre-pull phase on (default). */
  prepull: boolean;
  diagnostics: boolean;
  /** Set by the CLI when it started the simulated cluster for this run. */
  simulated: boolean;
  simProfile?: string;
}
