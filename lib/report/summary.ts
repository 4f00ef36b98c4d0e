// summary.md: what a maintainer reads in ten seconds. Counts first, then one row per feature.

import { describeCredentials } from '../cluster/credentialInfo.ts';
import { formatSourcesMarkdown } from '../facts/sources.ts';
import { RESULTS_SCHEMA_VERSION, WINCHECK_VERSION } from '../facts/wincheck.ts';
import { bannerOf } from './banner.ts';
import { renderBuildTable } from './buildTable.ts';
import { renderConnectivityMatrix } from './connectivityMatrix.ts';
import { FileReporter } from './fileReporter.ts';
import { type RunInfo, type RunSummary, OUTCOMES } from '../run/events.ts';
import { notVisitedText } from './notVisited.ts';

export default class SummaryReporter extends FileReporter {
  constructor(dir: string) {
    super(dir, 'summary.md', renderSummary);
  }
}

export function renderSummary(run: RunInfo, summary: RunSummary): string {
  const c = run.cluster;
  const lines = [
    `# ${bannerOf(run)}`,
    '',
    `**${summary.status.toUpperCase()}** in ${(summary.durationMs / 1000).toFixed(1)}s` + (run.strict ? ' (strict: lifted counts as failure)' : ''),
    '',
    `| ${OUTCOMES.join(' | ')} |`,
    `| ${OUTCOMES.map(() => '---').join(' | ')} |`,
    `| ${OUTCOMES.map(o => String(summary.counts[o])).join(' | ')} |`,
    '',
  ];
  const lifted = summary.results.filter(r => r.outcome === 'lifted');
  if (lifted.length) lines.push(`**Lifted limitations** (documented as limited, seen working): ${lifted.map(r => r.id).join(', ')}`, '');
  lines.push(
    '| Feature | Outcome | Expected | Node | Why |',
    '| --- | --- | --- | --- | --- |',
    ...summary.results.map(
      r =>
        `| \`${r.id}\` ${cell(r.title)} | ${r.outcome === 'lifted' ? '**lifted** ⚑' : r.outcome === 'regressed' || r.outcome === 'error' ? `**${r.outcome}**` : r.outcome} | ${r.expectation.expected} | ${r.node ?? ''} | ${cell(r.reason)} (${cell(formatSourcesMarkdown(r.expectation.source))}) |`,
    ),
    '',
    ...renderBuildTable(summary.results),
    ...renderConnectivityMatrix(summary.results),
  );
  if (summary.errors.length) lines.push('## Run errors', '', ...summary.errors.map(e => `- ${e}`), '');
  lines.push(
    '## Cluster',
    '',
    `- Server: ${c.server}${c.context ? `, context ${c.context}` : ''}; Kubernetes ${c.version.gitVersion}`,
    ...(run.credentials ? [`- Identity: ${describeCredentials(run.credentials)}`] : []),
    `- Namespace: ${run.namespace}`,
    ...c.nodes.map(
      n =>
        `- Node ${n.name}: ${n.os}${n.windowsBuild ? ` ${n.windowsBuild}` : ''}, ${n.runtimeName}://${n.runtimeVersion}, kubelet ${n.kubeletVersion}${n.ready ? '' : ', NotReady'}`,
    ),
    ...(run.notVisited?.length ? [`- Not visited by node-level checks: ${notVisitedText(run)}`] : []),
    `- CNI: ${c.network.cni ?? 'unknown'}; kube-proxy: ${c.network.kubeProxyDaemonSets.join(', ') || 'unknown'}`,
    '',
    `wincheck ${WINCHECK_VERSION}; results.json schema ${RESULTS_SCHEMA_VERSION}.`,
    '',
  );
  return lines.join('\n');
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
