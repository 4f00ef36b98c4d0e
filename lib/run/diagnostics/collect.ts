// Diagnostics of one failing check (regressed or error), saved under
// <reportDir>/diagnostics/<feature>/ before its fixtures are released: what a maintainer looks at
// first. Every byte is redacted with the run's secret values and bounded (bound.ts). Nothing here
// changes a verdict: a failure is said in the folder's index.txt and in the run's log.

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { errorText } from '../../../util/errorText.ts';
import type { CheckResult } from '../../catalog/types.ts';
import type { KubeClients } from '../../cluster/types.ts';
import type { NodeInfo } from '../../discovery/types.ts';
import type { Redactor } from '../../fixtures/secrets.ts';
import type { Transport } from '../../probes/types.ts';
import { FILE_LIMIT, FOLDER_LIMIT, FolderBudget } from './bound.ts';
import { nodeFiles } from './nodeLogs.ts';
import { fixturePods, podFiles, refused, type DiagnosticsFile } from './pods.ts';

export const DIAGNOSTICS_DIR = 'diagnostics';
/** Deadline of one node command (a log read, the HNS listing). */
const NODE_COMMAND_TIMEOUT_MS = 30_000;

export interface DiagnosticsInputs {
  kube: KubeClients;
  namespace: string;
  /** The check's fixtures: their pods are the ones read. */
  fixtureIds: string[];
  nodes: NodeInfo[];
  redactor: Redactor;
  reportDir: string;
  /** A transport to a node's host, when the run reaches nodes (else node logs are said missing). */
  nodeTransport?: (node: NodeInfo) => Promise<Transport | undefined>;
  signal: AbortSignal;
}

/** Whether a result gets diagnostics: a finding or an error, not a run that was cut short. */
export function wantsDiagnostics(r: CheckResult): boolean {
  return (r.outcome === 'regressed' || r.outcome === 'error') && !r.interrupted;
}

/** The feature's folder relative to the report dir, as reports link it. */
export const diagnosticsPath = (id: string) => `${DIAGNOSTICS_DIR}/${id}/`;

/** Removes an earlier run's diagnostics, so the folder holds this run's only. */
export function clearDiagnostics(reportDir: string): void {
  rmSync(join(reportDir, DIAGNOSTICS_DIR), { recursive: true, force: true });
}

/** Collects and writes the folder; returns its path relative to the report dir. */
export async function collectDiagnostics(i: DiagnosticsInputs, r: CheckResult): Promise<string> {
  const notes: string[] = [];
  const files: DiagnosticsFile[] = [];
  const started = r.startedAt ? Date.parse(r.startedAt) : Date.now() - r.durationMs;
  const window = { from: started, to: started + r.durationMs };
  let podNodes: string[] = [];
  try {
    const pods = await fixturePods(i.kube, i.namespace, i.fixtureIds);
    if (!i.fixtureIds.length) notes.push('The feature declares no fixture: no pod to show.');
    else if (!pods.length) notes.push(`No pod of fixture(s) ${i.fixtureIds.join(', ')} in ${i.namespace}.`);
    for (const p of pods) files.push(...(await podFiles(i.kube, p)));
    podNodes = pods.map(p => p.spec?.nodeName).filter((n): n is string => !!n);
  } catch (e) {
    notes.push(refused(e, 'list pods').trimEnd());
  }
  // The node the check named, and the Windows nodes its pods ran on.
  const names = [...new Set([r.node, ...podNodes].filter((n): n is string => !!n))];
  const windowsNodes = names.map(n => i.nodes.find(x => x.name === n)).filter((n): n is NodeInfo => n?.os === 'windows');
  if (!windowsNodes.length) notes.push('No Windows node involved (the check named none and no fixture pod ran on one): no node logs.');
  for (const node of windowsNodes) {
    if (!i.nodeTransport) {
      notes.push(`${node.name}: node logs not collected: no selected feature reaches nodes, so this run has no node access.`);
      continue;
    }
    try {
      const t = await i.nodeTransport(node);
      if (!t) notes.push(`${node.name}: node logs not collected: no transport to the node (HostProcess or SSH).`);
      else files.push(...(await nodeFiles(t, node.name, window, i.signal, NODE_COMMAND_TIMEOUT_MS)));
    } catch (e) {
      notes.push(`${node.name}: node logs not collected: ${errorText(e)}`);
    }
  }
  const dir = join(i.reportDir, DIAGNOSTICS_DIR, r.id);
  mkdirSync(dir, { recursive: true });
  const budget = new FolderBudget();
  const index = [
    `Diagnostics of ${r.id} (${r.outcome}): ${r.reason}`,
    `Check window: ${new Date(window.from).toISOString()} to ${new Date(window.to).toISOString()}`,
    `Bound: each file keeps its last ${FILE_LIMIT} bytes, the folder at most ${FOLDER_LIMIT}; cuts are marked. Secret values are masked; Secret objects are never read.`,
    '',
    ...files.map(f => f.path),
    ...(notes.length ? ['', ...notes] : []),
  ].join('\n');
  for (const f of [{ path: 'index.txt', text: index + '\n' }, ...files]) {
    const file = join(dir, f.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, budget.take(i.redactor.redact(f.text)));
  }
  return diagnosticsPath(r.id);
}
