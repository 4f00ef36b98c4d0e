// Everything one run carries between its tasks (lib/run/tasks/); what they hand to the planners,
// the transports and the checks is an option object naming what each uses, never this.

import type { Feature, CheckResult } from '../catalog/types.ts';
import type { BuildScope } from './builds.ts';
import type { KubeClients } from '../cluster/types.ts';
import type { RunConfig } from '../config/types.ts';
import type { ClusterInfo } from '../discovery/types.ts';
import type { FixtureError } from '../fixtures/errors.ts';
import type { WaveRunner } from './waves.ts';
import type { Redactor } from '../fixtures/secrets.ts';
import type { RenderContext, RenderedFixture } from '../fixtures/types.ts';
import type { RunEvents } from './events.ts';
import type { KeyedLimiter, Limiter } from '../../util/limiter.ts';
import type { SharedPodWaits } from '../cluster/sharedPodWaits.ts';
import type { NodeTransportFactory } from '../transports/nodeAccess.ts';
import type { FixtureTarget } from './createFixtures.ts';

export interface RunState {
  config: RunConfig;
  kube: KubeClients;
  runId: string;
  namespace: string;
  labels: Record<string, string>;
  features: Feature[];
  cluster?: ClusterInfo;
  render?: RenderContext;
  fixtures: Map<string, RenderedFixture | FixtureError>;
  secrets: Record<string, string>;
  redactor: Redactor;
  reporter: RunEvents;
  results: CheckResult[];
  /** Aborted on Ctrl-C, SIGTERM or the run deadline. */
  abort: AbortController;
  /** HostProcess pod or SSH per node (lib/transports/nodeAccess.ts). */
  nodeTransport: NodeTransportFactory;
  /** Pod-ready waits shared by the checks waiting for the same pod at once (lib/cluster/sharedPodWaits.ts). */
  podWaits?: SharedPodWaits;
  /** Each feature's place on the critical path (priority.ts): 0 is served first where the run queues. */
  ranks?: Map<string, number>;
  /** What costs, bounded (util/limiter.ts): exec sessions run-wide, and commands on each node. */
  slots: { exec: Limiter; perNode: KeyedLimiter };
  /** Features whose RBAC permissions are missing (--skip-unpermitted): feature id → why, they run as n/a. */
  unpermitted?: Map<string, string>;
  /** Several Windows builds: the build scope of each per-build instance, by its id (lib/run/builds.ts). */
  buildScopes?: Map<string, BuildScope>;
  /** Problems outside any check (deploy, cleanup). */
  errors: string[];
  /** Fixture waves that fit the nodes' capacity (lib/run/waves.ts); set by the deploy task. */
  waves?: WaveRunner;
  log(line: string): void;
}

/** The run's own namespace as a place fixtures are created in (once preflight has rendered it). */
export function mainTarget(r: RunState): FixtureTarget {
  return { namespace: r.namespace, render: r.render!, fixtures: r.fixtures };
}
