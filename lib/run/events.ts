// The run's one event stream (Playwright's reporter model): begin, check begin, check end, log,
// error, end. The run emits it; reporters (lib/report) are events in, files out. Every hook is optional.

import type { CheckResult, Outcome } from '../catalog/types.ts';
import type { ClusterInfo } from '../discovery/types.ts';
import type { CredentialInfo } from '../cluster/credentialInfo.ts';

export interface SelectedFeature {
  id: string;
  suite: string;
  area: string;
  title: string;
}

export interface RunInfo {
  runId: string;
  namespace: string;
  /** The CLI started the simulated cluster for this run (the harness cannot tell). */
  simulated: boolean;
  /** Sim profile name when simulated. */
  simProfile?: string;
  cluster: ClusterInfo;
  strict: boolean;
  startedAt: string;
  selected: SelectedFeature[];
  /** Where the report files go. */
  reportDir: string;
  /** Where the kubeconfig came from ("--kubeconfig x", "KUBECONFIG", "in-cluster"...). */
  kubeconfigSource: string;
  /** Windows nodes node-level checks do not visit (cordoned, NotReady), with why. */
  notVisited?: { node: string; why: string }[];
  /** Who the run is (user, credential kind, impersonation) and whether TLS is verified. */
  credentials?: CredentialInfo;
}

export type RunStatus = 'passed' | 'failed' | 'interrupted' | 'timedout';

export interface RunSummary {
  status: RunStatus;
  counts: Record<Outcome, number>;
  results: CheckResult[];
  durationMs: number;
  /** Errors outside any check (deploy, cleanup...). */
  errors: string[];
  /** Reports that failed to write, "<Reporter>: why" (filled by the Multiplexer). */
  reportsLost?: string[];
}

export interface Progress {
  done: number;
  total: number;
}

export interface Reporter {
  onBegin?(run: RunInfo): void | Promise<void>;
  /** A check started (checks run concurrently: begin/end come in any order). */
  onCheckBegin?(feature: SelectedFeature): void;
  /** A check finished, as it happens; onEnd has every result in catalog order. */
  onCheckEnd?(result: CheckResult, progress: Progress): void;
  /** A line worth showing (step of the run, not of a check). */
  onLog?(line: string): void;
  onError?(message: string): void;
  onEnd?(summary: RunSummary): void | Promise<void>;
}

export const OUTCOMES: Outcome[] = ['supported', 'limited', 'lifted', 'regressed', 'n/a', 'error'];

export function emptyCounts(): Record<Outcome, number> {
  return { supported: 0, limited: 0, lifted: 0, regressed: 0, 'n/a': 0, error: 0 };
}

/** What the run emits to: one sink fanning out to the reporters (lib/report/multiplexer.ts). */
export interface RunEvents {
  onBegin(run: RunInfo): Promise<void>;
  onCheckBegin(feature: SelectedFeature): void;
  onCheckEnd(result: CheckResult, progress: Progress): void;
  onLog(line: string): void;
  onError(message: string): void;
  onEnd(summary: RunSummary): Promise<void>;
  /** Reports that could not be written (after onEnd): a lost result, never exit 0 over it. */
  readonly lost: readonly string[];
}
