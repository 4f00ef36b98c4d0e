// Evidence as text, for failure bodies and summaries. Values are already redacted by the probe runner.

import type { CheckResult, EvidenceItem } from '../catalog/types.ts';
import type { ClusterInfo, NodeInfo } from '../discovery/types.ts';

const MAX_STREAM = 2000;

export function formatEvidence(items: EvidenceItem[]): string {
  return items
    .map(item => {
      if (typeof item === 'string') return `- ${item}`;
      const lines = [`- ${item.transport}: ${item.command} → exit ${item.exitCode} (${item.durationMs}ms)`];
      if (item.stdout.trim()) lines.push(`  stdout: ${clip(item.stdout.trim())}`);
      if (item.stderr.trim()) lines.push(`  stderr: ${clip(item.stderr.trim())}`);
      return lines.join('\n');
    })
    .join('\n');
}

export function formatResultDetails(r: CheckResult): string {
  const parts = [`${r.outcome}: ${r.reason}`, `seen: ${r.summary}`];
  if (r.steps.length) parts.push('steps:\n' + r.steps.map(s => `- ${s}`).join('\n'));
  if (r.evidence.length) parts.push('evidence:\n' + formatEvidence(r.evidence));
  if (r.error) parts.push(`error: ${r.error}`);
  return parts.join('\n');
}

/** The node a result ran on, else the first Windows node: for per-testcase properties. */
export function nodeOfResult(r: CheckResult, cluster: ClusterInfo): NodeInfo | undefined {
  return cluster.nodes.find(n => n.name === r.node) ?? cluster.nodes.find(n => n.os === 'windows');
}

function clip(s: string): string {
  return s.length > MAX_STREAM ? `${s.slice(0, MAX_STREAM)}… (${s.length - MAX_STREAM} more chars)` : s;
}
