// The connectivity matrix of summary.md: source × destination → ok / limited / failed / n/a, built
// from the networking features' own results (so it agrees with the JUnit testcases by
// construction). Paths are the features' `netPath` fields; a cell names the feature(s) behind it.

import { features as NET_FEATURES } from '../catalog/net/index.ts';
import { DESTINATION_LABELS, SOURCE_LABELS, type NetDestination, type NetPath, type NetSource } from '../catalog/net/netPath.ts';
import type { CheckResult, Outcome } from '../catalog/types.ts';
import { splitInstanceId } from './buildTable.ts';

/** Feature id → the path it exercises, for every networking feature that exercises one. */
export const NET_PATHS: ReadonlyMap<string, NetPath> = new Map(NET_FEATURES.flatMap(f => (f.netPath ? [[f.id, f.netPath] as const] : [])));

/** What a network engineer reads in a cell. "error" = the harness could not tell. */
export type CellWord = 'ok' | 'ok (lifted)' | 'limited' | 'failed' | 'error' | 'n/a';

export const CELL_WORD: Record<Outcome, CellWord> = {
  supported: 'ok',
  lifted: 'ok (lifted)',
  limited: 'limited',
  regressed: 'failed',
  error: 'error',
  'n/a': 'n/a',
};

/** Worst first: a cell with several features shows the worst word first. */
const SEVERITY: CellWord[] = ['failed', 'error', 'ok (lifted)', 'limited', 'ok', 'n/a'];

export interface MatrixCell {
  word: CellWord;
  features: { id: string; outcome: Outcome }[];
}

export interface ConnectivityMatrix {
  sources: NetSource[];
  destinations: NetDestination[];
  /** cells[source][destination], only where a result exists. */
  cells: Partial<Record<NetSource, Partial<Record<NetDestination, MatrixCell>>>>;
}

export function buildConnectivityMatrix(results: CheckResult[]): ConnectivityMatrix {
  const cells: ConnectivityMatrix['cells'] = {};
  for (const r of results) {
    // A per-build instance ("net.w2l [ltsc2022]") exercises its feature's path.
    const path = NET_PATHS.get(splitInstanceId(r.id)[0]);
    if (!path) continue;
    const row = (cells[path.from] ??= {});
    const cell = (row[path.to] ??= { word: 'n/a', features: [] });
    cell.features.push({ id: r.id, outcome: r.outcome });
    cell.word = worst(cell.features.map(f => CELL_WORD[f.outcome]));
  }
  const sources = (Object.keys(SOURCE_LABELS) as NetSource[]).filter(s => cells[s]);
  const destinations = (Object.keys(DESTINATION_LABELS) as NetDestination[]).filter(d => sources.some(s => cells[s]?.[d]));
  return { sources, destinations, cells };
}

function worst(words: CellWord[]): CellWord {
  return [...words].sort((a, b) => SEVERITY.indexOf(a) - SEVERITY.indexOf(b))[0] ?? 'n/a';
}

/** The summary.md section; empty when no networking path was checked. */
export function renderConnectivityMatrix(results: CheckResult[]): string[] {
  const m = buildConnectivityMatrix(results);
  if (!m.sources.length) return [];
  const cellText = (c: MatrixCell | undefined) => {
    if (!c) return '';
    const ids = c.features.map(f => (c.features.length > 1 ? `${f.id.replace(/^net\./, '')}: ${CELL_WORD[f.outcome]}` : f.id.replace(/^net\./, ''))).join(', ');
    const word = c.word === 'failed' || c.word === 'error' ? `**${c.word}**` : c.word === 'ok (lifted)' ? '**ok (lifted)** ⚑' : c.word;
    return `${word} <sub>${ids}</sub>`;
  };
  return [
    '## Connectivity matrix',
    '',
    "Source (row) → destination (column), from the networking checks above: ok = supported path working, limited = documented limitation seen, failed = regression, n/a = not checked here (see the feature's reason).",
    '',
    `| from \\ to | ${m.destinations.map(d => DESTINATION_LABELS[d]).join(' | ')} |`,
    `| --- | ${m.destinations.map(() => '---').join(' | ')} |`,
    ...m.sources.map(s => `| **${SOURCE_LABELS[s]}** | ${m.destinations.map(d => cellText(m.cells[s]?.[d])).join(' | ')} |`),
    '',
  ];
}
