// report.html next to summary.md: the same run for a browser, in one self-contained file (no
// script, no network). Counts first; then what needs attention (regressed, error, lifted), each
// foldable with its evidence; the support matrix (feature × Windows build); the connectivity
// matrix; the cluster.

import type { CheckResult } from '../catalog/types.ts';
import { DESTINATION_LABELS, SOURCE_LABELS } from '../catalog/net/netPath.ts';
import { buildLabel, releaseOfBuild } from '../facts/windows.ts';
import type { ClusterInfo } from '../discovery/types.ts';
import { RESULTS_SCHEMA_VERSION, WINCHECK_VERSION } from '../facts/wincheck.ts';
import { bannerOf } from './banner.ts';
import { splitInstanceId } from './buildTable.ts';
import { buildConnectivityMatrix, type CellWord } from './connectivityMatrix.ts';
import { formatEvidence } from './evidence.ts';
import { FileReporter } from './fileReporter.ts';
import { cssName, esc, htmlPage, outcomeBadge, sourcesHtml } from './htmlPage.ts';
import { OUTCOMES, type RunInfo, type RunSummary } from '../run/events.ts';
import { notVisitedText } from './notVisited.ts';

export default class HtmlReporter extends FileReporter {
  constructor(dir: string) {
    super(dir, 'report.html', renderHtml);
  }
}

/** A column of the support matrix: one Windows build (its node pool), or results tied to none. */
export interface BuildColumn {
  key: string;
  label: string;
  nodes: string[];
}

/** Needs attention: what fails the run (and lifted, which fails it under --strict). */
const ATTENTION = new Set(['regressed', 'error', 'lifted']);

export function renderHtml(run: RunInfo, summary: RunSummary): string {
  // The yellow box says SIMULATED; the line under the title gives the rest of the banner.
  const banner = bannerOf({ ...run, simulated: false });
  const attention = summary.results.filter(r => ATTENTION.has(r.outcome));
  const body = [
    `<h1>wincheck: ${esc(run.cluster.server)}</h1>`,
    `<p class="meta">${esc(banner)}</p>`,
    run.simulated ? `<p class="sim">SIMULATED CLUSTER (wincheck sim, profile ${esc(run.simProfile ?? 'default')}): not a real cluster.</p>` : '',
    `<p><span class="status status-${summary.status}" id="status">${summary.status.toUpperCase()}</span> in ${(summary.durationMs / 1000).toFixed(1)}s${run.strict ? ' (strict: lifted counts as failure)' : ''}, ${summary.results.length} checks</p>`,
    `<ul class="counts" id="counts">${OUTCOMES.map(o => `<li data-outcome="${esc(o)}">${outcomeBadge(o)}<b>${summary.counts[o]}</b></li>`).join('')}</ul>`,
    summary.errors.length ? `<h2>Run errors</h2><ul>${summary.errors.map(e => `<li>${esc(e)}</li>`).join('')}</ul>` : '',
    `<h2 id="attention">Needs attention (${attention.length})</h2>`,
    attention.length ? attention.map(r => resultDetails(r, run.strict)).join('\n') : '<p>Nothing regressed, errored or was lifted.</p>',
    `<h2>Support matrix</h2>`,
    supportMatrix(summary.results, run.cluster),
    connectivityMatrix(summary.results),
    clusterSection(run),
    `<footer>wincheck ${esc(WINCHECK_VERSION)}; results.json schema ${esc(RESULTS_SCHEMA_VERSION)}; run ${esc(run.runId)} started ${esc(run.startedAt)}. The same run: summary.md, results.json, junit_*.xml.</footer>`,
  ]
    .filter(Boolean)
    .join('\n');
  return htmlPage(`wincheck ${summary.status}: ${run.cluster.server}`, body);
}

/** Columns: every Windows build among the nodes, then "no build" when some result is tied to none. */
export function buildColumns(results: CheckResult[], cluster: ClusterInfo): BuildColumn[] {
  const builds = new Map<string, string[]>();
  for (const n of cluster.nodes.filter(n => n.os === 'windows')) builds.set(n.windowsBuild ?? '?', [...(builds.get(n.windowsBuild ?? '?') ?? []), n.name]);
  for (const r of results) if (r.windowsBuild && !builds.has(r.windowsBuild)) builds.set(r.windowsBuild, []);
  const cols: BuildColumn[] = [...builds]
    .sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true }))
    .map(([key, nodes]) => ({ key, label: `${releaseOfBuild(key) ?? 'Windows'} (${key})`, nodes }));
  if (
    results.some(
      r =>
        buildOfResult(
          r,
          cols.map(c => c.key),
        ) === '',
    )
  )
    cols.push({ key: '', label: 'no single build', nodes: ['cluster-level, Linux, or no node named'] });
  return cols;
}

function supportMatrix(results: CheckResult[], cluster: ClusterInfo): string {
  const cols = buildColumns(results, cluster);
  const byFeature = new Map<string, CheckResult[]>();
  // One row per feature: its per-build instances ("<id> [ltsc2022]") fill their builds' columns.
  for (const r of results) {
    const id = splitInstanceId(r.id)[0];
    byFeature.set(id, [...(byFeature.get(id) ?? []), r]);
  }
  const suites = [...new Set(results.map(r => r.suite))];
  const head = `<tr><th>Feature</th><th>Expected</th>${cols.map(c => `<th>${esc(c.label)}${c.nodes.length ? `<br><span class="sub">${esc(c.nodes.join(', '))}</span>` : ''}</th>`).join('')}<th>Why</th></tr>`;
  const rows: string[] = [];
  for (const suite of suites) {
    rows.push(`<tr class="suite"><th colspan="${cols.length + 3}">${esc(suite)}</th></tr>`);
    for (const [id, rs] of [...byFeature].filter(([, rs]) => rs[0].suite === suite)) {
      const first = rs[0];
      const bad = rs.some(r => r.outcome === 'regressed' || r.outcome === 'error');
      const cells = cols
        .map(c => {
          const r = rs.find(
            x =>
              buildOfResult(
                x,
                cols.map(k => k.key),
              ) === c.key,
          );
          if (!r) return '<td class="c"><span class="sub" title="not checked on this build">–</span></td>';
          const badge = outcomeBadge(r.outcome, `${r.node ? `${r.node}: ` : ''}${r.reason}`);
          return `<td class="c" data-build="${esc(c.key)}" data-outcome="${esc(r.outcome)}">${ATTENTION.has(r.outcome) ? `<a href="#${anchorOf(r.id)}">${badge}</a>` : badge}</td>`;
        })
        .join('');
      rows.push(
        `<tr data-feature="${esc(id)}"${bad ? ' class="bad"' : ''}><td><span class="fid">${esc(id)}</span><br>${esc(first.title)}</td><td>${esc(first.expectation.expected)}</td>${cells}<td class="sub">${esc(clip(first.reason, 220))}</td></tr>`,
      );
    }
  }
  return `<p class="legend">One row per feature, one column per Windows build (its node pool). Hover a cell for the node and the reason; a failing cell links to its evidence above.</p>
<table id="support-matrix">${head}${rows.join('')}</table>`;
}

function connectivityMatrix(results: CheckResult[]): string {
  const m = buildConnectivityMatrix(results);
  if (!m.sources.length) return '';
  const word: Record<CellWord, string> = { ok: 'supported', 'ok (lifted)': 'lifted', limited: 'limited', failed: 'regressed', error: 'error', 'n/a': 'n/a' };
  const rows = m.sources.map(
    s =>
      `<tr><th>${esc(SOURCE_LABELS[s])}</th>${m.destinations
        .map(d => {
          const c = m.cells[s]?.[d];
          if (!c) return '<td></td>';
          const ids = c.features.map(f => f.id).join(', ');
          return `<td class="c" data-source="${esc(s)}" data-destination="${esc(d)}" data-word="${esc(c.word)}"><span class="o o-${cssName(word[c.word])}" title="${esc(c.features.map(f => `${f.id}: ${f.outcome}`).join('\n'))}">${esc(c.word)}</span><br><span class="sub">${esc(ids.replace(/net\./g, ''))}</span></td>`;
        })
        .join('')}</tr>`,
  );
  return `<h2>Connectivity matrix</h2>
<p class="legend">Source (row) → destination (column), from the networking checks: ok = supported path working, limited = documented limitation seen, failed = regression.</p>
<table id="connectivity-matrix"><tr><th>from \\ to</th>${m.destinations.map(d => `<th>${esc(DESTINATION_LABELS[d])}</th>`).join('')}</tr>${rows.join('')}</table>`;
}

function resultDetails(r: CheckResult, strict: boolean): string {
  const lifted = r.outcome === 'lifted' ? (strict ? ' (fails the run under --strict)' : ' (documented as limited, seen working)') : '';
  const evidence = r.evidence.length ? `<pre>${esc(formatEvidence(r.evidence))}</pre>` : '<p class="sub">No command evidence.</p>';
  return `<details id="${anchorOf(r.id)}" data-outcome="${esc(r.outcome)}">
<summary>${outcomeBadge(r.outcome)} <span class="fid">${esc(r.id)}</span> ${esc(r.title)}${esc(lifted)}<br><span class="sub">${esc(clip(r.reason, 300))}</span></summary>
<dl>
<dt>Outcome</dt><dd>${esc(r.outcome)}: ${esc(r.reason)}</dd>
<dt>Expected</dt><dd>${esc(r.expectation.expected)}: ${esc(r.expectation.reason)}</dd>
<dt>Source</dt><dd>${sourcesHtml(r.expectation.source)}</dd>
<dt>Seen</dt><dd>${esc(r.summary)}</dd>
<dt>Node</dt><dd>${esc(r.node ?? 'none')}${r.windowsBuild ? ` (${esc(r.windowsBuild)})` : ''}</dd>
${r.error ? `<dt>Error</dt><dd>${esc(r.error)}</dd>` : ''}
${r.diagnostics ? `<dt>Diagnostics</dt><dd><a href="${esc(r.diagnostics)}index.txt">${esc(r.diagnostics)}</a> (pods, events, logs, node logs)</dd>` : ''}
</dl>
${r.steps.length ? `<p><b>Steps</b></p><pre>${esc(r.steps.join('\n'))}</pre>` : ''}
<p><b>Evidence</b></p>${evidence}
</details>`;
}

function clusterSection(run: RunInfo): string {
  const c = run.cluster;
  const nodes = c.nodes
    .map(
      n =>
        `<tr><td>${esc(n.name)}</td><td>${esc(n.os)}</td><td>${esc(n.windowsBuild ?? '')}</td><td>${esc(`${n.runtimeName}://${n.runtimeVersion}`)}</td><td>${esc(n.kubeletVersion)}</td><td>${n.ready ? 'Ready' : 'NotReady'}${n.schedulable ? '' : ', unschedulable'}</td></tr>`,
    )
    .join('');
  return `<h2>Cluster</h2>
<dl><dt>Server</dt><dd>${esc(c.server)}${c.context ? ` (context ${esc(c.context)})` : ''}</dd><dt>Kubernetes</dt><dd>${esc(c.version.gitVersion)}</dd>
<dt>Namespace</dt><dd>${esc(run.namespace)}</dd><dt>CNI</dt><dd>${esc(c.network.cni ?? 'unknown')}${c.network.networkMode ? `, ${esc(c.network.networkMode)}` : ''}</dd>
<dt>kube-proxy</dt><dd>${esc(c.network.kubeProxyDaemonSets.join(', ') || 'unknown')}</dd></dl>
<table><tr><th>Node</th><th>OS</th><th>Build</th><th>Runtime</th><th>Kubelet</th><th>State</th></tr>${nodes}</table>
${run.notVisited?.length ? `<p>Not visited by node-level checks: ${esc(notVisitedText(run))}</p>` : ''}`;
}

/**
 * The Windows build a result speaks for: the one it ran on, else its instance's build ("[ltsc2022]"
 * of a check that ran nowhere, e.g. n/a), else "" (not tied to one build).
 */
export function buildOfResult(r: CheckResult, builds: string[]): string {
  if (r.windowsBuild) return r.windowsBuild;
  const label = splitInstanceId(r.id)[1];
  return (label && builds.find(b => buildLabel(b) === label)) || '';
}

/** An element id for a result: "work.iis-pod [ltsc2022]" → "f-work.iis-pod@ltsc2022" (no spaces in ids). */
export function anchorOf(id: string): string {
  return `f-${id.replace(/ \[/g, '@').replace(/[\]\s"<>&]/g, '')}`;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
