// `wincheck report merge DIR...`: many runs' results.json → one matrix, feature × (Kubernetes
// version × Windows build), each column naming the cluster and run it came from. With a
// baseline (earlier runs), every cell that changed is marked. What release qualification reads.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult, Outcome } from '../catalog/types.ts';
import { releaseOfBuild } from '../facts/windows.ts';
import { UsageError } from '../errors.ts';
import { RESULTS_SCHEMA_VERSION, WINCHECK_VERSION } from '../facts/wincheck.ts';
import { splitInstanceId } from './buildTable.ts';
import { esc, htmlPage, outcomeBadge } from './htmlPage.ts';
import { buildOfResult } from './html.ts';
import { readResults, type LoadedRun } from './resultsFile.ts';

export type { LoadedRun };

/** A column: one Windows build of one run (a cluster at a Kubernetes version). */
export interface MergeColumn {
  /** Kubernetes version × build: what a baseline column is matched by. */
  key: string;
  k8sVersion: string;
  /** "10.0.20348", or "" for results tied to no single build of a multi-build run. */
  build: string;
  cluster: string;
  runId: string;
  simulated?: string;
  file: string;
}

export interface MergeCell {
  outcome: Outcome;
  reason: string;
  /** The baseline's outcome when it differs; "new" when the baseline has no such cell. */
  was?: Outcome | 'new';
}

export interface MergedMatrix {
  wincheckVersion: string;
  schemaVersion: string;
  columns: MergeColumn[];
  features: { id: string; suite: string; title: string }[];
  /** cells[featureId][columnIndex] */
  cells: Record<string, (MergeCell | undefined)[]>;
  /** Set when merged against a baseline: the changed cells, worst first. */
  changes?: { feature: string; column: number; from: Outcome | 'new'; to: Outcome }[];
  /** Baseline columns no current run covers. */
  baselineOnly?: string[];
}

/** DIR is a run's report directory, or a folder of them (one level down). */
export function loadRuns(dirs: string[]): LoadedRun[] {
  const runs: LoadedRun[] = [];
  for (const dir of dirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${dir} is not a directory of wincheck reports`);
    const direct = join(dir, 'results.json');
    const files = existsSync(direct)
      ? [direct]
      : readdirSync(dir)
          .map(d => join(dir, d, 'results.json'))
          .filter(f => existsSync(f))
          .sort();
    if (!files.length) throw new UsageError(`${dir} holds no results.json (nor do its subdirectories)`);
    for (const f of files) runs.push(readResults(f));
  }
  return runs;
}

function columnsOf(r: LoadedRun): { col: MergeColumn; results: CheckResult[] }[] {
  const c = r.run.cluster;
  const builds = [...new Set(c.nodes.filter(n => n.os === 'windows').map(n => n.windowsBuild ?? '?'))].sort();
  for (const res of r.summary.results) if (res.windowsBuild && !builds.includes(res.windowsBuild)) builds.push(res.windowsBuild);
  const col = (build: string): MergeColumn => ({
    key: `${c.version.gitVersion}|${build}`,
    k8sVersion: c.version.gitVersion,
    build,
    cluster: `${c.server}${c.context ? ` (${c.context})` : ''}`,
    runId: r.run.runId,
    ...(r.run.simulated ? { simulated: r.run.simProfile ?? 'default' } : {}),
    file: r.file,
  });
  // A single-build cluster: every result speaks for that build. Else results without a build get their own column.
  if (builds.length <= 1) return [{ col: col(builds[0] ?? ''), results: r.summary.results }];
  const out = builds.map(b => ({ col: col(b), results: r.summary.results.filter(x => buildOfResult(x, builds) === b) }));
  const loose = r.summary.results.filter(x => !builds.includes(buildOfResult(x, builds)));
  if (loose.length) out.push({ col: col(''), results: loose });
  return out;
}

const baseId = (id: string) => splitInstanceId(id)[0];

const rankOf = (col: MergeColumn) => [col.k8sVersion, col.build];

export function mergeRuns(runs: LoadedRun[], baseline?: LoadedRun[]): MergedMatrix {
  const parts = runs.flatMap(columnsOf).sort((a, b) => {
    const [ka, ba] = rankOf(a.col);
    const [kb, bb] = rankOf(b.col);
    return (
      ka.localeCompare(kb, undefined, { numeric: true }) || ba.localeCompare(bb, undefined, { numeric: true }) || a.col.cluster.localeCompare(b.col.cluster)
    );
  });
  const features = new Map<string, { id: string; suite: string; title: string }>();
  // Rows are features: a per-build instance ("<id> [ltsc2022]") is its feature in its build's column.
  for (const p of parts)
    for (const r of p.results) {
      const id = baseId(r.id);
      if (!features.has(id)) features.set(id, { id, suite: r.suite, title: r.title });
    }
  const ordered = [...features.values()].sort((a, b) => a.suite.localeCompare(b.suite) || a.id.localeCompare(b.id));
  const cells: MergedMatrix['cells'] = {};
  for (const f of ordered)
    cells[f.id] = parts.map(p => {
      const r = p.results.find(x => baseId(x.id) === f.id);
      return r ? { outcome: r.outcome, reason: r.reason } : undefined;
    });
  const merged: MergedMatrix = {
    wincheckVersion: WINCHECK_VERSION,
    schemaVersion: RESULTS_SCHEMA_VERSION,
    columns: parts.map(p => p.col),
    features: ordered,
    cells,
  };
  if (baseline) markChanges(merged, baseline);
  return merged;
}

const SEVERITY: (Outcome | 'new')[] = ['regressed', 'error', 'lifted', 'limited', 'n/a', 'supported', 'new'];

function markChanges(m: MergedMatrix, baseline: LoadedRun[]): void {
  const before = new Map<string, Outcome>();
  const baseKeys = new Set<string>();
  for (const p of baseline.flatMap(columnsOf)) {
    baseKeys.add(p.col.key);
    for (const r of p.results) before.set(`${p.col.key}|${baseId(r.id)}`, r.outcome);
  }
  m.changes = [];
  for (const f of m.features) {
    m.cells[f.id].forEach((cell, i) => {
      if (!cell) return;
      const key = m.columns[i].key;
      const was = before.get(`${key}|${f.id}`) ?? 'new';
      if (was === cell.outcome) return;
      cell.was = was;
      m.changes!.push({ feature: f.id, column: i, from: was, to: cell.outcome });
    });
  }
  m.changes.sort((a, b) => SEVERITY.indexOf(a.to) - SEVERITY.indexOf(b.to) || a.feature.localeCompare(b.feature));
  m.baselineOnly = [...baseKeys].filter(k => !m.columns.some(c => c.key === k)).map(k => k.replace('|', ' × '));
}

export function columnLabel(c: MergeColumn): string {
  const build = c.build ? `${releaseOfBuild(c.build) ?? 'Windows'} ${c.build}` : 'no single build';
  return `k8s ${c.k8sVersion} · ${build}`;
}

function columnCluster(c: MergeColumn): string {
  return `${c.cluster}, run ${c.runId}${c.simulated ? `, SIMULATED (${c.simulated})` : ''}`;
}

export function renderMergedMarkdown(m: MergedMatrix): string {
  const word = (cell?: MergeCell) => {
    if (!cell) return '–';
    const w = cell.outcome === 'regressed' || cell.outcome === 'error' ? `**${cell.outcome}**` : cell.outcome;
    return cell.was ? `${w} (was ${cell.was})` : w;
  };
  const lines = [
    `# wincheck merged matrix: ${m.columns.length} column(s) from ${new Set(m.columns.map(c => c.file)).size} run(s)`,
    '',
    'Feature (row) × Kubernetes version and Windows build (column); "(was X)" marks a change since the baseline.',
    '',
    '| Column | Cluster |',
    '| --- | --- |',
    ...m.columns.map((c, i) => `| ${i + 1}. ${columnLabel(c)} | ${columnCluster(c).replace(/\|/g, '\\|')} |`),
    '',
  ];
  if (m.changes) {
    lines.push(`## Changes since the baseline (${m.changes.length})`, '');
    lines.push(
      ...(m.changes.length
        ? m.changes.map(ch => `- \`${ch.feature}\` in ${m.columns[ch.column].key.replace('|', ' × ')}: ${ch.from} → **${ch.to}**`)
        : ['None.']),
    );
    if (m.baselineOnly?.length) lines.push('', `Baseline columns no run covers now: ${m.baselineOnly.join(', ')}.`);
    lines.push('');
  }
  lines.push(
    '## Matrix',
    '',
    `| Feature | ${m.columns.map((_, i) => `${i + 1}`).join(' | ')} |`,
    `| --- | ${m.columns.map(() => '---').join(' | ')} |`,
    ...m.features.map(f => `| \`${f.id}\` | ${m.cells[f.id].map(word).join(' | ')} |`),
    '',
    `wincheck ${m.wincheckVersion}; results.json schema ${m.schemaVersion}.`,
    '',
  );
  return lines.join('\n');
}

export function renderMergedHtml(m: MergedMatrix): string {
  const head = `<tr><th>Feature</th>${m.columns.map((c, i) => `<th data-column="${i}">${esc(columnLabel(c))}<br><span class="sub">${esc(columnCluster(c))}</span></th>`).join('')}</tr>`;
  const rows: string[] = [];
  for (const suite of [...new Set(m.features.map(f => f.suite))]) {
    rows.push(`<tr class="suite"><th colspan="${m.columns.length + 1}">${esc(suite)}</th></tr>`);
    for (const f of m.features.filter(x => x.suite === suite)) {
      rows.push(
        `<tr data-feature="${esc(f.id)}"><td><span class="fid">${esc(f.id)}</span><br>${esc(f.title)}</td>${m.cells[f.id]
          .map((cell, i) => {
            if (!cell) return `<td class="c" data-column="${i}"><span class="sub" title="not checked">–</span></td>`;
            const changed = cell.was ? `<br><span class="o o-changed" title="since the baseline">was ${esc(cell.was)}</span>` : '';
            return `<td class="c" data-column="${i}" data-outcome="${esc(cell.outcome)}"${cell.was ? ` data-was="${esc(cell.was)}"` : ''}>${outcomeBadge(cell.outcome, cell.reason)}${changed}</td>`;
          })
          .join('')}</tr>`,
      );
    }
  }
  const changes = m.changes
    ? `<h2>Changes since the baseline (${m.changes.length})</h2>${
        m.changes.length
          ? `<ul id="changes">${m.changes.map(ch => `<li><span class="fid">${esc(ch.feature)}</span> in ${esc(columnLabel(m.columns[ch.column]))}: ${esc(ch.from)} → ${outcomeBadge(ch.to)}</li>`).join('')}</ul>`
          : '<p>None.</p>'
      }${m.baselineOnly?.length ? `<p class="sub">Baseline columns no run covers now: ${esc(m.baselineOnly.join(', '))}.</p>` : ''}`
    : '';
  const body = `<h1>wincheck merged matrix</h1>
<p class="meta">${m.features.length} features × ${m.columns.length} columns (Kubernetes version × Windows build) from ${new Set(m.columns.map(c => c.file)).size} runs. Hover a cell for the reason.</p>
${changes}
<h2>Matrix</h2>
<table id="merged-matrix">${head}${rows.join('')}</table>
<footer>wincheck ${esc(m.wincheckVersion)}; results.json schema ${esc(m.schemaVersion)}.</footer>`;
  return htmlPage('wincheck merged matrix', body);
}
