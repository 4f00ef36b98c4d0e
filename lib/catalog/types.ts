// The catalog's vocabulary. STABLE: other areas' features are written against it.
// A feature is data plus two functions: `expect` (what the documentation promises for
// this cluster, from discovery) and `probe` (what the cluster actually does).
//
// To add a feature: add it to the array exported by lib/catalog/features/<area>.ts
// (or create that file; every file in that folder is loaded). Nothing else to edit.

import type { Source } from '../facts/sources.ts';
import type { V1Pod } from '@kubernetes/client-node';
import type { Permission } from '../cluster/permission.ts';
import type { Means } from '../cluster/meansError.ts';
import type { Timeouts } from '../cluster/timeouts.ts';
import type { KubeClients } from '../cluster/types.ts';
import type { ClusterInfo, NodeInfo } from '../discovery/types.ts';
import type { FixtureSpec, RenderedFixture } from '../fixtures/types.ts';
import type { NetPath } from './net/netPath.ts';
import type { Evidence, ProbeOp, ProbeOS, ProbeResult, Transport } from '../probes/types.ts';

/** Areas, one mocha suite file and one JUnit file each. IDs start with the area's prefix. */
export type Area =
  | 'scheduling' // sched.*
  | 'workloads' // work.*
  | 'config' // cfg.*
  | 'storage' // stor.*
  | 'resources' // res.*
  | 'isolation' // iso.*
  | 'security' // sec.*
  | 'networking' // net.*
  | 'node'; // node.*

/** Preconditions checked before a probe runs; unmet → n/a with the reason, never a silent drop. */
export type Need =
  | 'windows-node' // a Ready, schedulable Windows node
  | 'linux-node' // a Ready, schedulable Linux node (helper pods)
  | 'two-windows-nodes' // cross-node checks
  | 'tainted-windows-node' // a Windows node with a NoSchedule/NoExecute taint
  | 'node-access' // HostProcess or SSH
  | 'hostprocess'
  | 'ssh'
  | 'hyperv-runtimeclass'
  | 'default-storageclass'
  | 'metrics-server'
  | 'load-balancer'
  | 'dual-stack'
  | 'egress-url' // --egress-url given (air-gapped clusters have none)
  | 'disruptive-node'; // --disruptive --disruptive-node NODE given (never by default)

export type Expected = 'supported' | 'limited' | 'n/a';

export interface Expectation {
  expected: Expected;
  /** Why, in one sentence, naming the discovered fact it depends on. */
  reason: string;
  /** Where the promise comes from: the upstream documents and tests it rests on (`cite` in lib/facts/sources.ts). */
  source: Source;
}

export type Outcome = 'supported' | 'limited' | 'lifted' | 'regressed' | 'n/a' | 'error';

/** Evidence items: a probe's evidence, or a sentence ("pod iis on win-1 Ready after 3.2s"). */
export type EvidenceItem = Evidence | string;

/**
 * A positive control, run in the same check: proof that the probe could see (the FQDN that
 * resolves, the peer that answers, the file that is readable, the pod that started).
 */
export interface Control {
  ok: boolean;
  /** One line: what the control did and saw. */
  summary: string;
  evidence?: EvidenceItem[];
}

/** What the probe saw. */
export interface Observation {
  /**
   * The behaviour the feature names was seen working. supported + works = supported,
   * supported + !works = regressed, limited + !works = limited, limited + works = lifted.
   * limited and lifted also need a passing `control` (lib/catalog/outcome.ts).
   */
  works: boolean;
  /** The positive control; required for a limited or lifted verdict, else the outcome is error. */
  control?: Control;
  /** One line: what was seen. */
  summary: string;
  evidence: EvidenceItem[];
  /** Node the check ran on, for the report. */
  node?: string;
  /** Set when the probe found a precondition missing at run time: outcome n/a. */
  notApplicable?: string;
  /**
   * Set when what was seen breaks a promise the limitation does not cover (a limited feature's
   * pod refused where upstream's tests expect it to start): outcome regressed with this reason,
   * whatever was expected.
   */
  contradicts?: string;
}

/** Everything a probe may use. Built once per run by lib/run; secret values stay inside. */
export interface CheckContext {
  cluster: ClusterInfo;
  kube: KubeClients;
  runId: string;
  namespace: string;
  /** Labels every object created by a probe must carry (the run label). */
  labels: Record<string, string>;
  /** The Windows node pinned fixtures target (first Ready schedulable one of the chosen build). */
  windowsNode?: NodeInfo;
  /**
   * A fixture this feature declared, as rendered and created. Throws FixtureError for an
   * undeclared id or one whose creation failed (the API's message inside: a probe may
   * treat a rejection as its observation, e.g. sched.pod-os-field).
   */
  fixture(id: string): RenderedFixture;
  /** Per-run random Secret values (fixtures' {{secrets.x}}). Compare, never put in evidence. */
  secrets: Readonly<Record<string, string>>;
  /** Waits by watch until the pod is Ready; fails fast on pull/crash/scheduling errors. */
  waitForPodReady(podName: string, timeoutMs?: number): Promise<V1Pod>;
  /** The create error of a declared fixture that would have made this pod (or pods matching the selector): a wait for them can end now. */
  podsCannotAppear(pods: { name: string } | { labelSelector: string }): Error | undefined;
  /** Exec into a pod (first container unless named). */
  podTransport(podName: string, os: ProbeOS, container?: string): Transport;
  /** HostProcess pod or SSH on the node; undefined when neither is available. */
  nodeTransport(node: NodeInfo): Promise<Transport | undefined>;
  /** Runs a typed op and returns its verdict with redacted evidence. */
  probe(transport: Transport, op: ProbeOp): Promise<ProbeResult>;
  /** A step line ("creating pod x"); kept as evidence of the check. */
  step(text: string): void;
  /** Aborted on run timeout or Ctrl-C. */
  signal: AbortSignal;
  options: {
    egressUrl?: string;
    /** --nodes: the Windows nodes node-level checks visit (globs over names); empty or absent = all. */
    nodes?: string[];
    /** --include-cordoned: node-level checks visit cordoned nodes too (never NotReady ones). */
    includeCordoned?: boolean;
    /** --disruptive --disruptive-node: the Ready Windows node disruptive features may disrupt (checked in preflight). */
    disruptiveNode?: string;
    /** --image-registry: the mirror every image comes from; a pod a probe builds in code goes through it as fixtures do. */
    imageRegistry?: string;
    /** Deadlines for waits (pod start, rollout...), from lib/cluster/timeouts.ts and the config. */
    timeouts: Timeouts;
  };
}

export interface Feature {
  /** Stable, e.g. "sched.os-selector". Part of the JUnit testcase name: never rename. */
  id: string;
  area: Area;
  /** JUnit/mocha suite; defaults to area when omitted. No underscores. */
  suite?: string;
  title: string;
  needs?: Need[];
  /**
   * The harness means this feature is about (work.exec-logs: exec and logs). A MeansError of
   * one of these is the feature's observation (it did not work); of any other means, an error.
   */
  subject?: Means[];
  fixtures: FixtureSpec[];
  /**
   * Windows images the probe's own pods pull beyond its fixtures' (pods built in code, as the
   * disruptive checks do): listed by `wincheck images`, so an air-gapped mirror has them.
   */
  images?: string[];
  /**
   * What the probe does in the API beyond creating its fixtures and exec (logs, port-forward,
   * updates, the node proxy...): the RBAC preflight asks for it, `wincheck rbac` grants it.
   */
  access?: Permission[];
  /** The network path the feature exercises: its cell in the connectivity matrix. */
  netPath?: NetPath;
  /**
   * Runs once per Windows build on clusters with several builds (testcase "<id> [ltsc2022]").
   * Default: true when a Windows fixture is pinned to the target build or node (lib/run/builds.ts).
   */
  perBuild?: boolean;
  /** The documented promise for this cluster, computed from discovery. Pure. */
  expect(cluster: ClusterInfo): Expectation;
  /** Observes the cluster. Throwing means the harness could not tell: outcome error. */
  probe(ctx: CheckContext): Promise<Observation>;
  /**
   * How long the probe waits by its own design once its pods are up, however fast the cluster:
   * steady periods, idle rounds, a controller's sync period (from the run's timeouts). The run
   * serves the longest first wherever it queues (lib/run/priority.ts), so a full run's longest
   * check ends about when it would alone. Default 0.
   */
  designedWaitMs?(t: Timeouts): number;
}

/** One feature's verdict, as every reporter sees it. */
export interface CheckResult {
  id: string;
  area: Area;
  suite: string;
  title: string;
  expectation: Expectation;
  outcome: Outcome;
  /** Why this outcome: the expectation's reason and what was seen. */
  reason: string;
  summary: string;
  evidence: EvidenceItem[];
  /** Step lines logged by the probe. */
  steps: string[];
  node?: string;
  windowsBuild?: string;
  durationMs: number;
  /** When the check began (ISO 8601): with durationMs, a suite's wall time in the JUnit. */
  startedAt?: string;
  /** For outcome error: the error message chain. */
  error?: string;
  /** Its diagnostics folder relative to the report dir ("diagnostics/<id>/"), when saved. */
  diagnostics?: string;
  /** Cut short by Ctrl-C, SIGTERM or the run's --timeout: outcome error, but no finding about the feature. */
  interrupted?: boolean;
}
